package html

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func TestRestoreSpaces(t *testing.T) {
	const m = "\uE000"
	tests := []struct{ name, in, want string }{
		{"no markers", "a  b\n  c  ", "a  b\n  c  "},
		{"between words", "Buy" + m + "Akko", "Buy Akko"},
		{"blanks around marker collapse", "Buy " + m + m + "  Akko", "Buy Akko"},
		{"line start keeps indent", "  " + m + "- item", "  - item"},
		{"line end dropped", "end" + m + " ", "end"},
		{"several lines", m + "a" + m + "\n" + m + "b" + m + "c", "a\nb c"},
		{"marker-only line", m, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := restoreSpaces(tc.in); got != tc.want {
				t.Errorf("restoreSpaces(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// TestMarkSpaces: only whitespace beside inline elements, where it keeps
// words apart, is marked; whitespace between blocks is left as it is.
func TestMarkSpaces(t *testing.T) {
	const m = "\uE000"
	tests := []struct{ name, in, want string }{
		{"inline link", `<p>Buy <a>Akko</a> switches</p>`, `<p>Buy ` + m + `<a>Akko</a>` + m + ` switches</p>`},
		{"between inline elements", `<p><b>one</b> <i>two</i></p>`, `<p><b>one</b>` + m + `<i>two</i></p>`},
		{"between list items", "<ul>\n <li>one</li>\n <li>two</li>\n</ul>", "<ul>\n <li>one</li>\n <li>two</li>\n</ul>"},
		{"text beside a block", "<div>Intro <p>para</p> tail</div>", "<div>Intro <p>para</p> tail</div>"},
		{"words beside tags in preformatted text", "<pre>a <b>b</b> c</pre>", "<pre>a " + m + "<b>b</b>" + m + " c</pre>"},
		{"indentation in preformatted text", "<pre><b>x</b>\n    <i>y</i></pre>", "<pre><b>x</b>\n    <i>y</i></pre>"},
		{"a space at the end of an element moves out of it", `<li><b>for </b><a>regular</a><b> academic</b></li>`, `<li><b>for</b>` + m + `<a>regular</a>` + m + `<b>academic</b></li>`},
		{"out of nested elements", "<li><b><i>for\u00a0</i></b>regular</li>", `<li><b><i>for</i></b>` + m + `regular</li>`},
		{"a space before a block stays", `<li><b>for </b><p>para</p></li>`, `<li><b>for </b><p>para</p></li>`},
		{"a space at the end of a block's text stays", `<li>for <p>para</p></li>`, `<li>for <p>para</p></li>`},
		{"a link's padding before the end of its item stays", "<li><a>\nJapan Hotels\n</a>\n</li>", "<li><a>\nJapan Hotels\n</a>\n</li>"},
		{"a space before a space is marked where it is", `<p><b>for </b> <a>x</a></p>`, `<p><b>for </b>` + m + `<a>x</a></p>`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root, err := html.Parse(strings.NewReader("<html><body>" + tc.in + "</body></html>"))
			if err != nil {
				t.Fatal(err)
			}
			markSpaces(root)
			var b strings.Builder
			body := root.FirstChild.LastChild
			for c := body.FirstChild; c != nil; c = c.NextSibling {
				if err := html.Render(&b, c); err != nil {
					t.Fatal(err)
				}
			}
			if got := b.String(); got != tc.want {
				t.Errorf("marked %q, want %q", got, tc.want)
			}
		})
	}
}

// TestSpacesInsideElementsKeepWordsApart: a space written inside an
// inline element, at its edge, keeps its words apart in a list item and a
// table cell as in a paragraph (WCXB 0210, 0262, 0461 ran "for" and
// "regular" together as "forregular").
func TestSpacesInsideElementsKeepWordsApart(t *testing.T) {
	para := `<p>` + strings.Repeat("A paragraph of plain words to make the article long enough to be read. ", 6) + `</p>`
	tests := []struct{ name, body, want string }{
		{"list item, bold before a link", `<ul><li><strong>Students have opportunities for </strong><a href="/x"><strong>regular and substantive</strong></a><strong> academic interactions.</strong></li><li>Second item of the list.</li></ul>`, "for** [**regular"},
		{"list item, after the link", `<ul><li><strong>Students have opportunities for </strong><a href="/x"><strong>regular and substantive</strong></a><strong> academic interactions.</strong></li><li>Second item of the list.</li></ul>`, "substantive**](https://example.com/x) **academic"},
		{"list item, non-breaking space", `<ul><li><b>Cost&nbsp;</b>per click is the price.</li><li>Second item of the list.</li></ul>`, "**Cost** per click"},
		{"table cell", `<table><tr><td><b>Released </b>in May</td><td>Two</td></tr><tr><td>Three</td><td>Four</td></tr></table>`, "**Released** in May"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { checkInArticle(t, para+tc.body+para, tc.want) })
	}
}

// TestLineBreakBeforeAnElementKept: a <br> that an element follows
// directly still breaks the line (WCXB 0270's "available**Cons:**", 0461's
// "Webber**Released:**").
func TestLineBreakBeforeAnElementKept(t *testing.T) {
	para := `<p>` + strings.Repeat("A paragraph of plain words to make the article long enough to be read. ", 6) + `</p>`
	tests := []struct{ name, body, want string }{
		{"bold after a break", `<p><strong>Pros:</strong> Compact, waterproof models available<br><strong>Cons:</strong> A smaller sensor.</p>`, "available  \n**Cons:**"},
		{"break after a space", `<p><strong>Author:</strong> Heather Webber <br><strong>Released:</strong> November 4</p>`, "Webber  \n**Released:**"},
		{"italic after a break", `<p>Line one<br>Line two<br><em>Line three</em></p>`, "Line two  \n*Line three*"},
		{"text after a break, as before", `<p>Line one<br>Line two</p>`, "Line one  \nLine two"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { checkInArticle(t, para+tc.body+para, tc.want) })
	}
}

// checkInArticle extracts an article of body and checks its markdown
// holds want.
func checkInArticle(t *testing.T, body, want string) {
	t.Helper()
	page := `<html><head><title>A title</title></head><body><article><h1>A title</h1>` + body + `</article></body></html>`
	res, err := extractHTML(t, []byte(page), "https://example.com/a", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Content, want) {
		t.Errorf("content lacks %q:\n%s", want, res.Content)
	}
}

func TestWordCount(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"three plain words", 3},
		{"先日、不正に改造した", 9},
		{"iPhoneを販売", 4},
		{"— · 2016.12.01", 3}, // as strings.Fields counts them
		{"서울에서 만나요", 7},
	}
	for _, tc := range tests {
		if got := wordCount(tc.in); got != tc.want {
			t.Errorf("wordCount(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
	if tooThin(strings.Repeat("報道によると、今回販売されたのは、いわゆる脱獄したものです。", 3)) {
		t.Error("a Japanese paragraph of 90 characters was taken for a thin extraction")
	}
}

// TestSpaceMarksAreNoWords: readWords does not count the marks markSpaces
// leaves between inline elements, so the landmarks' guard weighs the same
// page with the marks as without them. A shop's page whose words all sat
// in its landmarks lost them all: the marks between the spans outside the
// landmarks outnumbered the marks inside them, and the guard that keeps a
// page whose every word is in its landmarks no longer held.
func TestSpaceMarksAreNoWords(t *testing.T) {
	menu := `<nav><a href="/a">Shop</a> <a href="/b">Cart</a></nav>`
	tests := []struct {
		name, body string
		words      int
		kept       []string
	}{
		{"words beside inline elements", `<p>Buy <a href="/a">Akko</a> switches</p>`, 3, []string{"Akko"}},
		{"spaces alone between inline elements", `<p><b>one</b> <i>two</i> <span></span> <span></span></p>`, 2, []string{"one", "two"}},
		{"a page whose every word is in its landmarks keeps them", menu + `<b></b> <i></i> <span></span> <span></span>`, 2, []string{"Shop", "Cart"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := parsePage(t, `<html><head><title>Shop</title></head><body>`+tc.body+`</body></html>`)
			markSpaces(root)
			if got := readWords(bodyOf(root)); got != tc.words {
				t.Errorf("readWords = %d, want %d", got, tc.words)
			}
			dropLandmarks(root)
			checkText(t, textOfNode(root), tc.kept, nil)
		})
	}
}
