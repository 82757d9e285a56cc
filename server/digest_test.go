package server

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// fakeLLM speaks llama.cpp's chat completion shape; busy makes it answer
// 503 as Ollama does when its queue is full.
func fakeLLM(t *testing.T, busy *atomic.Bool) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/chat/completions") {
			http.NotFound(w, r) // a server that does not tell its context size
			return
		}
		body, _ := io.ReadAll(r.Body)
		if busy.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprint(w, `{"error":{"message":"server busy, please try again.  maximum pending requests exceeded","type":"api_error"}}`)
			return
		}
		var req struct {
			Messages []struct{ Content string } `json:"messages"`
		}
		_ = json.Unmarshal(body, &req)
		q := "none"
		if u := req.Messages[1].Content; strings.HasPrefix(u, "Question: ") {
			q = strings.SplitN(strings.TrimPrefix(u, "Question: "), "\n", 2)[0]
		}
		fmt.Fprintf(w, `{"choices":[{"message":{"role":"assistant","content":"Digest for %s: water early."},"finish_reason":"stop"}]}`, q)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// digesterBlock configures the built-in digester, in process, against
// endpoint.
func digesterBlock(endpoint string) string {
	return fmt.Sprintf("digester \"llm\" {\n  endpoint  = %q\n  isolation = \"none\"\n}\n", endpoint)
}

func TestDigestMode(t *testing.T) {
	t.Parallel()
	var busy atomic.Bool
	llm := fakeLLM(t, &busy)
	origin := fixtureOrigin(t)
	// The fake LLM is reached by the plugin directly, not through the guard.
	srv := newTestServer(t, origin, testOptions{extraConfig: digesterBlock(llm.URL)}, `stage "digest" {}`)
	_, body := post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/article", "mode": "digest", "question": "when to water?"})
	if body["content"] != "Digest for when to water?: water early." || body["mode"] != "digest" {
		t.Fatalf("digest answer %v", body)
	}
	busy.Store(true)
	_, body = post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/article", "mode": "digest"})
	warnings, _ := json.Marshal(body["warnings"])
	if !strings.Contains(body["content"].(string), "Check the soil with a trowel.") || !strings.Contains(string(warnings), "digest fell back to clean: busy") {
		t.Fatalf("fallback %v", body)
	}
	_, body = post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/article"})
	if !strings.HasPrefix(body["content"].(string), "# Irrigation") {
		t.Fatalf("clean mode was digested: %v", body["content"])
	}
	busy.Store(false)
	_, body = post(t, srv.URL+"/v2/scrape", testKey, map[string]any{"url": origin.URL + "/article", "formats": []string{"markdown", "summary"}})
	data := body["data"].(map[string]any)
	if data["summary"] != "Digest for none: water early." || !strings.HasPrefix(data["markdown"].(string), "# Irrigation") {
		t.Fatalf("scrape summary %v", data)
	}
}
