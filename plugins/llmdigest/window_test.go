package llmdigest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/siftd/sift/internal/testkit/testenv/llm"
	"github.com/siftd/sift/plugins/sdk"
)

// TestLearnContext: each server kind's way of telling its context size.
func TestLearnContext(t *testing.T) {
	tests := []struct {
		name   string
		flavor string
		routes map[string]string
		want   int
	}{
		{"llama.cpp /props", FlavorLlamaCpp, map[string]string{"/props": `{"default_generation_settings":{"n_ctx":4096}}`, "/slots": `[{"id":0,"n_ctx":99}]`}, 4096},
		{"llama.cpp /slots", FlavorLlamaCpp, map[string]string{"/slots": `[{"id":0,"n_ctx":2048,"is_processing":false}]`}, 2048},
		{"ollama num_ctx", FlavorOllama, map[string]string{"/api/show": `{"parameters":"stop \"<|im_end|>\"\nnum_ctx 16384","model_info":{"qwen3.context_length":40960}}`}, 16384},
		{"ollama model's length, under its default", FlavorOllama, map[string]string{"/api/show": `{"model_info":{"qwen3.context_length":40960}}`}, ollamaDefaultContext},
		{"nothing told: the default", FlavorLlamaCpp, map[string]string{"/props": `{}`}, DefaultContextTokens},
		{"configured wins", FlavorLlamaCpp, map[string]string{"/props": `{"default_generation_settings":{"n_ctx":4096}}`}, 3000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				calls.Add(1)
				body, ok := tt.routes[r.URL.Path]
				if !ok {
					http.NotFound(w, r)
					return
				}
				fmt.Fprint(w, body)
			}))
			defer srv.Close()
			cfg := map[string]any{"endpoint": srv.URL + "/v1", "flavor": tt.flavor, "model": "m"}
			if tt.name == "configured wins" {
				cfg["context_tokens"] = 3000
			}
			d := New()
			if diags, err := d.Configure(context.Background(), mustJSON(cfg)); err != nil || diags.HasErrors() {
				t.Fatal(diags, err)
			}
			if got := d.contextTokens(context.Background()); got != tt.want {
				t.Fatalf("context %d, want %d", got, tt.want)
			}
			before := calls.Load()
			d.contextTokens(context.Background())
			if calls.Load() != before {
				t.Errorf("a learned context is asked for again")
			}
		})
	}
}

// TestDigestLongPageLearnsContext: on the real engine with a 2,048-token
// context and no context_tokens configured, a page several times longer
// is digested from its parts about the question: no overflow.
func TestDigestLongPageLearnsContext(t *testing.T) {
	base, _ := llm.Chat(t, "CTX=2048")
	d := configured(t, map[string]any{"endpoint": base, "max_tokens": 48})
	var b strings.Builder
	for s := range 20 {
		fmt.Fprintf(&b, "## Chapter %d\n\n", s)
		for p := range 6 {
			fmt.Fprintf(&b, "Paragraph %d of chapter %d tells how the children walked to the river, met a friendly dog, and went home for supper.\n\n", p, s)
		}
		if s == 13 {
			b.WriteString("The little red boat was named Lily and it sailed every Sunday.\n\n")
		}
	}
	page := b.String()
	res, err := d.Digest(context.Background(), &sdk.DigestRequest{Content: page, Question: "What was the boat named?"})
	if err != nil {
		t.Fatalf("digest of a %d-byte page: %v", len(page), err)
	}
	if strings.TrimSpace(res.Digest) == "" || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "context of 2048 tokens") {
		t.Fatalf("digest %q warnings %q", res.Digest, res.Warnings)
	}
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// TestOverflowNarrowsOnce: a server whose tokenizer counts the prompt
// over its context gets the page narrowed by the ratio it reports, once;
// the ratio is remembered for the next digest.
func TestOverflowNarrowsOnce(t *testing.T) {
	var calls atomic.Int32
	var mu sync.Mutex
	var sizes []int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := readBody(r)
		var req chatRequest
		_ = json.Unmarshal(body, &req)
		n := calls.Add(1)
		mu.Lock()
		sizes = append(sizes, len(req.Messages[1].Content))
		mu.Unlock()
		// This server's tokens are a quarter of sift's count: a byte each.
		if prompt := len(req.Messages[0].Content + req.Messages[1].Content); prompt >= 4000 {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"error":{"code":400,"message":"request (%d tokens) exceeds the available context size (4000 tokens)","type":"exceed_context_size_error","n_prompt_tokens":%d,"n_ctx":4000}}`, prompt, prompt)
			return
		}
		fmt.Fprintf(w, `{"choices":[{"message":{"role":"assistant","content":"digest %d"},"finish_reason":"stop"}]}`, n)
	}))
	defer srv.Close()
	d := configured(t, map[string]any{"endpoint": srv.URL, "max_tokens": 100, "context_tokens": 4000})
	var b strings.Builder
	for i := range 120 {
		fmt.Fprintf(&b, "Paragraph %d is about the harbour, the boats and the weather.\n\n", i)
	}
	req := &sdk.DigestRequest{Content: b.String(), Question: "boats"}
	ctx := context.Background()
	res, err := d.Digest(ctx, req)
	mu.Lock()
	got := append([]int(nil), sizes...)
	mu.Unlock()
	if err != nil || len(got) != 2 || got[1] >= got[0] {
		t.Fatalf("digest %v, err %v, prompts of %v bytes", res, err, got)
	}
	if _, err := d.Digest(ctx, req); err != nil || calls.Load() != 3 {
		t.Fatalf("the learned ratio was not kept: err %v, %d calls", err, calls.Load())
	}
}
