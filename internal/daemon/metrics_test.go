package daemon

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/siftd/sift/plugins/host"
	"github.com/siftd/sift/plugins/html"
)

// TestMetricsBlockReachesTheRoute: the file's metrics block decides who
// may scrape /metrics, and a reload changes it like any other setting.
func TestMetricsBlockReachesTheRoute(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	opts := Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Extractors: host.Builtins{"html": html.New}}
	d, diags := New(ctx, testConfig(t, dir, "key-0", ""), opts)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	defer d.Close(context.Background())
	srv := httptest.NewServer(d)
	defer srv.Close()
	status := func(key string) int {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/metrics", nil)
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	steps := []struct {
		name  string
		block string
		// want is the status without a key and with the caller's.
		want [2]int
	}{
		{"no block", "", [2]int{http.StatusOK, http.StatusOK}},
		{"key_required", "metrics {\n  key_required = true\n}", [2]int{http.StatusUnauthorized, http.StatusOK}},
		{"open again", "metrics {\n  key_required = false\n}", [2]int{http.StatusOK, http.StatusOK}},
	}
	for i, st := range steps {
		if i > 0 {
			if diags := d.Reload(ctx, testConfig(t, dir, "key-0", st.block)); diags.HasErrors() {
				t.Fatal(diags)
			}
		}
		if got := [2]int{status(""), status("key-0")}; got != st.want {
			t.Errorf("%s: statuses %v, want %v", st.name, got, st.want)
		}
	}
}
