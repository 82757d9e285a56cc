package app

import (
	"testing"

	"github.com/siftd/sift/config"
)

// TestShapeFollowsWhatTheOutputDependsOn: the cache's keys change with any
// stage or plugin block, and stay when only callers change.
func TestShapeFollowsWhatTheOutputDependsOn(t *testing.T) {
	parse := func(extract, key string) string {
		t.Helper()
		src := `caller "c" {
  key_sha256 = "` + key + `"
}
extractor "html" {
  isolation = "none"
}
pipeline {
  stage "guard" {}
  stage "fetch" {}
  stage "extract" {` + extract + `}
  stage "cache" {}
}
`
		cfg, diags := config.Parse([]byte(src), "test.hcl")
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		return shape(cfg)
	}
	keyA := "a665a45920422f9d417e4867efdc4fb8a04a1f3fff1fa07e998e86f7f7a27ae3"
	keyB := "b3a8e0e1f9ab1bfe3a36f231f676f78bb30a519d2b21e6c530c0eee8ebb4a5d0"
	base := parse("", keyA)
	if parse("", keyB) != base {
		t.Error("another caller key changed the shape: the cache would be lost for nothing")
	}
	for _, extract := range []string{
		"\n    content_types = [\"application/json\"]\n  ",
		"\n    max_output = \"1KiB\"\n  ",
	} {
		if parse(extract, keyA) == base {
			t.Errorf("extract {%s} kept the shape: the cache would restore the old chain's snapshots", extract)
		}
	}
}
