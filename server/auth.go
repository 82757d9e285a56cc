package server

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"strings"

	"github.com/siftd/sift/errclass"
	"github.com/siftd/sift/internal/service"
)

// caller is an authenticated agent or team.
type caller = service.Caller

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
		if subtle.ConstantTimeCompare(sum[:], s.callers[i].Hash) == 1 {
			found = &s.callers[i]
		}
	}
	if found == nil {
		return nil, classError(errclass.Unauthorized, "invalid key: send Authorization: Bearer <key> with a key sift knows")
	}
	return found, nil
}
