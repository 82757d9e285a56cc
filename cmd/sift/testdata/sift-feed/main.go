// Command sift-feed is a small RSS and Atom extractor for sift's tests: it
// claims feeds by their media types and, by sniffing, feeds served as
// generic XML.
package main

import (
	"context"
	"encoding/xml"
	"fmt"
	"strings"

	"github.com/siftd/sift/plugins/sdk"
)

type feed struct{ sdk.NoConfig }

func (feed) Info(context.Context) (sdk.Info, error) {
	return sdk.Info{Name: "feed", Version: "0.2.0",
		ContentTypes: []string{"application/rss+xml", "application/atom+xml"},
		Sniff: []sdk.SniffRule{{
			ContentTypes: []string{"application/xml", "text/xml"},
			RootElements: []string{"rss", "feed"},
		}}}, nil
}

// document holds what both formats share: RSS's channel and items, Atom's
// feed and entries.
type document struct {
	XMLName xml.Name
	Title   string  `xml:"title"`
	Channel channel `xml:"channel"`
	Entries []item  `xml:"entry"`
}

type channel struct {
	Title string `xml:"title"`
	Items []item `xml:"item"`
}

type item struct {
	Title string `xml:"title"`
	Link  link   `xml:"link"`
}

// link is RSS's <link>URL</link> or Atom's <link href="URL"/>.
type link struct {
	Href string `xml:"href,attr"`
	Text string `xml:",chardata"`
}

func (l link) url() string {
	if l.Href != "" {
		return l.Href
	}
	return strings.TrimSpace(l.Text)
}

func (feed) Extract(_ context.Context, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	var d document
	if err := xml.Unmarshal(req.Body, &d); err != nil {
		return nil, sdk.Invalid("not a feed: %v", err)
	}
	title, items := d.Title, d.Entries
	if d.XMLName.Local == "rss" {
		title, items = d.Channel.Title, d.Channel.Items
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", strings.TrimSpace(title))
	for _, it := range items {
		fmt.Fprintf(&b, "- [%s](%s)\n", strings.TrimSpace(it.Title), it.Link.url())
	}
	return &sdk.ExtractResult{Content: b.String(), Format: sdk.FormatMarkdown, Title: strings.TrimSpace(title),
		Metadata: map[string]string{"feed_items": fmt.Sprint(len(items))}}, nil
}

func main() { sdk.Serve(sdk.ServeConfig{Extractor: feed{}}) }
