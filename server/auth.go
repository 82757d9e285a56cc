package server

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"strings"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/errclass"
)

// caller is an authenticated agent or team.
type caller struct {
	name       string
	hash       []byte
	workspace  string
	restricted bool
}

func callersFrom(cfg []config.Caller) []caller {
	out := make([]caller, 0, len(cfg))
	for _, c := range cfg {
		if len(c.KeyHash) != sha256.Size {
			continue // config validation refuses these
		}
		out = append(out, caller{name: c.Name, hash: c.KeyHash, workspace: c.Workspace, restricted: c.Restricted})
	}
	return out
}

// authenticate finds the caller whose key hash matches the bearer key. It
// compares against every caller in constant time, so timing tells nothing
// about which hashes are close.
func (s *Server) authenticate(r *http.Request) (*caller, *apiError) {
	auth := r.Header.Get("Authorization")
	key, ok := strings.CutPrefix(auth, "Bearer ")
	if !ok || strings.TrimSpace(key) == "" {
		return nil, classError(errclass.Unauthorized, "no key: send Authorization: Bearer <key>")
	}
	sum := sha256.Sum256([]byte(strings.TrimSpace(key)))
	var found *caller
	for i := range s.callers {
		if subtle.ConstantTimeCompare(sum[:], s.callers[i].hash) == 1 {
			found = &s.callers[i]
		}
	}
	if found == nil {
		return nil, classError(errclass.Unauthorized, "invalid key: send Authorization: Bearer <key> with a key sift knows")
	}
	return found, nil
}
