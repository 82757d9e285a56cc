package json

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/plugins/sdk/sdktest"
)

func run(t *testing.T, body string, opts map[string]string, maxOut int64) (*sdk.ExtractResult, error) {
	t.Helper()
	ex := sdktest.Extractor(t, New())
	return ex.Extract(context.Background(), &sdk.ExtractRequest{
		Body: []byte(body), ContentType: "application/json", Options: opts, MaxOutputBytes: maxOut,
	})
}

func TestExtract(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		opts    map[string]string
		maxOut  int64
		want    string
		warning string
	}{
		{name: "pretty", body: `{"a":[1,2]}`, want: "{\n  \"a\": [\n    1,\n    2\n  ]\n}"},
		{name: "big numbers kept exact", body: `{"id":12345678901234567890}`, want: "{\n  \"id\": 12345678901234567890\n}"},
		{name: "json_path", body: `{"items":[{"n":"a"},{"n":"b"}]}`, opts: map[string]string{"json_path": "items[].n"}, want: "[\n  \"a\",\n  \"b\"\n]"},
		{name: "jq one value", body: `{"a":{"b":42}}`, opts: map[string]string{"jq": ".a.b"}, want: "42"},
		{name: "jq several values", body: `[1,2,3]`, opts: map[string]string{"jq": ".[] | . * 2"}, want: "[\n  2,\n  4,\n  6\n]"},
		{name: "compacted to fit", body: `{"a": [1, 2, 3]}`, maxOut: 16, want: `{"a":[1,2,3]}`, warning: "compacted"},
		{name: "truncated", body: `{"a": "` + strings.Repeat("x", 100) + `"}`, maxOut: 20, want: `{"a":"xxxxxxxxxxxxxx`, warning: "truncated at 20 of 108 bytes"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := run(t, tc.body, tc.opts, tc.maxOut)
			if err != nil {
				t.Fatal(err)
			}
			if res.Content != tc.want {
				t.Errorf("content %q, want %q", res.Content, tc.want)
			}
			if tc.warning == "" && len(res.Warnings) > 0 || tc.warning != "" && (len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], tc.warning)) {
				t.Errorf("warnings %q, want %q", res.Warnings, tc.warning)
			}
		})
	}
}

func TestBadInput(t *testing.T) {
	tests := []struct {
		name string
		body string
		opts map[string]string
		want string
	}{
		{name: "syntax error", body: "{\n  \"a\": [1,\n  2,,]\n}", want: "malformed JSON at line 3, column 5"},
		{name: "unterminated", body: `{"a": "b`, want: "malformed JSON at line 1, column 9"},
		{name: "trailing data", body: `{"a":1} {"b":2}`, want: "data after the top-level value"},
		{name: "empty", body: ``, want: "malformed JSON at line 1, column 1"},
		{name: "bad json_path", body: `{}`, opts: map[string]string{"json_path": "a[?"}, want: "json_path:"},
		{name: "bad jq", body: `{}`, opts: map[string]string{"jq": ".a |||"}, want: "jq:"},
		{name: "both queries", body: `{}`, opts: map[string]string{"jq": ".", "json_path": "a"}, want: "not both"},
		{name: "endless jq", body: `0`, opts: map[string]string{"jq": "def f: f; f"}, want: "ran past"},
		{name: "jq floods output", body: `0`, opts: map[string]string{"jq": "range(100000)"}, want: "more than 10000 values"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := run(t, tc.body, tc.opts, 0)
			var de *sdk.DocError
			if !errors.As(err, &de) || de.Class != sdk.ClassInvalid {
				t.Fatalf("err = %v, want an invalid DocError", err)
			}
			if !strings.Contains(de.Message, tc.want) {
				t.Errorf("message %q, want it to contain %q", de.Message, tc.want)
			}
		})
	}
}

func FuzzExtract(f *testing.F) {
	for _, seed := range []string{`{"a":[1,2,{"b":null}]}`, `[`, `"x"`, `1e999`, "{\"a\":\n\"\xff\"}"} {
		f.Add([]byte(seed), ".a")
	}
	ex := New()
	f.Add([]byte(`{"a":[{"b":1},{"b":2}]}`), "a[].b")
	f.Fuzz(func(t *testing.T, body []byte, query string) {
		// Odd-length queries go to JMESPath, even-length ones to jq.
		opt := "jq"
		if len(query)%2 == 1 {
			opt = "json_path"
		}
		res, err := ex.Extract(context.Background(), &sdk.ExtractRequest{Body: body, Options: map[string]string{opt: query}, MaxOutputBytes: 4096})
		var de *sdk.DocError
		if err != nil && !errors.As(err, &de) {
			t.Fatalf("non-document error: %v", err)
		}
		if err == nil && len(res.Content) > 4096 {
			t.Fatalf("output %d bytes over the cap", len(res.Content))
		}
	})
}
