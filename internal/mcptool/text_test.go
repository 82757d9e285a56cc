package mcptool

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/siftd/sift/internal/apiv1"
)

var update = flag.Bool("update", false, "rewrite the golden files")

var nonce = regexp.MustCompile(`UNTRUSTED [0-9a-f]{12}`)

// TestTextGolden: the text content a model reads for each answer.
func TestTextGolden(t *testing.T) {
	t.Parallel()
	page := &apiv1.FetchAnswer{
		Content: "# Release notes\n\nVersion 2 drops the old API.\n", Mode: "clean", Untrusted: true, Title: "Release notes",
		Source:   apiv1.Source{URL: "https://example.com/notes", FinalURL: "https://example.com/notes/", Status: 200, ContentType: "text/html", Cached: true},
		Sizes:    apiv1.Sizes{RawTokens: 900, CleanTokens: 14, ReturnedTokens: 14},
		Warnings: []string{"the page declares no charset"},
	}
	tests := []struct {
		name string
		text string
	}{
		{"fetch", fetchText(page)},
		{"search", searchText(&apiv1.SearchRequest{Query: "nginx proxy"}, &apiv1.SearchAnswer{
			Results: []apiv1.SearchResult{{URL: "https://nginx.org/", Title: "nginx", Snippet: "A reverse proxy."}},
			Answers: []string{"nginx is a web server"}, Sizes: apiv1.SearchSizes{ReturnedTokens: 12}})},
		{"batch_submit", submitText(&apiv1.BatchSubmitted{JobID: "j1", Status: "queued", Targets: 2})},
		{"batch_status", statusText(&BatchStatusOutput{JobID: "j1", Status: "partial", TargetsTotal: 2, TargetsDone: 2, Targets: []BatchTarget{
			{Idx: 0, URL: "https://example.com/notes", Status: "done", Result: page},
			{Idx: 1, URL: "http://10.0.0.5/", Status: "failed", Error: "blocked: private address 10.0.0.5"},
		}})},
		{"batch_result", resultText(&BatchResultOutput{JobID: "j1", BatchTarget: BatchTarget{Idx: 1, URL: "http://10.0.0.5/", Status: "failed", Error: "blocked: private address 10.0.0.5"}})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := nonce.ReplaceAllString(tt.text, "UNTRUSTED NONCE") + "\n"
			path := filepath.Join("testdata", tt.name+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("text content:\n%s\nwant (testdata/%s.golden):\n%s", got, tt.name, want)
			}
		})
	}
}
