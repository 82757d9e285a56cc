package server

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestHealthDetailNeedsKey: without a valid key /healthz says only whether
// sift is healthy; the dependencies' detail, which can name internal
// addresses, needs a key.
func TestHealthDetailNeedsKey(t *testing.T) {
	t.Parallel()
	const secret = `unreachable: Get "http://10.0.0.5:8080/v1/models": connection refused`
	for _, healthy := range []bool{true, false} {
		srv := newTestServer(t, fixtureOrigin(t), testOptions{Options: Options{Health: func() (bool, any) {
			return healthy, map[string]any{"services": map[string]any{"digester/llm": map[string]any{"ok": false, "error": secret}}}
		}}})
		wantStatus := http.StatusOK
		if !healthy {
			wantStatus = http.StatusServiceUnavailable
		}
		for _, tc := range []struct {
			key        string
			wantDetail bool
		}{{"", false}, {"wrong", false}, {testKey, true}, {quietKey, true}} {
			req, _ := http.NewRequest(http.MethodGet, srv.URL+"/healthz", nil)
			if tc.key != "" {
				req.Header.Set("Authorization", "Bearer "+tc.key)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			body := string(raw)
			if resp.StatusCode != wantStatus {
				t.Errorf("healthy=%v key %q: status %d, want %d", healthy, tc.key, resp.StatusCode, wantStatus)
			}
			if got := strings.Contains(body, "10.0.0.5"); got != tc.wantDetail {
				t.Errorf("healthy=%v key %q: detail shown %v, want %v: %s", healthy, tc.key, got, tc.wantDetail, body)
			}
			if !tc.wantDetail && strings.TrimSpace(body) != map[bool]string{true: `{"ok":true}`, false: `{"ok":false}`}[healthy] {
				t.Errorf("healthy=%v key %q: %s, want only ok", healthy, tc.key, body)
			}
		}
	}
}
