package html

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func TestKeepCellCode(t *testing.T) {
	root := parsePage(t, `<html><body><p><code>outside</code></p><table><tr><td><code>one</code>, <code>two</code></td>`+
		`<td><pre><code>in pre</code></pre></td><td><code>two
lines</code></td><td><pre>one
two</pre></td></tr></table></body></html>`)
	keepCellCode(root)
	var b strings.Builder
	if err := html.Render(&b, root); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	for _, want := range []string{`<p><code>outside</code></p>`, `<kbd>one</kbd>, <kbd>two</kbd>`,
		`<kbd>in pre</kbd>`, "<code>two\nlines</code>", "<pre>one\ntwo</pre>"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q missing from %s", want, got)
		}
	}
}

// TestCellCodeKeepsItsText: a reference table's cells of code keep the
// text between and inside their code spans ("http, server, location"
// came out as one word, "drip_rate rate;" not at all).
func TestCellCodeKeepsItsText(t *testing.T) {
	md := extractFile(t, "reference").Content
	checkText(t, md, []string{"`http`, `server`, `location`, `if in location`", "`server`, `location`", "drip_rate", "drip_after"},
		[]string{"httpserver", "serverlocation"})
}
