package focus

import (
	"strings"
	"testing"
)

func TestSplitMarkdown(t *testing.T) {
	tests := []struct {
		name  string
		md    string
		parts []string
		kinds []Kind
		paths []string // each part's path, joined by " > "
	}{
		{
			name:  "paragraphs under headings",
			md:    "# Title\n\nIntro line one\nline two.\n\n## Install\n\nRun make.\n\n## Use\n\nCall it.\n",
			parts: []string{"Intro line one\nline two.", "Run make.", "Call it."},
			kinds: []Kind{Paragraph, Paragraph, Paragraph},
			paths: []string{"# Title", "# Title > ## Install", "# Title > ## Use"},
		},
		{
			name:  "a deeper heading closes at its sibling",
			md:    "## A\n### A1\ntext a1\n## B\ntext b\n",
			parts: []string{"text a1", "text b"},
			kinds: []Kind{Paragraph, Paragraph},
			paths: []string{"## A > ### A1", "## B"},
		},
		{
			name:  "list items with continuation and nesting",
			md:    "- one\n  more of one\n  - nested\n- two\n\n1. first\n2) second\n",
			parts: []string{"- one\n  more of one\n  - nested", "- two", "1. first", "2) second"},
			kinds: []Kind{ListItem, ListItem, ListItem, ListItem},
			paths: []string{"", "", "", ""},
		},
		{
			name:  "code block kept whole, blank lines and hashes inside",
			md:    "Before.\n```go\nx := 1\n\n# not a heading\n```\nAfter.\n",
			parts: []string{"Before.", "```go\nx := 1\n\n# not a heading\n```", "After."},
			kinds: []Kind{Paragraph, Code, Paragraph},
			paths: []string{"", "", ""},
		},
		{
			name:  "unclosed fence runs to the end",
			md:    "~~~\ncode\n\nmore",
			parts: []string{"~~~\ncode\n\nmore"},
			kinds: []Kind{Code},
			paths: []string{""},
		},
		{
			name:  "table rows under the table header",
			md:    "## T\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n",
			parts: []string{"| 1 | 2 |", "| 3 | 4 |"},
			kinds: []Kind{TableRow, TableRow},
			paths: []string{"## T > | a | b |\n|---|---|", "## T > | a | b |\n|---|---|"},
		},
		{
			name:  "a thematic break is not a list item",
			md:    "* * *\ntext\n",
			parts: []string{"* * *\ntext"},
			kinds: []Kind{Paragraph},
			paths: []string{""},
		},
		{
			name:  "hashtag is not a heading, CRLF lines",
			md:    "#tag text\r\n\r\nnext\r\n",
			parts: []string{"#tag text", "next"},
			kinds: []Kind{Paragraph, Paragraph},
			paths: []string{"", ""},
		},
		{name: "empty", md: "", parts: nil},
		{name: "headings only", md: "# A\n## B\n", parts: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sp := SplitMarkdown(tt.md)
			if len(sp.Parts) != len(tt.parts) {
				t.Fatalf("got %d parts %q, want %d", len(sp.Parts), texts(sp), len(tt.parts))
			}
			for i, p := range sp.Parts {
				if p.Text != tt.parts[i] {
					t.Errorf("part %d = %q, want %q", i, p.Text, tt.parts[i])
				}
				if p.Kind != tt.kinds[i] {
					t.Errorf("part %d kind = %d, want %d", i, p.Kind, tt.kinds[i])
				}
				var path []string
				for _, c := range p.Path {
					path = append(path, sp.Context[c])
				}
				if got := strings.Join(path, " > "); got != tt.paths[i] {
					t.Errorf("part %d path = %q, want %q", i, got, tt.paths[i])
				}
			}
		})
	}
}

func texts(sp Split) []string {
	var out []string
	for _, p := range sp.Parts {
		out = append(out, p.Text)
	}
	return out
}

// FuzzSplitMarkdown checks the splitter's invariants on any input: each
// part is its own byte range of the page, in order, never overlapping,
// and no word of the page is lost outside parts and context lines.
func FuzzSplitMarkdown(f *testing.F) {
	for _, s := range []string{
		"# T\n\npara\n\n- a\n- b\n\n| h |\n|---|\n| r |\n\n```\ncode\n```\n",
		"```", "|x", "- ", "1. \n\n   cont", "###### six\n####### seven", "\r\n\r\n", "* * *",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, md string) {
		sp := SplitMarkdown(md)
		end := 0
		words := 0
		for _, p := range sp.Parts {
			if p.Start < end || p.End > len(md) || p.Start >= p.End {
				t.Fatalf("part range [%d,%d) after %d in %d bytes", p.Start, p.End, end, len(md))
			}
			if md[p.Start:p.End] != p.Text {
				t.Fatalf("part text %q is not the page's bytes %q", p.Text, md[p.Start:p.End])
			}
			for _, c := range p.Path {
				if c < 0 || c >= len(sp.Context) {
					t.Fatalf("path index %d out of %d", c, len(sp.Context))
				}
			}
			end = p.End
			words += len(strings.Fields(p.Text))
		}
		for _, c := range sp.Context {
			words += len(strings.Fields(c))
		}
		if want := len(strings.Fields(md)); words < want {
			t.Fatalf("parts and context hold %d words, the page %d", words, want)
		}
	})
}
