// Package feed is the built-in extractor for RSS 0.9x and 2.0, RSS 1.0
// (RDF) and Atom 1.0 feeds, served as their own media types or, sniffed by
// their root element, as text/xml or application/xml: the feed's title and
// description, then each item under a heading with its date, its link and
// its summary or content, HTML converted to markdown. README.md says why
// encoding/xml rather than a feed library.
package feed

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"

	"github.com/siftd/sift/plugins/internal/charset"
	"github.com/siftd/sift/plugins/sdk"
)

// Limits on one feed.
const (
	// DefaultMaxOutput applies when the request sets no cap.
	DefaultMaxOutput = 1 << 20
	// MaxItems bounds the items rendered; a feed's newest come first.
	MaxItems = 500
	// MaxSummary bounds one item's text in bytes of markdown.
	MaxSummary = 8 << 10
)

// Extractor renders feeds as markdown. It is safe for concurrent use.
type Extractor struct {
	sdk.NoConfig
	md *htmltomarkdown.Converter
}

// New returns the feed extractor.
func New() sdk.Extractor {
	return &Extractor{md: htmltomarkdown.NewConverter(htmltomarkdown.WithPlugins(
		base.NewBasePlugin(), commonmark.NewCommonmarkPlugin(commonmark.WithListEndComment(false))))}
}

// Info names the feed media types, and claims feeds served as generic XML
// by their root element.
func (*Extractor) Info(context.Context) (sdk.Info, error) {
	return sdk.Info{Name: "feeds", Version: "1.0.0",
		ContentTypes: []string{"application/rss+xml", "application/atom+xml", "application/rdf+xml", "application/x-rss+xml"},
		Sniff: []sdk.SniffRule{{
			ContentTypes: []string{"text/xml", "application/xml"},
			RootElements: []string{"rss", "feed", "RDF"},
		}}}, nil
}

// Extract parses one feed and renders it.
func (e *Extractor) Extract(ctx context.Context, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	decoded := charset.DecodeXML(req.Body, req.ContentType)
	doc, err := parse(decoded.Text)
	if err != nil {
		return nil, err
	}
	f, err := normalise(doc)
	if err != nil {
		return nil, err
	}
	r := &renderer{md: e.md, links: sdk.NewLinks(req.URL), base: req.URL}
	content, warnings := r.render(ctx, f)
	res := &sdk.ExtractResult{Format: sdk.FormatMarkdown, Title: f.title, Links: r.links.List(),
		Warnings: append(decoded.Warnings, warnings...),
		Metadata: map[string]string{"feed_format": f.format, "items": fmt.Sprint(len(f.items))}}
	if r.links.Dropped > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%d links past the first %d left out of links", r.links.Dropped, sdk.MaxLinks))
	}
	var warning string
	if res.Content, warning = sdk.CapOutput(content, req.MaxOutputBytes, DefaultMaxOutput); warning != "" {
		res.Warnings = append(res.Warnings, warning)
	}
	return res, nil
}

// parse reads the XML. The decoder is encoding/xml's, which reads no DTD:
// an entity a document declares (a billion laughs, an external file) is
// never expanded or fetched. Strict is off so that HTML's named entities
// (&nbsp;, common in feeds) read as their characters and an unknown one
// stays as written.
func parse(text []byte) (*document, error) {
	d := xml.NewDecoder(bytes.NewReader(text))
	d.Strict = false
	d.Entity = xml.HTMLEntity
	d.CharsetReader = func(label string, _ io.Reader) (io.Reader, error) {
		// DecodeXML made the text UTF-8 and its declaration say so.
		return nil, fmt.Errorf("charset %q left after decoding", label)
	}
	var doc document
	if err := d.Decode(&doc); err != nil {
		var se *xml.SyntaxError
		if errors.As(err, &se) {
			return nil, sdk.Invalid("malformed feed XML at line %d: %s", se.Line, se.Msg)
		}
		if errors.Is(err, io.EOF) {
			return nil, sdk.Invalid("no XML document")
		}
		return nil, sdk.Invalid("malformed feed XML: %v", err)
	}
	return &doc, nil
}

// feed is what the three formats share.
type feed struct {
	format, title, link, updated string
	description                  text
	items                        []item
}

// normalise maps a parsed root onto a feed, or refuses XML that is none.
func normalise(doc *document) (*feed, error) {
	f := &feed{}
	switch strings.ToLower(doc.XMLName.Local) {
	case "rss":
		if doc.Channel == nil {
			return nil, sdk.Invalid("an RSS document without a channel")
		}
		f.format = "rss"
		f.items = doc.Channel.Items
		f.title, f.description, f.link = cleanText(doc.Channel.Title), doc.Channel.Description, pageURL(doc.Channel.Links, guid{}, "")
	case "rdf":
		if doc.Channel == nil {
			return nil, sdk.Unsupported("an RDF document that is no RSS 1.0 feed (it has no channel)")
		}
		f.format = "rss1.0"
		f.items = doc.Items
		f.title, f.description, f.link = cleanText(doc.Channel.Title), doc.Channel.Description, pageURL(doc.Channel.Links, guid{}, "")
	case "feed":
		f.format = "atom"
		f.items = doc.Entries
		f.title, f.description, f.link, f.updated = cleanText(doc.Title), doc.Subtitle, pageURL(doc.Links, guid{}, ""), doc.Updated
	default:
		return nil, sdk.Unsupported("XML whose root is <%s>, not a feed", doc.XMLName.Local)
	}
	return f, nil
}

// cleanText is a title as one line: plain text in RSS, and markup only
// where Atom says so (type="html" or "xhtml").
func cleanText(t text) string {
	s := t.Chars
	switch strings.ToLower(t.Type) {
	case "html", "text/html", "xhtml", "application/xhtml+xml":
		h, _ := t.html()
		s = stripTags(h)
	}
	return strings.Join(strings.Fields(s), " ")
}
