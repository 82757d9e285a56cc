package html

import (
	"errors"
	"strings"
	"testing"

	"github.com/siftd/sift/plugins/sdk"
)

// htmlPage has links in the article (relative, to a fragment, to a
// script), an image, and chrome and hidden text around it.
var htmlPage = []byte(`<html><head><title>Garden notes</title><style>.x{}</style></head><body>
<header><nav><a href="/">Home</a> <a href="/shop">Shop the seeds</a></nav></header>
<main><article><h1>Watering</h1>` + strings.Repeat(`<p>Water the beds early in the morning so the roots drink before the sun rises high.</p>`, 8) + `
<p>See the <a href="/guide/drip">drip <b>guide</b></a>, the <a href="#top">top</a> and <a href="javascript:go()">this</a>.</p>
<p><img src="img/hose.png" alt="A hose" onclick="track()"> A hose on the lawn.</p>
<div class="tip">Tip: mulch keeps the soil damp.<span style="display:none">Secret hidden words.</span></div>
<script>var tracking = 1;</script></article></main>
<footer><p>Copyright the garden club.</p></footer>
</body></html>`)

// TestContentHTML: the html option returns, beside the markdown, the
// content the markdown is made from as HTML: its links and images
// absolute, scripts, styles, event handlers and what no reader sees gone,
// the chrome left out; only_main_content false and the tag options choose
// its part as they do the markdown's. Without the option there is none.
func TestContentHTML(t *testing.T) {
	tests := []struct {
		name       string
		opts       map[string]string
		kept, gone []string
	}{
		{"main content", map[string]string{sdk.OptionHTML: "true"},
			[]string{`<a href="https://garden.example/guide/drip">drip <b>guide</b></a>`,
				"<h1>Watering</h1>", "<p>Water the beds early", "mulch keeps the soil damp"},
			[]string{"Secret hidden words", "tracking", ".x{}", "onclick", "javascript:", "Shop the seeds", "Copyright", "\uE001", "\uE000"}},
		{"whole page", map[string]string{sdk.OptionHTML: "true", OptionMainContent: "false"},
			[]string{`<a href="https://garden.example/shop">Shop the seeds</a>`, `src="https://garden.example/notes/img/hose.png"`, "Copyright the garden club", "Water the beds early"},
			[]string{"Secret hidden words", "tracking", ".x{}", "onclick"}},
		{"exclude", map[string]string{sdk.OptionHTML: "true", OptionExcludeTags: ".tip"},
			[]string{"Water the beds early"}, []string{"mulch keeps"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := extractHTML(t, htmlPage, "https://garden.example/notes/", tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			checkText(t, res.HTML, tc.kept, tc.gone)
			if !strings.Contains(res.Content, "Water the beds early") || strings.Contains(res.Content, "<p>") {
				t.Errorf("markdown changed:\n%s", res.Content)
			}
		})
	}
	res, err := extractHTML(t, htmlPage, "https://garden.example/notes/", nil)
	if err != nil || res.HTML != "" {
		t.Errorf("html without the option: %q, %v", res.HTML, err)
	}
	_, err = extractHTML(t, htmlPage, "https://garden.example/notes/", map[string]string{sdk.OptionHTML: "yes"})
	var de *sdk.DocError
	if !errors.As(err, &de) || de.Class != sdk.ClassBadOption {
		t.Errorf("html %q: %v, want bad_option", "yes", err)
	}
}
