package firecrawl

import (
	"strings"
	"testing"
	"time"
)

// TestRepeatedFormatsWarn: a second format of a kind a scrape answers once
// is passed over for the first, as Firecrawl does, and named in a warning
// with what it asked; jsonOptions without a json format, or beside a json
// format object, is named too.
func TestRepeatedFormatsWarn(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, formats, extra string
		check                func(*scrapeRequest) bool
		warn                 string // "" for none
	}{
		{"two highlights", `[{"type":"highlights","query":"apples"},{"type":"highlights","query":"grapes"}]`, "",
			func(r *scrapeRequest) bool { return r.FormatOptions.Highlights == "apples" },
			`not applied: formats[1] (highlights "grapes"): a scrape answers one highlights format, the first (formats[0])`},
		{"two questions", `[{"type":"question","question":"apples?"},{"type":"question","question":"grapes?"}]`, "",
			func(r *scrapeRequest) bool { return r.FormatOptions.Question == "apples?" },
			`not applied: formats[1] (question "grapes?"): a scrape answers one question format, the first (formats[0])`},
		{"question then query", `[{"type":"question","question":"apples?"},{"type":"query","prompt":"grapes?"}]`, "",
			func(r *scrapeRequest) bool { return r.FormatOptions.Question == "apples?" },
			`not applied: formats[1] (query "grapes?"): a scrape answers one question format, the first (formats[0])`},
		{"query and directQuote both served", `[{"type":"query","prompt":"a"},{"type":"query","prompt":"b","mode":"directQuote"}]`, "",
			func(r *scrapeRequest) bool { return r.FormatOptions.Question == "a" && r.FormatOptions.Quote == "b" }, ""},
		{"two changeTracking", `["markdown",{"type":"changeTracking","tag":"a"},{"type":"changeTracking","tag":"b"}]`, "",
			func(r *scrapeRequest) bool { return r.FormatOptions.ChangeTracking.Tag == "a" },
			`not applied: formats[2] (changeTracking): a scrape answers one changeTracking format, the first (formats[1])`},
		{"attributes all served", `[{"type":"attributes","selectors":[{"selector":"a","attribute":"href"}]},{"type":"attributes","selectors":[{"selector":"img","attribute":"src"}]}]`, "",
			func(r *scrapeRequest) bool { return len(r.FormatOptions.Attributes) == 2 }, ""},
		{"two json", `[{"type":"json","prompt":"first"},{"type":"json","prompt":"second"}]`, "",
			func(r *scrapeRequest) bool { return r.JSONOptions.Prompt == "first" },
			`not applied: formats[1] (json): a scrape answers one json format, the first (formats[0])`},
		{"jsonOptions without json", `["markdown"]`, `,"jsonOptions":{"prompt":"p"}`,
			func(r *scrapeRequest) bool { return r.JSONOptions == nil },
			`not applied: jsonOptions (no json format asks for it: add "json" to formats)`},
		{"jsonOptions beside a json object", `[{"type":"json","prompt":"object"}]`, `,"jsonOptions":{"prompt":"v1"}`,
			func(r *scrapeRequest) bool { return r.JSONOptions.Prompt == "object" },
			`not applied: jsonOptions (formats[0], the json format object, gives the schema and prompt)`},
		{"jsonOptions with json", `["json"]`, `,"jsonOptions":{"prompt":"v1"}`,
			func(r *scrapeRequest) bool { return r.JSONOptions.Prompt == "v1" }, ""},
	}
	for _, tc := range tests {
		body := `{"url":"https://example.org/","formats":` + tc.formats + tc.extra + `}`
		req, ae := decodeScrapeBody([]byte(body), merge(scrapeFields, map[string]fieldRule{"url": {}}))
		if ae != nil {
			t.Errorf("%s: %v", tc.name, ae.Message)
			continue
		}
		warnings := strings.Join(req.Warnings, "; ")
		if !tc.check(req) {
			t.Errorf("%s: served the wrong one (%+v, %+v)", tc.name, req.FormatOptions, req.JSONOptions)
		}
		if tc.warn == "" && strings.Contains(warnings, "not applied") || !strings.Contains(warnings, tc.warn) {
			t.Errorf("%s: warnings %q, want %q", tc.name, warnings, tc.warn)
		}
	}
}

// TestTimeoutWarning: a timeout longer than the fetch stage's deadline, or
// than sift waits for any request, names the cap it meets.
func TestTimeoutWarning(t *testing.T) {
	t.Parallel()
	ms := func(n int64) *int64 { return &n }
	tests := []struct {
		timeout *int64
		fetch   time.Duration
		want    string // "" for none
	}{
		{nil, 20 * time.Second, ""},
		{ms(15000), 20 * time.Second, ""},
		{ms(20000), 20 * time.Second, ""},
		{ms(60000), 20 * time.Second, "timeout 60000 ms capped at 20s for the page's download: the fetch stage's timeout"},
		{ms(60000), 0, ""},
		{ms(600000), 20 * time.Second, "timeout 600000 ms capped at 5m0s, the longest sift waits for a request, and at 20s for the page's download"},
		{ms(600000), 0, "timeout 600000 ms capped at 5m0s, the longest sift waits for a request"},
	}
	for _, tc := range tests {
		got := timeoutWarning(tc.timeout, tc.fetch)
		if tc.want == "" && got != "" || !strings.HasPrefix(got, tc.want) {
			t.Errorf("timeout %v, fetch %s: %q, want %q", tc.timeout, tc.fetch, got, tc.want)
		}
	}
}
