package guard

import (
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// TestOperatorClientRefusesRedirects: an operator endpoint that answers
// with a redirect gets its answer returned, and the place it points to is
// never contacted; the environment's proxy settings are not consulted.
func TestOperatorClientRefusesRedirects(t *testing.T) {
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { elsewhere.Add(1) }))
	defer other.Close()
	endpoint := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/stolen", http.StatusTemporaryRedirect)
	}))
	defer endpoint.Close()

	c := NewOperatorClient(0)
	resp, err := c.Post(endpoint.URL+"/v1/chat/completions", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusTemporaryRedirect || elsewhere.Load() != 0 {
		t.Fatalf("status %d, redirect target contacted %d times; want 307 returned and 0", resp.StatusCode, elsewhere.Load())
	}
	if tr, ok := c.Transport.(*http.Transport); !ok || tr.Proxy != nil {
		t.Fatalf("transport %T: must be an *http.Transport without a proxy function", c.Transport)
	}
}
