package html

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestRemovedElementsKeepTheirTail: the text after an element go-trafilatura
// removes in the middle of a paragraph (a script, a style, a noscript, a
// comment) stays in the paragraph.
func TestRemovedElementsKeepTheirTail(t *testing.T) {
	filler := "<p>" + strings.Repeat("The council met on Tuesday to discuss the new budget for the coming year. ", 4) + "</p>"
	tests := []struct{ name, mid, tail string }{
		{"script", `<script>var x=1;</script>`, "has a tail of its own"},
		{"script with a comment after", `<script>document.write("ad")</script><!-- ad -->`, "has a tail after two"},
		{"noscript", `<noscript><img src="/p.gif"></noscript>`, "has a tail of its own"},
		{"style", `<style>.x{color:red}</style>`, "has a tail of its own"},
		{"template", `<template><b>t</b></template>`, "has a tail of its own"},
		{"comment", `<!-- slot -->`, "has a tail of its own"},
		{"ins ad slot", `<ins class="adsbygoogle"></ins><script>(adsbygoogle=window.adsbygoogle||[]).push({});</script>`, "has a tail of its own"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			page := "<html><head><title>Budget</title></head><body><nav><a href=/>Home</a></nav><article><h1>Budget</h1>" +
				filler + "<p>The inline element " + tc.mid + " " + tc.tail + ", and the sentence ends here.</p>" + filler +
				"</article><footer>Footer</footer></body></html>"
			res, err := extractHTML(t, []byte(page), pageURL, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(res.Content, tc.tail+", and the sentence ends here.") {
				t.Errorf("tail lost:\n%s", res.Content)
			}
		})
	}
}

// TestDropFromText: only an element text follows goes, and data scripts
// stay wherever they are.
func TestDropFromText(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"script in text", `<p>a <script>x()</script> b</p>`, `<p>a  b</p>`},
		{"script ending a paragraph stays", `<p>a <script>x()</script></p>`, `<p>a <script>x()</script></p>`},
		{"script before an element stays", `<p>a <script>x()</script><b>b</b> c</p>`, `<p>a <script>x()</script><b>b</b> c</p>`},
		{"past a comment", `<p>a <script>x()</script><!-- c --> b</p>`, `<p>a <!-- c --> b</p>`},
		{"two in a row", `<p>a <style>.x{}</style><script>x()</script> b</p>`, `<p>a  b</p>`},
		{"JSON-LD stays", `<p>a <script type="application/ld+json">{}</script> b</p>`, `<p>a <script type="application/ld+json">{}</script> b</p>`},
		{"a formula's script stays", `<p>a <script type="math/tex">x</script> b</p>`, `<p>a <script type="math/tex">x</script> b</p>`},
		{"link", `<p>a <link rel="stylesheet" href="/a.css"> b</p>`, `<p>a  b</p>`},
		{"svg is go-trafilatura's", `<p>a <svg><path d="M0"></path></svg> b</p>`, `<p>a <svg><path d="M0"></path></svg> b</p>`},
		{"loose text in a div", `<div><script>x()</script>Loose text</div>`, `<div>Loose text</div>`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := parsePage(t, "<html><head><script>h()</script></head><body>"+tc.in+"</body></html>")
			dropFromText(root)
			var b strings.Builder
			body := findElement(root, func(n *html.Node) bool { return n.Data == "body" })
			for c := body.FirstChild; c != nil; c = c.NextSibling {
				html.Render(&b, c)
			}
			if b.String() != tc.want {
				t.Errorf("got  %s\nwant %s", b.String(), tc.want)
			}
		})
	}
}
