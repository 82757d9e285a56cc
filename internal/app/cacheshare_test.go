package app

import (
	"log/slog"
	"strings"
	"testing"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/stages"
	"github.com/siftd/sift/stages/kinds"
	"github.com/siftd/sift/store"
)

// TestRestrictedShare: the cache's share for restricted callers is the
// smallest restricted_share the cache blocks set; unset, a quarter when a
// caller is restricted and nothing when none is, so that a sift without
// restricted callers keeps the whole budget for the others.
func TestRestrictedShare(t *testing.T) {
	const open = "caller \"a\" {\n  key_sha256 = \"a665a45920422f9d417e4867efdc4fb8a04a1f3fff1fa07e998e86f7f7a27ae3\"\n}\n"
	const restricted = "caller \"r\" {\n  key_sha256 = \"b3a8e0e1f9ab1bfe3a36f231f676f78bb30a519d2b21e6c530c0eee8ebb4a5d0\"\n  restricted = true\n}\n"
	tests := []struct {
		name    string
		callers string
		caches  []string // each cache block's body
		want    float64
	}{
		{"no restricted caller", open, []string{""}, 0},
		{"a restricted caller", open + restricted, []string{""}, store.DefaultRestrictedShare},
		{"set, no restricted caller", open, []string{"restricted_share = 0.1"}, 0.1},
		{"set to none", open + restricted, []string{"restricted_share = 0"}, 0},
		{"the smallest set applies", open + restricted, []string{"restricted_share = 0.5", "", "restricted_share = 0.3"}, 0.3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var caches strings.Builder
			for _, body := range tc.caches {
				caches.WriteString("  stage \"cache\" {\n    " + body + "\n  }\n")
			}
			src := tc.callers + "pipeline {\n  stage \"guard\" {}\n  stage \"fetch\" {}\n  stage \"extract\" {}\n" + caches.String() + "}\n"
			cfg, diags := config.Parse([]byte(src), "test.hcl")
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			chain, diags := stages.Build(chainBlocks(cfg), kinds.Registry(), stages.Deps{Logger: slog.Default()})
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if got := restrictedShare(chain, cfg.Callers); got != tc.want {
				t.Errorf("share %v, want %v", got, tc.want)
			}
		})
	}
}
