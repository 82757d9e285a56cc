package html

import (
	"errors"
	"strings"
	"testing"

	"github.com/siftd/sift/plugins/sdk"
)

// optionsPage has chrome, a main article long enough to be found, a
// sidebar and what no reader sees.
var optionsPage = []byte(`<html><head><title>Garden notes</title><style>.x{}</style></head><body>
<header><nav><a href="/">Home</a> <a href="/shop">Shop the seeds</a></nav></header>
<main><article><h1>Watering</h1>` + strings.Repeat(`<p>Water the beds early in the morning so the roots drink before the sun rises high.</p>`, 8) + `
<p class="ad">Buy our hose today.</p>
<div class="tip">Tip: mulch keeps the soil damp.</div></article></main>
<aside class="related"><p>Related: composting for beginners.</p></aside>
<div style="display:none">Secret hidden words.</div>
<script>var tracking = 1;</script>
<footer><p>Copyright the garden club.</p></footer>
</body></html>`)

// TestPageOptions: only_main_content false renders the whole visible page
// (navigation and footer included, hidden text and scripts still gone);
// exclude_tags removes elements before extraction and include_tags keeps
// only the elements it names.
func TestPageOptions(t *testing.T) {
	tests := []struct {
		name       string
		opts       map[string]string
		kept, gone []string
	}{
		{"main content", nil,
			[]string{"Water the beds early"}, []string{"Copyright the garden club", "Secret hidden words", "tracking"}},
		{"whole page", map[string]string{OptionMainContent: "false"},
			[]string{"Shop the seeds", "Water the beds early", "composting for beginners", "Copyright the garden club"},
			[]string{"Secret hidden words", "tracking", ".x{}"}},
		{"exclude", map[string]string{OptionExcludeTags: ".ad\n.tip"},
			[]string{"Water the beds early"}, []string{"Buy our hose", "mulch keeps"}},
		{"exclude on the whole page", map[string]string{OptionMainContent: "false", OptionExcludeTags: "nav\nfooter"},
			[]string{"composting for beginners", "Water the beds early"}, []string{"Shop the seeds", "Copyright the garden club"}},
		{"include", map[string]string{OptionIncludeTags: ".tip\naside", OptionMainContent: "false"},
			[]string{"mulch keeps the soil damp", "composting for beginners"}, []string{"Water the beds early", "Shop the seeds", "Copyright"}},
		{"include nested", map[string]string{OptionIncludeTags: "article\n.tip", OptionMainContent: "false"},
			[]string{"Water the beds early", "mulch keeps the soil damp"}, []string{"composting", "Shop the seeds"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := extractHTML(t, optionsPage, "https://garden.example/notes", tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			checkText(t, res.Content, tc.kept, tc.gone)
			if strings.Count(res.Content, "mulch keeps") > 1 {
				t.Errorf("an element kept twice:\n%s", res.Content)
			}
			if res.Title != "Watering" && res.Title != "Garden notes" {
				t.Errorf("title %q", res.Title)
			}
		})
	}
}

// TestIncludeTagsMatchingNothing: include_tags that match nothing warn,
// and a malformed only_main_content is a bad_option.
func TestIncludeTagsMatchingNothing(t *testing.T) {
	res, err := extractHTML(t, optionsPage, "", map[string]string{OptionIncludeTags: "#none"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(res.Warnings, " "), "includeTags matched no element") {
		t.Errorf("warnings %v", res.Warnings)
	}
	_, err = extractHTML(t, optionsPage, "", map[string]string{OptionMainContent: "maybe"})
	if de, ok := errors.AsType[*sdk.DocError](err); !ok || de.Class != sdk.ClassBadOption {
		t.Errorf("only_main_content maybe: %v", err)
	}
}
