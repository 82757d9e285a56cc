package html

import (
	"strings"
	"testing"

	"github.com/go-shiori/dom"
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
