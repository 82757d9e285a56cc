package server

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// structuredLLM speaks the OpenAI chat completion shape and answers each
// request with the next of answers; it keeps the response_format of the
// last request.
type structuredLLM struct {
	*httptest.Server
	mu      sync.Mutex
	answer  string
	format  json.RawMessage
	prompts []string
}

func newStructuredLLM(t *testing.T) *structuredLLM {
	l := &structuredLLM{}
	l.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/chat/completions") {
			http.NotFound(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var req struct {
			Messages []struct {
				Content string `json:"content"`
			} `json:"messages"`
			ResponseFormat json.RawMessage `json:"response_format"`
		}
		_ = json.Unmarshal(body, &req)
		l.mu.Lock()
		l.format = req.ResponseFormat
		l.prompts = append(l.prompts, req.Messages[len(req.Messages)-1].Content)
		answer := l.answer
		l.mu.Unlock()
		content, _ := json.Marshal(answer)
		fmt.Fprintf(w, `{"choices":[{"index":0,"message":{"role":"assistant","content":%s},"finish_reason":"stop"}]}`, content)
	}))
	t.Cleanup(l.Close)
	return l
}

// TestScrapeJSONFormat: the json format with a schema and a prompt asks
// the digester for JSON under the schema (response_format json_schema),
// returns an answer that fits it as `json`, and turns an answer that does
// not fit, or is not JSON, into a warning with no json; the rest of the
// document stands.
func TestScrapeJSONFormat(t *testing.T) {
	t.Parallel()
	llm := newStructuredLLM(t)
	origin := fixtureOrigin(t)
	srv := newTestServer(t, origin, testOptions{extraConfig: digesterBlock(llm.URL)})
	schema := map[string]any{
		"type":       "object",
		"properties": map[string]any{"when": map[string]any{"type": "string"}, "tools": map[string]any{"type": "array", "items": map[string]any{"type": "string"}}},
		"required":   []string{"when"},
	}
	body := map[string]any{"url": origin.URL + "/article", "formats": []any{"markdown", map[string]any{"type": "json", "schema": schema, "prompt": "when to water, and the tools named"}}}
	tests := []struct {
		answer, json, warning string
	}{
		{`{"when":"early in the morning","tools":["trowel"]}`, `{"when":"early in the morning","tools":["trowel"]}`, ""},
		{"```json\n{\"when\":\"morning\"}\n```", `{"when":"morning"}`, ""},
		{`{"tools":["trowel"]}`, "", "json format not produced: the model's answer does not fit the schema"},
		{`{"when": 7}`, "", "json format not produced: the model's answer does not fit the schema"},
		{`Water early.`, "", "json format not produced: the model's answer is not JSON"},
	}
	for _, tc := range tests {
		llm.mu.Lock()
		llm.answer = tc.answer
		llm.mu.Unlock()
		resp, out := post(t, srv.URL+"/v2/scrape", testKey, body)
		data, _ := out["data"].(map[string]any)
		if resp.StatusCode != 200 || data == nil {
			t.Fatalf("%s: %d %v", tc.answer, resp.StatusCode, out)
		}
		got, _ := json.Marshal(data["json"])
		var want any
		_ = json.Unmarshal([]byte(tc.json), &want)
		wantText, _ := json.Marshal(want)
		warning, _ := data["warning"].(string)
		md, _ := data["markdown"].(string)
		switch {
		case tc.json != "" && (string(got) != string(wantText) || strings.Contains(warning, "json format")):
			t.Errorf("%s: json %s, warning %q; want %s", tc.answer, got, warning, tc.json)
		case tc.json == "" && (data["json"] != nil || !strings.Contains(warning, tc.warning)):
			t.Errorf("%s: json %s, warning %q; want no json and %q", tc.answer, got, warning, tc.warning)
		case !strings.Contains(md, "Water the beds early"):
			t.Errorf("%s: the markdown went missing: %q", tc.answer, md)
		}
	}
	var rf struct {
		Type       string `json:"type"`
		JSONSchema struct {
			Schema map[string]any `json:"schema"`
		} `json:"json_schema"`
	}
	_ = json.Unmarshal(llm.format, &rf)
	if rf.Type != "json_schema" || rf.JSONSchema.Schema["required"] == nil {
		t.Errorf("response_format sent to the model: %s", llm.format)
	}
	if p := llm.prompts[0]; !strings.Contains(p, "Extract: when to water, and the tools named") || !strings.Contains(p, "Water the beds early") {
		t.Errorf("the model's prompt: %.300s", p)
	}
}

// TestScrapeJSONFormatWithoutDigester: with no digester configured, the
// json format is named in a warning and the answer has no json field.
func TestScrapeJSONFormatWithoutDigester(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	srv := newTestServer(t, origin, testOptions{})
	resp, out := post(t, srv.URL+"/v2/scrape", testKey, map[string]any{"url": origin.URL + "/article",
		"formats": []any{"markdown", map[string]any{"type": "json", "prompt": "the watering time"}}})
	data, _ := out["data"].(map[string]any)
	warning, _ := data["warning"].(string)
	if _, has := data["json"]; resp.StatusCode != 200 || has || !strings.Contains(warning, "json format not produced: no digester (LLM) is configured") {
		t.Errorf("%d %v", resp.StatusCode, out)
	}
}

// TestScrapeJSONFormatBadSchema: a schema that is no JSON Schema (not an
// object, a type that names no JSON type, a keyword of the wrong kind) is
// a 400 naming the field, in JSON's terms, before anything is fetched.
func TestScrapeJSONFormatBadSchema(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	srv := newTestServer(t, origin, testOptions{})
	for _, tc := range []struct {
		schema any
		want   string
	}{
		{map[string]any{"type": 5}, `Bad Request: field "formats[1].schema": type at /type is a number`},
		{map[string]any{"type": "foo"}, `Bad Request: field "formats[1].schema": type "foo" at /type is not a JSON Schema type`},
		{map[string]any{"type": "object", "properties": map[string]any{"when": map[string]any{"type": []any{"string", "strin"}}}},
			`Bad Request: field "formats[1].schema": type "strin" at /properties/when/type is not a JSON Schema type`},
		{"an object please", `Bad Request: field "formats[1].schema": want a JSON Schema object, not a string`},
		{[]any{1}, `Bad Request: field "formats[1].schema": want a JSON Schema object, not an array`},
		{map[string]any{"type": "object", "required": "when"}, `Bad Request: field "formats[1].schema": not a JSON Schema: `},
	} {
		resp, out := post(t, srv.URL+"/v2/scrape", testKey, map[string]any{"url": origin.URL + "/article",
			"formats": []any{"markdown", map[string]any{"type": "json", "schema": tc.schema}}})
		msg, _ := out["error"].(string)
		if resp.StatusCode != 400 || !strings.HasPrefix(msg, tc.want) || strings.Contains(msg, "Go ") || strings.Contains(msg, "[]") {
			t.Errorf("%v: %d %q, want 400 %q", tc.schema, resp.StatusCode, msg, tc.want)
		}
	}
	// A property named "type", and "type" inside an enum's data, are no
	// type keywords.
	resp, out := post(t, srv.URL+"/v2/scrape", testKey, map[string]any{"url": origin.URL + "/article",
		"formats": []any{map[string]any{"type": "json", "schema": map[string]any{"type": "object",
			"properties": map[string]any{"type": map[string]any{"type": "string", "enum": []any{map[string]any{"type": "x"}}}}}}}})
	if resp.StatusCode != 200 {
		t.Errorf("a property named type: %d %v", resp.StatusCode, out)
	}
}

// TestScrapeJSONFormatHostileSchema: the red team's schemas, a $ref to
// the root and an anyOf chain whose branches both refer to the next
// level, are 400s naming the bound, before the model is asked; the
// server goes on answering. Before the bounds, the first overflowed
// Go's stack (a fatal error no recover catches) and the second held a
// core for many seconds after the client gave up.
func TestScrapeJSONFormatHostileSchema(t *testing.T) {
	t.Parallel()
	llm := newStructuredLLM(t)
	llm.answer = `{"a":{"a":{"a":1}}}`
	origin := fixtureOrigin(t)
	srv := newTestServer(t, origin, testOptions{extraConfig: digesterBlock(llm.URL)})
	defs := make([]string, 0, 31)
	for i := range 30 {
		defs = append(defs, fmt.Sprintf(`"l%d":{"anyOf":[{"$ref":"#/$defs/l%d"},{"$ref":"#/$defs/l%d"}]}`, i, i+1, i+1))
	}
	defs = append(defs, `"l30":{"type":"string"}`)
	chain := `{"$ref":"#/$defs/l0","$defs":{` + strings.Join(defs, ",") + `}}`
	for _, tc := range []struct{ schema, want string }{
		{`{"$ref":"#"}`, `field "formats[0].schema": $ref at /$ref refers back to /, which holds it: recursive schemas are not taken`},
		{`{"type":"object","properties":{"a":{"$ref":"#"}}}`, `recursive schemas are not taken`},
		{chain, `the schema unrolls to more than 2000 subschemas`},
		// A keyword in another case is read by the validator all the same.
		{strings.ReplaceAll(chain, `"anyOf"`, `"ANYOF"`), `keywords are case-sensitive (anyOf)`},
		{`{"$REF":"#"}`, `keywords are case-sensitive ($ref)`},
	} {
		body := map[string]any{"url": origin.URL + "/article",
			"formats": []any{map[string]any{"type": "json", "schema": json.RawMessage(tc.schema)}}}
		resp, out := post(t, srv.URL+"/v2/scrape", testKey, body)
		msg, _ := out["error"].(string)
		if resp.StatusCode != 400 || !strings.Contains(msg, tc.want) {
			t.Errorf("%.40s: %d %q, want 400 %q", tc.schema, resp.StatusCode, msg, tc.want)
		}
	}
	llm.mu.Lock()
	asked := len(llm.prompts)
	llm.mu.Unlock()
	if asked != 0 {
		t.Errorf("the model was asked %d times for a refused schema", asked)
	}
	resp, out := post(t, srv.URL+"/v2/scrape", testKey, map[string]any{"url": origin.URL + "/article",
		"formats": []any{map[string]any{"type": "json", "schema": map[string]any{"type": "object"}}}})
	if data, _ := out["data"].(map[string]any); resp.StatusCode != 200 || data["json"] == nil {
		t.Errorf("after the refusals: %d %v", resp.StatusCode, out)
	}
}
