package llmdigest

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/siftd/sift/internal/testkit/testenv/llm"
	"github.com/siftd/sift/plugins/sdk"
)

// TestStructuredRealLlamaCpp: asked for JSON under a schema, the digester
// sends OpenAI's response_format json_schema, and the real llama.cpp engine,
// sampling under the grammar it makes of the schema, answers JSON that
// fits it, even from a model that writes only stories.
func TestStructuredRealLlamaCpp(t *testing.T) {
	var seen chatRequest
	base, _ := llm.Chat(t, "CTX=2048")
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := readBody(r)
		_ = json.Unmarshal(body, &seen)
		resp, err := http.Post(base+"/chat/completions", "application/json", strings.NewReader(string(body)))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		w.WriteHeader(resp.StatusCode)
		copyBody(w, resp)
	}))
	defer proxy.Close()
	d := configured(t, map[string]any{"endpoint": proxy.URL, "max_tokens": 64, "context_tokens": 2048})
	schema := `{"type":"object","properties":{"mood":{"enum":["happy","sad"]},"dog":{"type":"boolean"}},"required":["mood","dog"]}`
	res, err := d.Digest(context.Background(), &sdk.DigestRequest{
		Content: "Once upon a time there was a happy little dog named Max.", Question: "the mood of the story and whether it has a dog",
		JSONSchema: schema,
	})
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Mood string `json:"mood"`
		Dog  *bool  `json:"dog"`
	}
	if err := json.Unmarshal([]byte(res.Digest), &got); err != nil || (got.Mood != "happy" && got.Mood != "sad") || got.Dog == nil {
		t.Fatalf("answer %q (%v): want JSON fitting the schema", res.Digest, err)
	}
	rf := seen.ResponseFormat
	if rf == nil || rf.Type != "json_schema" || rf.JSONSchema == nil || string(rf.JSONSchema.Schema) != schema {
		t.Errorf("response_format sent: %+v", rf)
	}
	if !strings.Contains(seen.Messages[1].Content, "Extract: the mood of the story") || seen.Temperature != 0 {
		t.Errorf("request: %+v", seen)
	}
}

// TestStructuredBadSchema: a schema that is not JSON is refused before
// any call to the model.
func TestStructuredBadSchema(t *testing.T) {
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { calls++ }))
	defer srv.Close()
	d := configured(t, map[string]any{"endpoint": srv.URL, "max_tokens": 64, "context_tokens": 2048})
	_, err := d.Digest(context.Background(), &sdk.DigestRequest{Content: "text", JSONSchema: "{not json"})
	if docClass(t, err) != sdk.ClassInvalid || calls != 0 {
		t.Errorf("err %v, %d calls", err, calls)
	}
}

func TestUnfence(t *testing.T) {
	for in, want := range map[string]string{
		`{"a":1}`:                 `{"a":1}`,
		"```json\n{\"a\":1}\n```": `{"a":1}`,
		"```\n[1]\n```":           `[1]`,
		"  {\"a\":1}  ":           `{"a":1}`,
		"```json\n{\"a\":1}":      "```json\n{\"a\":1}",
	} {
		if got := unfence(in); got != want {
			t.Errorf("unfence(%q) = %q, want %q", in, got, want)
		}
	}
}
