package server

import (
	"net/http"
	"strings"
	"testing"
)

// TestURLWithoutScheme: a URL without a scheme is input to correct, a 400
// that says what to send, on both APIs; it was 403 "blocked: no scheme".
func TestURLWithoutScheme(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	srv := newTestServer(t, origin, testOptions{})
	for _, path := range []string{"/v1/fetch", "/v2/scrape", "/v2/map"} {
		resp, out := post(t, srv.URL+path, testKey, map[string]any{"url": "example.com/page"})
		msg, _ := out["error"].(string)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(msg, `url "example.com/page" has no scheme: send an absolute URL, such as https://example.com/page`) {
			t.Errorf("%s: %d %q", path, resp.StatusCode, msg)
		}
	}
}

// TestGuardRefusalNamesItsSetting: a refusal of a local origin names the
// guard setting that admits it; cloud metadata's link-local address gets
// no such hint.
func TestGuardRefusalNamesItsSetting(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	srv := newTestServer(t, origin, testOptions{})
	for _, tc := range []struct{ url, hint string }{
		{"http://127.0.0.1:1/", "allow_ports"},
		{"http://10.0.0.5/", "allow_cidrs"},
		{"http://169.254.169.254/latest/meta-data/", ""},
	} {
		resp, out := post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": tc.url})
		hint, _ := out["hint"].(string)
		if resp.StatusCode != http.StatusForbidden || (tc.hint == "") != (hint == "") || !strings.Contains(hint, tc.hint) {
			t.Errorf("%s: %d, hint %q, want one naming %q", tc.url, resp.StatusCode, hint, tc.hint)
		}
	}
}
