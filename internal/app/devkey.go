package app

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"net"

	"github.com/hashicorp/hcl/v2"

	"github.com/siftd/sift"
	"github.com/siftd/sift/config"
)

// CheckDevKey refuses to expose the documented development key beyond
// loopback. It compares the decoded hash, so no spelling of the hex (upper
// case, mixed case) slips past it.
func CheckDevKey(cfg *config.Config) hcl.Diagnostics {
	devHash := sha256.Sum256([]byte(sift.DevKey))
	host, _, _ := net.SplitHostPort(cfg.Listen)
	ip := net.ParseIP(host)
	if host == "localhost" || (ip != nil && ip.IsLoopback()) {
		return nil
	}
	var diags hcl.Diagnostics
	for _, c := range cfg.Callers {
		if bytes.Equal(c.KeyHash, devHash[:]) {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Development key beyond loopback",
				Detail: fmt.Sprintf("caller %q holds the development key, so sift listens only on loopback (listen = %q); "+
					"replace it with `sift key new %s`.", c.Name, cfg.Listen, c.Name),
				Subject: c.DefRange.Ptr()})
		}
	}
	return diags
}
