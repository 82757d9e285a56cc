package builtin

import (
	"context"
	"slices"
	"testing"

	"github.com/siftd/sift/plugins/html"
)

// sift routes to sift-html without starting it, so the media types it
// routes must be the ones the extractor announces.
func TestHTMLCompanionRoutesWhatTheExtractorAnnounces(t *testing.T) {
	info, err := html.New().Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := Companions()["html"].ContentTypes; !slices.Equal(got, info.ContentTypes) {
		t.Fatalf("companion routes %v, the extractor announces %v", got, info.ContentTypes)
	}
}
