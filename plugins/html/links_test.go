package html

import (
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"
)

func marked(idx int, text string) string {
	return string(linkOpen) + string(rune(linkBase+idx)) + text + string(linkClose)
}

func TestLinkMarkdown(t *testing.T) {
	hrefs := []string{"/guides/soil", "https://other.example/a b(c)", "#top", "javascript:void(0)"}
	tests := []struct{ name, in, want string }{
		{"relative link", "See the " + marked(0, "soil guide") + ".", "See the [soil guide](https://garden.example/guides/soil)."},
		{"escaped target", marked(1, "**other**"), "[**other**](https://other.example/a%20b%28c%29)"},
		{"spaces stay outside", "a" + marked(0, " soil ") + "b", "a [soil](https://garden.example/guides/soil) b"},
		{"fragment", marked(2, "top"), "top"},
		{"script", marked(3, "click"), "click"},
		{"cut by a line break", string(linkOpen) + string(rune(linkBase)) + "soil\nguide" + string(linkClose), "soil\nguide"},
		{"unknown number", marked(9, "lost"), "lost"},
		{"permalink", "## Care" + marked(2, "¶"), "## Care"},
		{"brackets in the text", "See " + marked(0, `git-add\[1]`) + ".", `See [git-add\[1\]](https://garden.example/guides/soil).`},
		{"escaped backslash", marked(0, `a\\]`), `[a\\\]](https://garden.example/guides/soil)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := linkMarkdown(tc.in, hrefs, pageURL); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestMarkLinks(t *testing.T) {
	root, err := html.Parse(strings.NewReader(`<p>Read <a href="/a">one</a> <a href="/b"><img src="x.png"></a>` +
		`<a href="/c"><b>bold</b> two</a></p><pre><a href="/d">code</a></pre><ul><li> <a href="/e">menu</a> </li></ul>`))
	if err != nil {
		t.Fatal(err)
	}
	hrefs := markLinks(root, true)
	if strings.Join(hrefs, " ") != "/a /c /e" {
		t.Fatalf("marked %v, want /a, /c and /e (no text: /b; in code: /d)", hrefs)
	}
	text := textOf(root)
	for _, want := range []string{marked(0, "one"), marked(1, "bold two"), "code", marked(2, "menu")} {
		if !strings.Contains(text, want) {
			t.Fatalf("marked text %q lacks %q", text, want)
		}
	}
	if got := strings.Join(strings.Fields(stripLinkMarks(text)), " "); got != "Read one bold twocode menu" {
		t.Fatalf("stripped %q", got)
	}
	// go-trafilatura weighs a link's own text against its parent's: the
	// marks stand beside a link in a sentence, and inside a link alone in
	// its parent.
	links := goquery.NewDocumentFromNode(root).Find("a")
	if own := textOf(links.Nodes[0]); own != "one" {
		t.Errorf("the sentence's link's own text is %q, want it unmarked", own)
	}
	if own := textOf(links.Nodes[4]); own != marked(2, "menu") {
		t.Errorf("the menu item's own text is %q, want it marked", own)
	}
	// On articles (insideAlone false) the marks stay beside every link.
	menu, err := html.Parse(strings.NewReader(`<ul><li><a href="/e">menu</a></li></ul>`))
	if err != nil {
		t.Fatal(err)
	}
	markLinks(menu, false)
	if own := textOf(goquery.NewDocumentFromNode(menu).Find("a").Nodes[0]); own != "menu" {
		t.Errorf("on an article the menu item's own text is %q, want it unmarked", own)
	}
}

// Marking many links in one element takes time in proportion to them, not
// to their square: a hostile page may hold 100,000. (A liveness check with
// a hundredfold margin both ways, not a speed measurement: that is
// BenchmarkExtractPage.)
func TestMarkLinksManySiblings(t *testing.T) {
	var b strings.Builder
	b.WriteString("<div>")
	for range 100000 {
		b.WriteString(`<a href="/x">x</a>`)
	}
	b.WriteString("</div>")
	root, err := html.Parse(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan []string, 1)
	go func() { done <- markLinks(root, true) }()
	select {
	case hrefs := <-done:
		if len(hrefs) != maxLinks {
			t.Fatalf("marked %d links, want the first %d", len(hrefs), maxLinks)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("marking 100,000 sibling links took over 20 s (before the fix, about 50 s: each link scanned all its siblings)")
	}
}

func TestUnlinkMarkdown(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"a link", "See the [soil guide](https://g.example/soil).", "See the soil guide."},
		{"escaped brackets stay escaped", `[git-add\[1\]](https://g.example/a)`, `git-add\[1\]`},
		{"an image stays", "![logo](https://g.example/l.png)", "![logo](https://g.example/l.png)"},
		{"a linked image becomes the image", "[![logo](https://g.example/l.png)](https://g.example/)", "![logo](https://g.example/l.png)"},
		{"code spans stay", "Write `[a](b)` for [a link](https://g.example/).", "Write `[a](b)` for a link."},
		{"fenced code stays", "```\n[a](b)\n```\n[c](https://g.example/)", "```\n[a](b)\n```\nc"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := unlinkMarkdown(tc.in); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// With links=false the content is the same, links rendered as their text:
// the tags after an article still go (before, they came back, as the rule
// that drops them read links the option had already taken out).
func TestLinksFalseKeepsTheSameContent(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<html><head><meta property="og:type" content="article"><title>Race calendar</title></head><body><article><h1>Race calendar</h1>`)
	for i := 0; i < 6; i++ {
		b.WriteString(`<p>STORY The season opens in March at the old circuit and closes in December, with twelve rounds between.</p>`)
	}
	b.WriteString(`<p><a href="/t/1">TAG-ONE season</a>, <a href="/t/2">TAG-TWO circuit</a>, <a href="/t/3">TAG-THREE rounds</a></p></article></body></html>`)
	for _, opts := range []map[string]string{nil, {"links": "false"}} {
		res, err := extractHTML(t, []byte(b.String()), pageURL, opts)
		if err != nil {
			t.Fatal(err)
		}
		checkText(t, res.Content, []string{"STORY"}, []string{"TAG-ONE", "TAG-THREE"})
	}
}

// Link marks are no words of their own, and split none: a text's words
// are counted as if the marks were not there.
func TestCountWordsSkipsLinkMarks(t *testing.T) {
	tests := []struct {
		text       string
		all, links int
	}{
		{"plain words here", 3, 0},
		{"see " + marked(0, "the guide") + " now", 4, 0},
		{"a " + string(linkOpen) + string(rune(linkBase+3)) + " " + string(linkClose) + " b", 2, 0},
		{"glued" + marked(1, "word") + "s", 1, 0},
		{"", 0, 0},
	}
	for _, tt := range tests {
		if all, links := countWords(&html.Node{Type: html.TextNode, Data: tt.text}, false); all != tt.all || links != tt.links {
			t.Errorf("%q: %d words (%d in links), want %d (%d)", tt.text, all, links, tt.all, tt.links)
		}
		if want := len(strings.Fields(stripLinkMarks(tt.text))); want != tt.all {
			t.Errorf("%q: the marks stripped, %d words, want %d", tt.text, want, tt.all)
		}
		if all, links := countWords(&html.Node{Type: html.TextNode, Data: tt.text}, true); all != links {
			t.Errorf("%q in a link: %d words, %d of them in links", tt.text, all, links)
		}
	}
}
