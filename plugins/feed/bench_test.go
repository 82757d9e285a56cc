package feed

import (
	"context"
	"testing"

	"github.com/siftd/sift/internal/testkit/golden"
	"github.com/siftd/sift/plugins/sdk"
)

// BenchmarkExtract renders each test feed and the hostile ones.
func BenchmarkExtract(b *testing.B) {
	e := New()
	for _, name := range []string{"hugo-content.rss", "atom-github-releases.atom", "rdf-slashdot.rdf",
		"hostile/billion-laughs.rss", "hostile/deep-markup.rss", "hostile/deep-xml.rss"} {
		body := golden.Testdata(b, name)
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				_, _ = e.Extract(context.Background(), &sdk.ExtractRequest{Body: body, ContentType: "application/rss+xml"})
			}
		})
	}
}
