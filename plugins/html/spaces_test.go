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
