package html

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/siftd/sift/plugins/sdk"
)

// TestLongPreCut: a page whose body is one <pre> four times the output
// cap comes back as the listing's first lines, whole, in a closed fence
// within the cap, with a warning naming the text that was cut; before,
// the whole 4 MB was read (seconds) and only the cap's warning said
// anything.
func TestLongPreCut(t *testing.T) {
	page := prePage(80_000) // 4 MB
	res, err := New().Extract(context.Background(), &sdk.ExtractRequest{Body: page, ContentType: "text/html", URL: "https://example.com/"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Content) > DefaultMaxOutput || len(res.Content) < DefaultMaxOutput-200 {
		t.Errorf("content %d bytes, want a little under %d", len(res.Content), DefaultMaxOutput)
	}
	lines := strings.Split(res.Content, "\n")
	if lines[len(lines)-1] != "```" {
		t.Errorf("last line %q, want the closing fence", lines[len(lines)-1])
	}
	whole := regexp.MustCompile(`^line (\d+) of the listing: x = y \+ (\d+); // a comment$`)
	if m := whole.FindStringSubmatch(lines[len(lines)-2]); m == nil || m[1] != m[2] {
		t.Errorf("the last line of the listing %q is cut", lines[len(lines)-2])
	}
	if !strings.Contains(res.Content, "line 0 of the listing") {
		t.Error("the listing's first line is missing")
	}
	var cut bool
	for _, w := range res.Warnings {
		cut = cut || strings.HasPrefix(w, "a text of 4") && strings.Contains(w, "KB in one element was read up to the output cap")
	}
	if !cut {
		t.Errorf("warnings %q name no text cut", res.Warnings)
	}
}

// TestCutLongTexts: a text node cut after its visible bytes pass the cap,
// blanks not counted; a shorter one, a script's and a style's left whole.
func TestCutLongTexts(t *testing.T) {
	const maxOut = 100
	long := strings.Repeat("abcd ", 40) // 160 visible bytes
	for _, tc := range []struct {
		name, body, want, warning string
	}{
		{"within the cap", "<p>" + strings.Repeat("ab ", 40) + "</p>", strings.Repeat("ab ", 40), ""},
		{"blanks do not count", "<pre>" + strings.Repeat("a\n      ", 90) + "</pre>", strings.Repeat("a\n      ", 90), ""},
		{"cut", "<pre>" + long + "</pre>", long[:100/4*5+1], "a text of 0 KB in one element was read up to the output cap (its first 0 KB); the rest is left out"},
		{"multibyte", "<p>" + strings.Repeat("é", 60) + "</p>", strings.Repeat("é", 51), "a text of 0 KB in one element"},
		{"script", "<script>var s = '" + long + "';</script>", "var s = '" + long + "';", ""},
		{"style", "<style>/* " + long + " */</style>", "/* " + long + " */", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, err := html.Parse(strings.NewReader("<html><head></head><body>" + tc.body + "</body></html>"))
			if err != nil {
				t.Fatal(err)
			}
			warning := cutLongTexts(root, maxOut)
			if !strings.HasPrefix(warning, tc.warning) || (warning == "") != (tc.warning == "") {
				t.Errorf("warning %q, want one starting %q", warning, tc.warning)
			}
			var got string
			walkNodes(root, func(n *html.Node) {
				if n.Type == html.TextNode {
					got += n.Data
				}
			})
			if got != tc.want {
				t.Errorf("text %q (%d bytes), want %q (%d bytes)", got, len(got), tc.want, len(tc.want))
			}
		})
	}
}

// walkNodes calls f on every node under n, n included, in document order.
func walkNodes(n *html.Node, f func(*html.Node)) {
	f(n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walkNodes(c, f)
	}
}
