package firecrawl

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/siftd/sift/plugins/html"
)

func TestPageOptionNames(t *testing.T) {
	t.Parallel()
	if optMainContent != html.OptionMainContent || optIncludeTags != html.OptionIncludeTags || optExcludeTags != html.OptionExcludeTags ||
		optImages != html.OptionImages || optBase64Images != html.OptionBase64Images {
		t.Error("the page options' names differ from the html extractor's")
	}
}

// TestScrapeImageOptions: a scrape asks the html extractor for images
// unless its siftOptions name them (which then ride as the caller's own),
// and removeBase64Images false for base64_images.
func TestScrapeImageOptions(t *testing.T) {
	t.Parallel()
	no, yes := false, true
	for _, tc := range []struct {
		name string
		opts scrapeOptions
		want map[string]string
	}{
		{"default", scrapeOptions{}, map[string]string{"images": "true"}},
		{"removeBase64Images true", scrapeOptions{RemoveBase64Images: &yes}, map[string]string{"images": "true"}},
		{"removeBase64Images false", scrapeOptions{RemoveBase64Images: &no}, map[string]string{"images": "true", "base64_images": "true"}},
		{"siftOptions images false", scrapeOptions{SiftOptions: map[string]json.RawMessage{"images": json.RawMessage("false")}}, map[string]string{"images": "false"}},
		{"siftOptions images true", scrapeOptions{SiftOptions: map[string]json.RawMessage{"images": json.RawMessage(`"true"`)}}, map[string]string{"images": "true"}},
	} {
		req := tc.opts.request("https://a.example/", "")
		if !reflect.DeepEqual(req.Options, tc.want) {
			t.Errorf("%s: options %v, want %v", tc.name, req.Options, tc.want)
		}
	}
}
