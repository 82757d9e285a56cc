package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// longOrigin serves an article of twelve sections, one of them about
// tortoises.
func longOrigin(t *testing.T) *httptest.Server {
	t.Helper()
	var b strings.Builder
	b.WriteString(`<html lang="en"><head><title>Field guide</title></head><body><article><h1>Field guide</h1>`)
	for s := range 30 {
		fmt.Fprintf(&b, "<h2>Section %d</h2>", s)
		for p := range 5 {
			fmt.Fprintf(&b, "<p>Paragraph %d of section %d talks at length about weather, gardens, rivers and the town market on a quiet afternoon.</p>", p, s)
		}
		if s == 20 {
			b.WriteString("<p>The Hermann's tortoise hibernates from November to March in a burrow under hedges.</p>")
		}
	}
	b.WriteString("</article></body></html>")
	page := b.String()
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	}))
	t.Cleanup(origin.Close)
	return origin
}

func TestFetchMaxTokens(t *testing.T) {
	t.Parallel()
	origin := longOrigin(t)
	srv := newTestServer(t, origin, testOptions{})
	tests := []struct {
		name     string
		req      map[string]any
		contains []string
		lacks    []string
		warning  string
		budget   float64
	}{
		{
			name:     "with a question: the relevant part under its headings",
			req:      map[string]any{"url": origin.URL, "question": "When does the tortoise hibernate?", "max_tokens": 150},
			contains: []string{"# Field guide", "## Section 20", "tortoise hibernates", "[…]"},
			lacks:    []string{"Section 3"},
			warning:  "most relevant to the question", budget: 150,
		},
		{
			name:     "without a question: the beginning, cut between parts",
			req:      map[string]any{"url": origin.URL, "max_tokens": 200},
			contains: []string{"# Field guide", "Paragraph 0 of section 0", "quiet afternoon.\n\n[…]"},
			lacks:    []string{"tortoise"},
			warning:  "at a part boundary", budget: 200,
		},
		{
			name:     "a budget over the page: the page as it is",
			req:      map[string]any{"url": origin.URL, "question": "tortoise", "max_tokens": 100000},
			contains: []string{"Paragraph 4 of section 11", "tortoise"},
			lacks:    []string{"[…]"}, budget: 100000,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := post(t, srv.URL+"/v1/fetch", testKey, tc.req)
			if resp.StatusCode != 200 {
				t.Fatalf("%d %v", resp.StatusCode, body)
			}
			content := body["content"].(string)
			for _, c := range tc.contains {
				if !strings.Contains(content, c) {
					t.Errorf("content lacks %q:\n%s", c, content)
				}
			}
			for _, c := range tc.lacks {
				if strings.Contains(content, c) {
					t.Errorf("content holds %q:\n%s", c, content)
				}
			}
			sz := body["sizes"].(map[string]any)
			if got := sz["returned_tokens"].(float64); got > tc.budget || got >= sz["clean_tokens"].(float64) && tc.warning != "" {
				t.Errorf("returned %v tokens of %v clean, budget %v", got, sz["clean_tokens"], tc.budget)
			}
			warnings, _ := json.Marshal(body["warnings"])
			if tc.warning != "" {
				parts, _ := body["parts"].(map[string]any)
				if !strings.Contains(string(warnings), tc.warning) || parts == nil || parts["kept"].(float64) >= parts["total"].(float64) {
					t.Errorf("warnings %s parts %v, want %q", warnings, body["parts"], tc.warning)
				}
			}
		})
	}
}

func TestFetchMaxTokensInvalid(t *testing.T) {
	t.Parallel()
	origin := longOrigin(t)
	srv := newTestServer(t, origin, testOptions{})
	for _, tc := range []struct {
		name string
		body string
		want string
	}{
		{"zero", `{"url":"` + origin.URL + `","max_tokens":0}`, "invalid: max_tokens 0: want 1 to 1000000"},
		{"negative", `{"url":"` + origin.URL + `","max_tokens":-5}`, "invalid: max_tokens -5"},
		{"too large", `{"url":"` + origin.URL + `","max_tokens":1000001}`, "invalid: max_tokens 1000001"},
		{"not a number", `{"url":"` + origin.URL + `","max_tokens":"500"}`, `invalid: field "max_tokens": want an integer, not a string`},
		{"raw mode", `{"url":"` + origin.URL + `","mode":"raw","max_tokens":500}`, "invalid: max_tokens does not apply to raw mode"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := post(t, srv.URL+"/v1/fetch", testKey, tc.body)
			if msg, _ := body["error"].(string); resp.StatusCode != 400 || !strings.HasPrefix(msg, tc.want) {
				t.Errorf("%d %q, want 400 %q", resp.StatusCode, msg, tc.want)
			}
		})
	}
}

// TestDigestFallbackIsSelection: when the digester fails, what stands in
// is the part of the page about the question, not its beginning.
func TestDigestFallbackIsSelection(t *testing.T) {
	t.Parallel()
	var busy atomic.Bool
	busy.Store(true)
	origin := longOrigin(t)
	srv := newTestServer(t, origin, testOptions{extraConfig: digesterBlock(fakeLLM(t, &busy).URL)}, `stage "digest" {}`)
	_, body := post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL, "mode": "digest", "question": "When does the tortoise hibernate?"})
	content, _ := body["content"].(string)
	warnings, _ := json.Marshal(body["warnings"])
	if !strings.Contains(content, "## Section 20") || !strings.Contains(content, "tortoise hibernates") ||
		!strings.Contains(string(warnings), "digest fell back to clean: busy") {
		t.Fatalf("fallback %q, warnings %s", content, warnings)
	}
	if want := `sift_digest_fallbacks_total{reason="busy"} 1`; !strings.Contains(scrape(t, srv.URL), want) {
		t.Errorf("metrics lack %s", want)
	}
}
