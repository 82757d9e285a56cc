package extract

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/stages"
)

// linked answers with the links it holds.
type linked struct{ links []string }

func (l linked) Extract(context.Context, *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	return &sdk.ExtractResult{Content: "text", Format: sdk.FormatText, Links: l.links}, nil
}

// The Doc carries the links a plugin reports, held to the SDK's contract:
// a plugin reads hostile documents, and what it reports reaches answers.
func TestLinksCarriedAndBounded(t *testing.T) {
	many := make([]string, 0, sdk.MaxLinks+5)
	for i := range sdk.MaxLinks + 5 {
		many = append(many, fmt.Sprintf("https://example.com/%d", i))
	}
	for _, tc := range []struct {
		name      string
		links     []string
		want      []string
		wantCount int
		warning   string
	}{
		{name: "none"},
		{name: "in order, each once",
			links: []string{"https://b.example/", "https://a.example/x", "https://b.example/"},
			want:  []string{"https://b.example/", "https://a.example/x"}},
		{name: "relative, scripts and fragments dropped",
			links: []string{"/rel", "#top", "javascript:alert(1)", "data:text/plain,x", "HTTPS://c.example/ok", "mailto:a@example.com"},
			want:  []string{"https://c.example/ok", "mailto:a@example.com"}},
		{name: "an overlong link dropped", links: []string{"https://example.com/" + strings.Repeat("a", sdk.MaxLinkBytes)}},
		{name: "past the bound", links: many, wantCount: sdk.MaxLinks, warning: fmt.Sprintf("links cut at %d: 5 more dropped", sdk.MaxLinks)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &Stage{router: oneRoute{linked{tc.links}}, maxOutput: DefaultMaxOutput}
			doc := &stages.Doc{Response: &stages.Response{Body: []byte("body"), ContentType: "text/plain"}}
			if err := s.Run(context.Background(), doc); err != nil {
				t.Fatal(err)
			}
			got := doc.Extraction.Links
			if tc.wantCount > 0 {
				if len(got) != tc.wantCount || got[0] != many[0] || got[len(got)-1] != many[tc.wantCount-1] {
					t.Errorf("%d links (%q … %q), want the first %d", len(got), got[0], got[len(got)-1], tc.wantCount)
				}
			} else if !slices.Equal(got, tc.want) {
				t.Errorf("links %q, want %q", got, tc.want)
			}
			if tc.warning == "" && len(doc.Warnings) > 0 || tc.warning != "" && !slices.Contains(doc.Warnings, tc.warning) {
				t.Errorf("warnings %q, want %q", doc.Warnings, tc.warning)
			}
		})
	}
}
