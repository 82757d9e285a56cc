package search

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/siftd/sift/guard"
)

// fakeBackend serves a recorded answer from testdata on the path real
// backends use, after an optional delay or with an error status.
func fakeBackend(t *testing.T, path, file string, status int, delay time.Duration, check func(*http.Request)) *httptest.Server {
	t.Helper()
	body, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != path {
			http.NotFound(w, r)
			return
		}
		if check != nil {
			check(r)
		}
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		if status == http.StatusOK {
			w.Write(body)
		} else {
			w.Write([]byte(`{"error": "search error"}`))
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// loopbackClient admits the fake backends, as an operator's allow lists
// admit a local SearXNG.
func loopbackClient(t *testing.T, servers ...*httptest.Server) *http.Client {
	p := guard.DefaultPolicy()
	p.AllowCIDRs = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	for _, s := range servers {
		p.AllowPorts = append(p.AllowPorts, int(netip.MustParseAddrPort(s.Listener.Addr().String()).Port()))
	}
	return newClient(p, 5*time.Second)
}

func TestSearXNGDecodes(t *testing.T) {
	srv := fakeBackend(t, "/search", "searxng.json", 200, 0, func(r *http.Request) {
		if r.URL.Query().Get("format") != "json" || r.URL.Query().Get("q") != "reverse proxy nginx" {
			t.Errorf("query %v", r.URL.Query())
		}
	})
	found, err := (&SearXNG{BaseURL: srv.URL, Client: loopbackClient(t, srv)}).Search(context.Background(), "reverse proxy nginx", 10)
	if err != nil {
		t.Fatal(err)
	}
	res := found.Results
	if len(found.Answers) != 1 || found.Answers[0] != "nginx is a web server" {
		t.Errorf("answers %q", found.Answers)
	}
	if strings.Join(found.Warnings, "|") != "searxng engine google did not answer (timeout)|searxng engine startpage did not answer (Suspended: CAPTCHA)" {
		t.Errorf("warnings %q", found.Warnings)
	}
	if len(res) != 3 || res[0].Title != "Module ngx_http_proxy_module" || !strings.HasPrefix(res[0].Snippet, "The ngx_http_proxy_module") || res[0].Sources[0] != "searxng" {
		t.Fatalf("results %+v", res)
	}
}

func TestBraveDecodes(t *testing.T) {
	srv := fakeBackend(t, "/res/v1/llm/context", "brave.json", 200, 0, func(r *http.Request) {
		if r.Header.Get("X-Subscription-Token") != "k" {
			t.Errorf("token %q", r.Header.Get("X-Subscription-Token"))
		}
	})
	found, err := (&Brave{BaseURL: srv.URL, Key: "k", Client: loopbackClient(t, srv)}).Search(context.Background(), "q", 10)
	if err != nil {
		t.Fatal(err)
	}
	res := found.Results
	if len(res) != 2 || !strings.HasPrefix(res[0].Snippet, "Sets the protocol") || len(res[0].Chunks) != 2 {
		t.Fatalf("JSON snippets must not become the snippet: %+v", res[0])
	}
	if res[1].Title != "Reverse proxy with Caddy" {
		t.Fatalf("title from sources: %+v", res[1])
	}
}

func TestSearcher(t *testing.T) {
	sx := fakeBackend(t, "/search", "searxng.json", 200, 0, nil)
	br := fakeBackend(t, "/res/v1/llm/context", "brave.json", 200, 0, nil)
	broken := fakeBackend(t, "/search", "searxng.json", 500, 0, nil)
	slow := fakeBackend(t, "/search", "searxng.json", 200, time.Minute, nil)
	client := loopbackClient(t, sx, br, broken, slow)
	searx := &SearXNG{BaseURL: sx.URL, Client: client}
	brave := &Brave{BaseURL: br.URL, Key: "k", Client: client}
	down := &SearXNG{BaseURL: broken.URL, Client: client}
	late := &SearXNG{BaseURL: slow.URL, Client: client}

	out, err := (&Searcher{Backends: []Backend{searx, brave}, Deadline: 2 * time.Second}).Search(context.Background(), "q", 10)
	if err != nil {
		t.Fatal(err)
	}
	// nginx appears in both: merged once, with both sources and Brave's longer snippet.
	if len(out.Results) != 4 || strings.Join(out.Results[0].Sources, ",") != "searxng,brave_llm" || !strings.HasPrefix(out.Results[0].Snippet, "Sets the protocol") {
		t.Fatalf("merged %+v", out.Results)
	}

	out, err = (&Searcher{Backends: []Backend{down, brave}, Deadline: 2 * time.Second}).Search(context.Background(), "q", 10)
	if err != nil || len(out.Results) != 2 || len(out.Warnings) != 1 || !strings.Contains(out.Warnings[0], "status 500") || len(out.Answers) != 0 {
		t.Fatalf("one failing: %+v %v", out, err)
	}

	start := time.Now()
	out, err = (&Searcher{Backends: []Backend{late, brave}, Deadline: 500 * time.Millisecond}).Search(context.Background(), "q", 10)
	if err != nil || len(out.Results) != 2 || time.Since(start) > 20*time.Second { // not the late one's minute
		t.Fatalf("slow one past the deadline: %+v %v after %s", out, err, time.Since(start))
	}

	if _, err := (&Searcher{Backends: []Backend{down}, Deadline: time.Second}).Search(context.Background(), "q", 10); !errors.Is(err, ErrNoBackend) {
		t.Fatalf("all failing: %v", err)
	}
}

func TestBackendOnLoopbackNeedsAllowing(t *testing.T) {
	srv := fakeBackend(t, "/search", "searxng.json", 200, 0, nil)
	_, err := (&SearXNG{BaseURL: srv.URL, Client: newClient(guard.DefaultPolicy(), time.Second)}).Search(context.Background(), "q", 5)
	if !errors.Is(err, guard.ErrBlocked) {
		t.Fatalf("a loopback backend was reached without being allowed: %v", err)
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"HTTPS://Example.COM:443/a/?utm_source=x&b=2&a=1#frag", "https://example.com/a?a=1&b=2"},
		{"http://example.com", "http://example.com/"},
		{"http://example.com:8080/x/", "http://example.com:8080/x"},
		{"https://example.com/?fbclid=abc", "https://example.com/"},
	}
	for _, tc := range tests {
		if got := Normalize(tc.in); got != tc.want {
			t.Errorf("Normalize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestMergeLimit(t *testing.T) {
	a := []Result{{URL: "http://a/1"}, {URL: "http://a/2"}}
	b := []Result{{URL: "http://b/1"}, {URL: "http://a/1/"}}
	got := Merge(3, a, b)
	var urls []string
	for _, r := range got {
		urls = append(urls, r.URL)
	}
	if strings.Join(urls, " ") != "http://a/1 http://b/1 http://a/2" {
		t.Fatalf("merged %v", urls)
	}
}
