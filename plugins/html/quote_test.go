package html

import (
	"strings"
	"testing"
)

// TestQuotedCodeStaysQuoted pins renderQuotedCode: every line of a code
// block inside a quote keeps the quote's "> ", blank lines in the code too,
// and the text after the quote is no code.
func TestQuotedCodeStaysQuoted(t *testing.T) {
	para := "<p>" + strings.Repeat("Words of a paragraph that is long enough to count as text. ", 4) + "</p>"
	page := `<html><body><article><h1>Notes</h1>` + para +
		"<blockquote><p>He wrote:</p><pre><code>line one\n\nline two\nline three</code></pre><p>and left.</p></blockquote>" +
		"<p>After the quote comes plain prose.</p>" + para + `</article></body></html>`
	want := "> He wrote:\n> \n> ```\n> line one\n> \n> line two\n> line three\n> ```\n> \n> and left.\n\nAfter the quote comes plain prose."
	for _, tc := range []struct {
		name string
		opts map[string]string
	}{
		{"main content", nil},
		{"whole page", map[string]string{OptionMainContent: "false"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := extractHTML(t, []byte(page), "https://x.example/notes", tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(res.Content, want) {
				t.Errorf("the quoted code block left its quote; want\n%s\nin\n%s", want, res.Content)
			}
		})
	}
}

// TestQuotesAndListsNest: a code block in a list in a quote, and in a quote
// in a list, keeps both the quote's prefix and the list's indent.
func TestQuotesAndListsNest(t *testing.T) {
	page := "<html><body><blockquote><p>Inner</p><ul><li><p>item</p><pre>x\ny</pre></li></ul></blockquote>" +
		"<ul><li><p>top item</p><blockquote><pre>q\nr</pre></blockquote></li></ul></body></html>"
	res, err := extractHTML(t, []byte(page), "https://x.example/nest", map[string]string{OptionMainContent: "false"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"> - item\n>   \n>   ```\n>   x\n>   y\n>   ```",
		"- top item\n  \n  > ```\n  > q\n  > r\n  > ```",
	} {
		if !strings.Contains(res.Content, want) {
			t.Errorf("want\n%s\nin\n%s", want, res.Content)
		}
	}
}
