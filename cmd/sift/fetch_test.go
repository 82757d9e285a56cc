package main

import (
	"strings"
	"testing"
)

// TestFetchCLIMaxTokens: --max-tokens reaches /v1/fetch, and sift's
// refusal of a bad value is the CLI's error.
func TestFetchCLIMaxTokens(t *testing.T) {
	origin := fixturePages(t)
	addr := startSift(t, origin)
	t.Setenv("SIFT_URL", "http://"+addr)
	t.Setenv("SIFT_KEY", "test-key")
	stdout, stderr, code := runSift(t, nil, "fetch", "--max-tokens", "100000", "--question", "fixture", origin.URL+"/a.html")
	if code != 0 || !strings.Contains(stdout, "Fixture text") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	_, stderr, code = runSift(t, nil, "fetch", "--max-tokens", "0", origin.URL+"/a.html")
	if code == 0 || !strings.Contains(stderr, "max_tokens 0: want 1 to") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}
