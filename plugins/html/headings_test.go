package html

import (
	"slices"
	"strings"
	"testing"

	"github.com/go-shiori/dom"
	"golang.org/x/net/html"
)

// plainPageParagraphs are three paragraphs of a page without a <main> or
// an <article>, enough for go-trafilatura to find content in <body>.
const plainPageParagraphs = `
<p>This release fixes a number of long-standing bugs in the scheduler and improves startup time considerably for large installations.</p>
<p>The configuration format is unchanged, but two options were renamed; the old names still work and print a warning when used.</p>
<p>Upgrading is recommended for everyone running version 4.0 or 4.1, especially on machines with many cores.</p>`

// TestTitleHeadingKept: on a plain page go-trafilatura took the <h1> for
// the title and left it out of the content, and /v2/scrape reports the
// <title> element, so the agent read the heading nowhere.
func TestTitleHeadingKept(t *testing.T) {
	page := `<html><head><title>Example Project - Home</title></head><body>
<h1>Release notes for version 4.2</h1>` + plainPageParagraphs + `</body></html>`
	res, err := extractHTML(t, []byte(page), pageURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res.Content, "# Release notes for version 4.2\n\n") {
		t.Errorf("the page's heading does not open the content:\n%s", res.Content)
	}
	if n := strings.Count(res.Content, "Release notes"); n != 1 {
		t.Errorf("the heading is in the content %d times:\n%s", n, res.Content)
	}
}

func TestRestoreTitleHeading(t *testing.T) {
	for _, tc := range []struct {
		name, page, title string
		restored          bool
	}{
		{"heading above the content's paragraphs", `<h1>Release notes</h1>` + plainPageParagraphs, "Release notes", true},
		{"words spaced and cased as the title", `<h1>  Release
			notes </h1>` + plainPageParagraphs, "Release notes", true},
		{"heading not the title", `<h1>Welcome</h1>` + plainPageParagraphs, "Release notes", false},
		{"heading in a page header", `<header><h1>Release notes</h1><p>A site about releases.</p></header>` + plainPageParagraphs, "Release notes", false},
		{"no title", `<h1>Release notes</h1>` + plainPageParagraphs, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := parsePage(t, "<html><body>"+tc.page+"</body></html>")
			content := dom.QuerySelector(parsePage(t, "<div>"+plainPageParagraphs+"</div>"), "div")
			restoreTitleHeading(root, content, tc.title)
			first := content.FirstChild
			got := first != nil && first.Data == "h1" && textOfNode(first) == "Release notes"
			if got != tc.restored {
				t.Errorf("restored %v, want %v: content %q", got, tc.restored, textOfNode(content))
			}
		})
	}
}

// TestSectionHeadingsKept: where go-trafilatura found no container it
// gathered the page's loose text without its headings; an outside check
// found pages of sections in <body> itself, a headline under a site's
// logo, and a DocBook reference page with every heading gone.
func TestSectionHeadingsKept(t *testing.T) {
	para := func(s string) string {
		return "<p>" + s + " is one sentence of this page, written out long enough to count as a paragraph of text.</p>"
	}
	for _, tc := range []struct {
		name, page string
		headings   []string // the markdown's heading lines, in order
	}{
		{"two sections in body", `<title>Two headings page</title><h1>Part one</h1>` + para("Dig") + para("Rake") +
			`<h1>Part two</h1>` + para("Sow") + para("Thin"), []string{"# Part one", "# Part two"}},
		{"subheadings in body", `<title>Garden guide</title><h1>Growing carrots</h1>` + para("Carrots") +
			`<h2>Preparing the soil</h2>` + para("Dig") + `<h2>Sowing the seeds</h2>` + para("Sow"),
			[]string{"# Growing carrots", "## Preparing the soil", "## Sowing the seeds"}},
		{"headline under a site's logo", `<title>Harbor Gazette</title><header><h1><a href="/">Harbor Gazette</a></h1></header>
			<h2>Ferry timetable changes</h2>` + para("From November") + para("The evening crossing") + para("Commuters"),
			[]string{"## Ferry timetable changes"}},
		{"title named again in the first sentence", `<title>Home</title><h1>Quokka</h1>` + para("Quokka") + para("Install") + para("Run"),
			[]string{"# Quokka"}},
		{"a heading's code span gathered as loose text, and its block again under another heading",
			`<title>Ref</title><h2>Options</h2>` + para("Intro") + `<h3><code>INHERITS</code> clause</h3>` + para("Inherits") +
				`<h3>Example</h3><pre>INHERITS</pre>` + para("More"),
			[]string{"## Options", "### `INHERITS` clause", "### Example"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := extractHTML(t, []byte("<html><body>"+tc.page+"</body></html>"), pageURL, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := headingLines(res.Content); !slices.Equal(got, tc.headings) {
				t.Errorf("headings %q, want %q in:\n%s", got, tc.headings, res.Content)
			}
		})
	}
}

// TestRestoreSectionHeadingsOutsideChrome: a heading in the page's chrome
// landmarks goes back nowhere. On a shop's shell whose every word sits in
// its navigation, dropLandmarks keeps the landmarks and go-trafilatura
// gathers a mega menu's taglines; their promo headings turned a page that
// chromeOnly returns empty into a list of promos (WCXB 4829, whose truth
// is empty).
func TestRestoreSectionHeadingsOutsideChrome(t *testing.T) {
	const tagline, prose = `<p>Find a gift for someone special this season.</p>`,
		`<p>Our trackers measure your sleep, your heart rate and your steps all day long.</p>`
	for _, tc := range []struct {
		name, page string
		want       []string // content's headings, in order
	}{
		{"heading in the body", `<h2>Trackers</h2>` + prose, []string{"Trackers"}},
		{"heading in a nav", `<nav><h3>A gift from the heart</h3>` + tagline + `</nav>` + prose, nil},
		{"heading in the page's footer", `<footer><h3>Gifts</h3>` + tagline + `</footer>` + prose, nil},
		{"heading in an element with the navigation role", `<div role="navigation"><h3>Gifts</h3>` + tagline + `</div>` + prose, nil},
		{"heading in an article's footer", `<article><footer><h3>Gifts</h3>` + tagline + `</footer>` + prose + `</article>`,
			[]string{"Gifts"}},
		{"body heading after a nav's", `<nav><h3>Gifts</h3>` + tagline + `</nav><h2>Trackers</h2>` + prose,
			[]string{"Trackers"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := parsePage(t, "<html><body>"+tc.page+"</body></html>")
			content := dom.QuerySelector(parsePage(t, "<div>"+tagline+prose+"</div>"), "div")
			restoreSectionHeadings(root, content)
			var got []string
			eachHeading(content, func(h *html.Node) bool { got = append(got, textOfNode(h)); return true })
			if !slices.Equal(got, tc.want) {
				t.Errorf("headings %q, want %q", got, tc.want)
			}
		})
	}
}

// TestRestoreSectionHeadingsSkipsTeaserTitles: a heading that is a link
// to another page, boxed with more than itself, is a teaser's title, and
// a heading whose box holds only links to other pages heads a list of
// links: a product grid's titles (WCXB 0644, 0645), a "More from" list's
// headlines and "Related links" (scrapinghub) came back between the
// content's paragraphs.
func TestRestoreSectionHeadingsSkipsTeaserTitles(t *testing.T) {
	const intro, stock, prose = `<p>Our grills cook for a family of four or a street party of forty.</p>`,
		`<p>In stock, ships tomorrow.</p>`,
		`<p>A kettle grill cooks with the lid on, so the heat reaches the food from every side at once.</p>`
	for _, tc := range []struct {
		name, box string   // box stands between intro and stock
		want      []string // content's headings, in order
	}{
		{"product card's title link", `<div><h2><a href="/p/kettle">Kettle grill 57 cm</a></h2><span>4.5 stars from 210 reviews</span></div>`, nil},
		{"headline in a teaser link, and the list's heading", `<div><h3>More from us</h3><ul><li><a href="/story/1"><img src="a.jpg"><h4>Ferry timetable changes</h4></a></li></ul></div>`,
			nil},
		{"heading of a list of links", `<div><h2>Related links</h2><ul><li><a href="/a">Gas grills</a></li><li><a href="/b">Smokers</a></li></ul></div>`, nil},
		{"heading of links to cards that hold their descriptions", `<div><h2>Services</h2><a href="/a"><h3>Repairs</h3><p>We fix any grill.</p></a></div>`,
			[]string{"Services", "Repairs"}},
		{"heading beside an icon's link", `<div><h2>Grills</h2><a href="/edit"><img src="pen.svg"></a></div>`, []string{"Grills"}},
		{"heading of links and prose", `<div><h2>Grills</h2><p>See <a href="/gas">gas grills</a>.</p></div>`, []string{"Grills"}},
		{"section heading with a permalink", `<div><h2><a href="#grills">Grills</a></h2><span>Updated in May</span></div>`, []string{"Grills"}},
		{"heading that links, alone in its box", `<h2><a href="/grills">Grills</a></h2>`, []string{"Grills"}},
		{"heading of a list of links among the paragraphs", `<h2>More on this topic</h2><ul><li><a href="/a">Gas grills</a></li><li><a href="/b">Smokers</a></li></ul>`, nil},
		{"heading of a line of links among the paragraphs", `<h3>Mehr zum Thema</h3><p><a href="/a">Gasgrills im Test</a> | <a href="/b">Smoker</a></p>`, nil},
		{"heading of a list with text among the paragraphs", `<h2>Grills</h2><ul><li><a href="/gas">Gas grills</a> run on propane</li></ul>`, []string{"Grills"}},
		{"heading over the paragraphs it heads", `<h2>Grills</h2>`, []string{"Grills"}},
		{"heading before another heading", `<h2>Grills</h2><h3>Kettles</h3><ul><li><a href="/a">Gas grills</a></li></ul>`, []string{"Grills"}},
		{"card link holding its description", `<div><a href="/grills"><h3>Grills</h3><p>All of them, gas and charcoal.</p></a></div>`,
			[]string{"Grills"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := parsePage(t, "<html><body>"+intro+tc.box+stock+prose+"</body></html>")
			content := dom.QuerySelector(parsePage(t, "<div>"+intro+stock+prose+"</div>"), "div")
			restoreSectionHeadings(root, content)
			var got []string
			eachHeading(content, func(h *html.Node) bool { got = append(got, textOfNode(h)); return true })
			if !slices.Equal(got, tc.want) {
				t.Errorf("headings %q, want %q", got, tc.want)
			}
		})
	}
}

func TestDocBookReferenceKeepsItsSections(t *testing.T) {
	md := extractFile(t, "docbook").Content
	want := []string{"## CREATE TABLE", "## Synopsis", "## Description", "## Parameters", "### `INHERITS` and `LIKE`"}
	if got := headingLines(md); !slices.Equal(got, want) {
		t.Errorf("headings %q, want %q in:\n%s", got, want, md)
	}
	if strings.Contains(md, "\n`INHERITS`\n") || strings.Contains(md, "\n`LIKE`\n") {
		t.Errorf("the heading's code spans are also loose paragraphs:\n%s", md)
	}
}

func headingLines(md string) []string {
	var out []string
	for line := range strings.Lines(md) {
		if strings.HasPrefix(line, "#") {
			out = append(out, strings.TrimSpace(line))
		}
	}
	return out
}

// TestLeadingEchoDropped: on a thread in an <article> whose posts sit in
// div.body, go-trafilatura put the first post before the thread's title
// and again after it.
func TestLeadingEchoDropped(t *testing.T) {
	post := func(who, text string) string {
		return `<div class="post"><div class="author">` + who + `</div><div class="body"><p>` + text + `</p></div></div>`
	}
	first := "My project compiles on x86 but on an ARM board the linker stops with an undefined reference to a math function."
	page := `<html><head><title>Forum</title></head><body><article><h1>Why does my build fail on ARM?</h1>` +
		post("alice", first) + post("bob", "On that board the math library is not linked by default. Add -lm at the end of the link line.") +
		`</article></body></html>`
	res, err := extractHTML(t, []byte(page), pageURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(res.Content, first); n != 1 {
		t.Errorf("the first post is in the content %d times:\n%s", n, res.Content)
	}
	if !strings.HasPrefix(res.Content, "# Why does my build fail on ARM?") {
		t.Errorf("the thread's title does not open the content:\n%s", res.Content)
	}
}

func TestDropLeadingEcho(t *testing.T) {
	for _, tc := range []struct {
		name, content string
		dropped       bool
	}{
		{"echo of the block under the heading", `<p>Same words.</p><h1>Title</h1><p>Same words.</p>`, true},
		{"different first block", `<p>Intro.</p><h1>Title</h1><p>Same words.</p>`, false},
		{"no heading between", `<p>Same words.</p><p>Same words.</p>`, false},
		{"a sentence repeated under two headings", `<h2>One</h2><p>Same words.</p><h2>Two</h2><p>Same words.</p>`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := dom.QuerySelector(parsePage(t, "<html><body>"+tc.content+"</body></html>"), "body")
			before := len(dom.Children(body))
			dropLeadingEcho(body)
			if got := len(dom.Children(body)) < before; got != tc.dropped {
				t.Errorf("dropped %v, want %v", got, tc.dropped)
			}
		})
	}
}

// TestTitleWithoutPermalink: a documentation generator's permalink sign
// ended the title go-trafilatura took from the heading.
func TestTitleWithoutPermalink(t *testing.T) {
	page := `<html><head><title>Quokka</title></head><body><h1>Configuration<a class="headerlink" href="#configuration" title="Link to this heading">¶</a></h1>` +
		plainPageParagraphs + `</body></html>`
	res, err := extractHTML(t, []byte(page), pageURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Title != "Configuration" || res.Metadata["title"] != "Configuration" {
		t.Errorf("title %q, metadata title %q, want Configuration", res.Title, res.Metadata["title"])
	}
}

// TestHeadingLevelsKept: go-trafilatura's readability fallback turned a
// changelog's <h1> into an <h2>, the level of its versions.
func TestHeadingLevelsKept(t *testing.T) {
	res := extractFile(t, "changelog")
	want := []string{"# Changelog", "## v2.1.0 (2026-11-20)", "## v2.0.1 (2026-10-02)", "## v2.0.0 (2026-09-15)"}
	if got := headingLines(res.Content); !slices.Equal(got, want) {
		t.Errorf("headings %q, want %q in:\n%s", got, want, res.Content)
	}
}

// TestHeadingMarkersEscaped: a heading that opens as a list item would keeps
// its number when the markdown is read as text line by line (WCXB 0007's
// "## 1. Self-Portraiture" lost its "1" to the scorer).
func TestHeadingMarkersEscaped(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"numbered heading", "## 1. Self-Portraiture", `## 1\. Self-Portraiture`},
		{"parenthesis", "### 12) Setup", `### 12\) Setup`},
		{"bullet", "## - Notes", `## \- Notes`},
		{"number alone", "## 3.", `## 3\.`},
		{"a version is no marker", "## 1.2 Release", "## 1.2 Release"},
		{"a year is no marker", "## 2025 in review", "## 2025 in review"},
		{"paragraph left alone", "1\\. A paragraph", "1\\. A paragraph"},
		{"code left alone", "```\n## 1. not a heading\n```", "```\n## 1. not a heading\n```"},
		{"after code", "```\ncode\n```\n\n## 2. Two", "```\ncode\n```\n\n## 2\\. Two"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := escapeHeadingMarkers(tc.in); got != tc.want {
				t.Errorf("escapeHeadingMarkers(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
	para := `<p>` + strings.Repeat("A paragraph of plain words to make the article long enough to be read. ", 6) + `</p>`
	page := `<html><head><title>Trends</title></head><body><article><h1>Trends</h1>` + para + `<h2>1. Self-Portraiture</h2>` + para + `<h2>2. Authenticity</h2>` + para + `</article></body></html>`
	res, err := extractHTML(t, []byte(page), "https://example.com/trends", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`## 1\. Self-Portraiture`, `## 2\. Authenticity`} {
		if !strings.Contains(res.Content, want) {
			t.Errorf("content lacks %q:\n%s", want, res.Content)
		}
	}
}
