package firecrawl

import (
	"testing"

	"github.com/siftd/sift/plugins/html"
)

func TestPageOptionNames(t *testing.T) {
	t.Parallel()
	if optMainContent != html.OptionMainContent || optIncludeTags != html.OptionIncludeTags || optExcludeTags != html.OptionExcludeTags {
		t.Error("the page options' names differ from the html extractor's")
	}
}
