package search

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/internal/testkit/testenv/llm"
)

// TestRerankRealEmbeddings: with a real sentence encoder, results about the
// question rank above those that are not.
func TestRerankRealEmbeddings(t *testing.T) {
	endpoint := llm.Embeddings(t)
	e := &Embedder{Endpoint: endpoint, Client: http.DefaultClient, InputCap: 2000}
	results := []Result{
		{URL: "https://example.com/cake", Title: "Chocolate cake", Snippet: "Bake the sponge at 180 degrees for forty minutes."},
		{URL: "https://example.com/knit", Title: "Knitting a scarf", Snippet: "Cast on forty stitches with thick wool."},
		{URL: "https://nginx.org/proxy", Title: "Module ngx_http_proxy_module", Snippet: "Passing requests to another server: configuring nginx as a reverse proxy."},
		{URL: "https://httpd.apache.org/proxy", Title: "Reverse Proxy Guide", Snippet: "Apache httpd can act as a reverse proxy in front of application servers."},
	}
	ranked, err := Rerank(context.Background(), e, "how do I set up a reverse proxy with nginx", results)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range ranked {
		t.Logf("%d %.3f %s", i, r.Score, r.URL)
	}
	if ranked[0].URL != "https://nginx.org/proxy" || ranked[1].URL != "https://httpd.apache.org/proxy" {
		t.Fatalf("on-topic results not first: %v, %v", ranked[0].URL, ranked[1].URL)
	}
	if ranked[1].Score <= ranked[2].Score {
		t.Fatalf("scores not ordered: %v", ranked)
	}
	// The same texts again come from the cache: the server is not needed.
	e.Endpoint = "http://127.0.0.1:1/v1"
	if _, err := Rerank(context.Background(), e, "how do I set up a reverse proxy with nginx", results); err != nil {
		t.Fatalf("cached embeddings: %v", err)
	}
}

func TestRerankFallsBack(t *testing.T) {
	e := &Embedder{Endpoint: "http://127.0.0.1:1/v1", Client: &http.Client{Timeout: time.Second}}
	in := []Result{{URL: "a"}, {URL: "b"}}
	out, err := Rerank(context.Background(), e, "q", in)
	if err == nil || out[0].URL != "a" || out[1].URL != "b" {
		t.Fatalf("embedder down: %v %v, want the backends' order and an error", out, err)
	}
}

func TestSplit(t *testing.T) {
	got := split("one two three four five", 9)
	if strings.Join(got, "|") != "one two|three|four five" {
		t.Fatalf("split %q", got)
	}
	if got := split("short", 0); len(got) != 1 {
		t.Fatalf("no limit: %q", got)
	}
}

// TestSearchReranksAPoolLargerThanLimit: with limit 1, the backends are
// asked for a pool, the pool is reranked and the best is kept: the nginx
// page, though the backend lists a cake recipe first. Before, only the
// backend's first result was asked for, so reranking changed nothing.
func TestSearchReranksAPoolLargerThanLimit(t *testing.T) {
	endpoint := llm.Embeddings(t)
	sx := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"query":"nginx reverse proxy","results":[
{"url":"https://example.com/cake","title":"Chocolate cake","content":"Bake the sponge at 180 degrees for forty minutes.","engines":["duckduckgo"]},
{"url":"https://example.com/knit","title":"Knitting a scarf","content":"Cast on forty stitches with thick wool.","engines":["duckduckgo"]},
{"url":"https://nginx.org/proxy","title":"Module ngx_http_proxy_module","content":"Passing requests to another server: configuring nginx as a reverse proxy.","engines":["duckduckgo"]},
{"url":"https://httpd.apache.org/proxy","title":"Reverse Proxy Guide","content":"Apache httpd can act as a reverse proxy in front of application servers.","engines":["duckduckgo"]}
],"answers":[],"infoboxes":[],"unresponsive_engines":[]}`)
	}))
	t.Cleanup(sx.Close)
	port := int(netip.MustParseAddrPort(sx.Listener.Addr().String()).Port())
	svc := New(&config.Search{AllowCIDRs: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}, AllowPorts: []int{port, embedPort(t, endpoint)},
		SearXNG: &config.SearXNG{URL: sx.URL}, Timeout: 30 * time.Second,
		Embed: &config.Embed{Endpoint: endpoint, InputCap: 2000, Timeout: 60 * time.Second}}, nil)
	out, err := svc.Search(context.Background(), "configure nginx as a reverse proxy", "", 1, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Results) != 1 || out.Results[0].URL != "https://nginx.org/proxy" {
		t.Fatalf("limit 1 answered %+v, want the nginx page", out.Results)
	}
	// Without reranking, limit 1 is the backend's first.
	out, err = svc.Search(context.Background(), "configure nginx as a reverse proxy", "", 1, false)
	if err != nil || len(out.Results) != 1 || out.Results[0].URL != "https://example.com/cake" {
		t.Fatalf("unreranked limit 1: %+v %v", out, err)
	}
}

// embedPort is the port of an embeddings endpoint on loopback.
func embedPort(t *testing.T, endpoint string) int {
	t.Helper()
	u, err := url.Parse(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	port, err := strconv.Atoi(u.Port())
	if err != nil {
		t.Fatal(err)
	}
	return port
}
