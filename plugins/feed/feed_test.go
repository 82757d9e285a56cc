package feed

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/siftd/sift/internal/testkit/golden"
	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/plugins/sdk/sdktest"
)

// TestRealFeeds renders feeds Hugo wrote (its own RSS template and one
// with content:encoded), a GitHub-releases-shaped Atom feed and a
// Slashdot-shaped RSS 1.0 feed in ISO-8859-1, through the real plugin
// protocol, against golden markdown.
func TestRealFeeds(t *testing.T) {
	tests := []struct {
		file, contentType, golden, format string
		links                             []string
	}{
		{"hugo-default.rss", "application/rss+xml", "hugo-default.md", "rss",
			[]string{"https://blog.example.org/index.xml", "https://blog.example.org/posts/release-1-2/", "https://blog.example.org/posts/hello/"}},
		{"hugo-content.rss", "text/xml; charset=utf-8", "hugo-content.md", "rss",
			[]string{"https://blog.example.org/index.xml", "https://blog.example.org/posts/release-1-2/", "https://blog.example.org/changelog/",
				"https://docs.example.org/feeds", "https://blog.example.org/posts/hello/"}},
		{"atom-github-releases.atom", "application/atom+xml", "atom.md", "atom",
			[]string{"https://github.com/example/tool/releases", "https://github.com/example/tool/releases/tag/v2.0.0",
				"https://github.com/example/tool/pull/42", "https://github.com/example/tool/releases/tag/v1.9.1"}},
		{"rdf-slashdot.rdf", "application/rdf+xml", "rdf.md", "rss1.0",
			[]string{"https://news.example.net/", "https://news.example.net/story/1", "https://news.example.net/story/2"}},
	}
	ex := sdktest.Extractor(t, New())
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			res, err := ex.Extract(context.Background(), &sdk.ExtractRequest{Body: golden.Testdata(t, tc.file), ContentType: tc.contentType, URL: "https://feeds.example.org/x"})
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", "golden", tc.golden), res.Content)
			if len(res.Warnings) > 0 || res.Metadata["feed_format"] != tc.format || !slices.Equal(res.Links, tc.links) {
				t.Fatalf("warnings %q, metadata %q, links %q", res.Warnings, res.Metadata, res.Links)
			}
		})
	}
}

func TestSafety(t *testing.T) {
	res, err := New().Extract(context.Background(), &sdk.ExtractRequest{Body: golden.Testdata(t, "atom-github-releases.atom"), ContentType: "application/atom+xml"})
	if err != nil {
		t.Fatal(err)
	}
	for _, never := range []string{"base64", "javascript:", "hidden instructions", "<script", "alert"} {
		if strings.Contains(res.Content, never) {
			t.Errorf("content holds %q:\n%s", never, res.Content)
		}
	}
	for _, want := range []string{"badge", "click", "Fixes a crash on **empty** input."} {
		if !strings.Contains(res.Content, want) {
			t.Errorf("content lacks %q:\n%s", want, res.Content)
		}
	}
}

// Entities a document declares are never expanded and external ones
// never read: encoding/xml reads no DTD. A billion laughs is answered at
// once and small; /etc/passwd is not in the answer.
func TestEntitiesNeverExpanded(t *testing.T) {
	for _, file := range []string{"hostile/billion-laughs.rss", "hostile/xxe.rss"} {
		start := time.Now()
		res, err := New().Extract(context.Background(), &sdk.ExtractRequest{Body: golden.Testdata(t, file), ContentType: "application/rss+xml"})
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if took := time.Since(start); took > time.Second || len(res.Content) > 1024 ||
			strings.Contains(res.Content, "lollol") || strings.Contains(res.Content, "root:") {
			t.Fatalf("%s: %v, %d bytes:\n%s", file, took, len(res.Content), res.Content)
		}
	}
}

func TestDeepNesting(t *testing.T) {
	for _, file := range []string{"hostile/deep-markup.rss", "hostile/deep-xml.rss"} {
		start := time.Now()
		res, err := New().Extract(context.Background(), &sdk.ExtractRequest{Body: golden.Testdata(t, file), ContentType: "application/rss+xml"})
		var de *sdk.DocError
		if err != nil && !errors.As(err, &de) {
			t.Fatalf("%s: a plugin failure: %v", file, err)
		}
		if time.Since(start) > 5*time.Second || res != nil && len(res.Content) > DefaultMaxOutput {
			t.Fatalf("%s: took %v", file, time.Since(start))
		}
	}
}

func TestNotFeeds(t *testing.T) {
	for body, class := range map[string]string{
		`<?xml version="1.0"?><catalog/>`: sdk.ClassUnsupported,
		`<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description/></rdf:RDF>`: sdk.ClassUnsupported,
		`<rss><channel><title>x</title><item>`:                                                          sdk.ClassInvalid,
		``:                                                                                              sdk.ClassInvalid,
		`<rss version="2.0"/>`:                                                                          sdk.ClassInvalid,
	} {
		_, err := New().Extract(context.Background(), &sdk.ExtractRequest{Body: []byte(body), ContentType: "application/xml"})
		var de *sdk.DocError
		if !errors.As(err, &de) || de.Class != class {
			t.Errorf("%q: %v, want %s", body, err, class)
		}
	}
}

func TestItemsCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<rss version="2.0"><channel><title>many</title>`)
	for range MaxItems + 5 {
		b.WriteString(`<item><title>t</title></item>`)
	}
	b.WriteString(`</channel></rss>`)
	res, err := New().Extract(context.Background(), &sdk.ExtractRequest{Body: []byte(b.String()), ContentType: "application/rss+xml"})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(res.Content, "## t"); n != MaxItems || !slices.Contains(res.Warnings, "feed cut at 500 of 505 items") {
		t.Fatalf("%d items, warnings %q", n, res.Warnings)
	}
}

// FuzzExtract: any bytes as a feed end as markdown or a document error,
// never a plugin failure.
func FuzzExtract(f *testing.F) {
	for _, name := range []string{"hugo-default.rss", "hugo-content.rss", "atom-github-releases.atom", "rdf-slashdot.rdf",
		"hostile/billion-laughs.rss", "hostile/xxe.rss"} {
		f.Add(golden.Testdata(f, name))
	}
	e := New()
	f.Fuzz(func(t *testing.T, body []byte) {
		_, err := e.Extract(context.Background(), &sdk.ExtractRequest{Body: body, ContentType: "text/xml", URL: "https://a.example/feed"})
		var de *sdk.DocError
		if err != nil && !errors.As(err, &de) {
			t.Fatalf("a plugin failure, not a document error: %v", err)
		}
	})
}
