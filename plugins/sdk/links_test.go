package sdk_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/siftd/sift/plugins/sdk"
)

func TestLinksCollect(t *testing.T) {
	for _, tc := range []struct {
		name string
		base string
		refs []string
		want []string
	}{
		{"resolved against the document", "https://example.com/docs/a.docx",
			[]string{"b.html", "../c", "https://other.example/d", "b.html"},
			[]string{"https://example.com/docs/b.html", "https://example.com/c", "https://other.example/d"}},
		{"no base: absolute ones only", "", []string{"b.html", "http://x.example/"}, []string{"http://x.example/"}},
		{"a malformed base counts as none", "::", []string{"b.html"}, nil},
		{"not links", "https://example.com/", []string{"", "  ", "#frag", "javascript:void(0)", "data:,x", "file:///etc/passwd", "http://%zz"}, nil},
		{"mailto and ftp kept", "", []string{"mailto:a@example.com", "ftp://example.com/f"}, []string{"mailto:a@example.com", "ftp://example.com/f"}},
		{"scheme case folded", "", []string{"HTTP://example.com/A"}, []string{"http://example.com/A"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := sdk.NewLinks(tc.base)
			for _, r := range tc.refs {
				l.Add(r)
			}
			if got := l.List(); !slices.Equal(got, tc.want) {
				t.Errorf("links %q, want %q", got, tc.want)
			}
		})
	}
}

// Past MaxLinks a collector keeps counting what it drops, for a warning.
func TestLinksBounded(t *testing.T) {
	l := sdk.NewLinks("https://example.com/")
	for i := range sdk.MaxLinks + 3 {
		if abs, ok := l.Add(fmt.Sprintf("/p%d", i)); !ok || abs != fmt.Sprintf("https://example.com/p%d", i) {
			t.Fatalf("Add(/p%d) = %q, %v", i, abs, ok)
		}
	}
	if len(l.List()) != sdk.MaxLinks || l.Dropped != 3 {
		t.Fatalf("%d kept, %d dropped; want %d and 3", len(l.List()), l.Dropped, sdk.MaxLinks)
	}
}
