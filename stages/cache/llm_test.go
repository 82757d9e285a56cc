package cache

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/internal/testkit/testenv/llm"
	"github.com/siftd/sift/plugins/llmdigest"
	"github.com/siftd/sift/stages"
	"github.com/siftd/sift/stages/digest"
)

// digesters serves one digester under the default name.
type digesters struct{ d stages.Digester }

func (s digesters) Digester(name string) (stages.Digester, bool) {
	return s.d, name == digest.DefaultDigester
}

// With `cache, digest, cache` and the real digester on a real llama.cpp
// engine, a question about a page the first cache holds runs the model
// once: asked again, the answer comes from the second cache.
func TestSecondCacheKeepsRealDigest(t *testing.T) {
	base, _ := llm.Chat(t)
	var calls atomic.Int32
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/chat/completions") {
			calls.Add(1)
		}
		req, _ := http.NewRequestWithContext(r.Context(), r.Method, strings.TrimSuffix(base, "/v1")+r.URL.Path, r.Body)
		req.Header = r.Header.Clone()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		w.Header().Set("Content-Type", resp.Header.Get("Content-Type"))
		w.WriteHeader(resp.StatusCode)
		_, _ = io.Copy(w, resp.Body)
	}))
	defer proxy.Close()
	d := llmdigest.New()
	raw, _ := json.Marshal(map[string]any{"endpoint": proxy.URL + "/v1", "max_tokens": 32, "context_tokens": 2048})
	if diags, err := d.Configure(context.Background(), raw); err != nil || diags.HasErrors() {
		t.Fatalf("configure: %v %v", diags, err)
	}

	runs := map[string]int{}
	reg := stages.NewRegistry(
		countingKind(runs, "guard", true, func(d *stages.Doc) { d.Target = &stages.Target{URL: d.Request.URL} }),
		countingKind(runs, "fetch", false, func(d *stages.Doc) {
			d.Response = &stages.Response{FinalURL: d.Request.URL, Status: 200, Header: http.Header{}, Body: []byte("<p>Max</p>"), ContentType: "text/html"}
		}),
		countingKind(runs, "extract", false, func(d *stages.Doc) {
			d.Extraction = &stages.Extraction{Content: "Once upon a time there was a little dog named Max. Max liked the park."}
		}),
		digest.Kind(),
		Kind(),
	)
	var blocks []config.Stage
	for _, k := range []string{"guard", "fetch", "extract", "cache", "digest", "cache"} {
		blocks = append(blocks, config.Stage{Kind: k, Body: hcl.EmptyBody()})
	}
	chain, diags := stages.Build(blocks, reg, stages.Deps{Cache: tableStore{openStore(t).CacheTable(1 << 20)}, Digesters: digesters{d}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	ask := func(question string) *stages.Doc {
		t.Helper()
		doc := &stages.Doc{Request: stages.Request{URL: "http://a.example/", Mode: "digest", Question: question}}
		if err := chain.Run(context.Background(), doc); err != nil {
			t.Fatal(err)
		}
		if doc.Digest == "" || len(doc.Warnings) != 0 {
			t.Fatalf("digest %q, warnings %q", doc.Digest, doc.Warnings)
		}
		return doc
	}
	ask("Who is Max?")                  // both caches cold: fetched, digested
	first := ask("What does Max like?") // the first cache warm: digested once more
	again := ask("What does Max like?") // from the second cache
	if n := calls.Load(); n != 2 || runs["fetch"] != 1 {
		t.Fatalf("the model ran %d times, fetch %d times; want 2 and 1", n, runs["fetch"])
	}
	if !again.Cached() || again.Digest != first.Digest {
		t.Fatalf("asked again: cached %v, digest %q, want %q", again.Cached(), again.Digest, first.Digest)
	}
}
