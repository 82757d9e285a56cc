package server

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/siftd/sift/config"
)

// TestMetricsAccess: /metrics is open by default; with key_required a
// scrape without a key, or with a key sift does not know, is 401 as on
// the other routes, and with callers only their keys may scrape.
func TestMetricsAccess(t *testing.T) {
	t.Parallel()
	const (
		open = http.StatusOK
		deny = http.StatusUnauthorized
	)
	tests := []struct {
		name   string
		access config.Metrics
		// want is the status for no key, a wrong key, the agent's key and
		// the quiet caller's key.
		want [4]int
	}{
		{"no metrics block", config.Metrics{}, [4]int{open, open, open, open}},
		{"key_required", config.Metrics{KeyRequired: true}, [4]int{deny, deny, open, open}},
		{"key_required, callers quiet", config.Metrics{KeyRequired: true, Callers: []string{"quiet"}}, [4]int{deny, deny, deny, open}},
	}
	keys := [4]string{"", "wrong-key", testKey, quietKey}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := newTestServer(t, fixtureOrigin(t), testOptions{Options: Options{MetricsAccess: tc.access}})
			for i, key := range keys {
				req, _ := http.NewRequest(http.MethodGet, srv.URL+"/metrics", nil)
				if key != "" {
					req.Header.Set("Authorization", "Bearer "+key)
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				raw, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				body := string(raw)
				if resp.StatusCode != tc.want[i] {
					t.Errorf("key %q: status %d, want %d: %.200s", key, resp.StatusCode, tc.want[i], body)
					continue
				}
				names := strings.Contains(body, `caller="agent"`)
				if tc.want[i] == open && !names {
					t.Errorf("key %q: a scrape without the callers' series: %.200s", key, body)
				}
				if tc.want[i] == deny && (names || !strings.Contains(body, `"error":"unauthorized: `)) {
					t.Errorf("key %q: refused with %.300s, want the unauthorized envelope alone", key, body)
				}
			}
		})
	}
}
