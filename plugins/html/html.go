// Package html is the built-in extractor for web pages: it removes what a
// reader cannot see, finds the main content with go-trafilatura, and renders
// it as markdown with html-to-markdown, links made absolute.
package html

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"

	"github.com/siftd/sift/plugins/sdk"
)

// DefaultMaxOutput applies when the request sets no cap.
const DefaultMaxOutput = 1 << 20

// Extractor converts HTML pages to markdown. It is safe for concurrent use.
type Extractor struct {
	sdk.NoConfig
	md *htmltomarkdown.Converter
}

// New returns the HTML extractor.
func New() sdk.Extractor {
	return &Extractor{md: htmltomarkdown.NewConverter(htmltomarkdown.WithPlugins(
		base.NewBasePlugin(), commonmark.NewCommonmarkPlugin(), table.NewTablePlugin(),
	))}
}

// Info names the media types handled.
func (*Extractor) Info(context.Context) (sdk.Info, error) {
	return sdk.Info{Name: "html", Version: "1.0.0",
		ContentTypes: []string{"text/html", "application/xhtml+xml"}}, nil
}

// Extract finds the page's main content and renders it as markdown.
func (e *Extractor) Extract(ctx context.Context, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	root, err := parse(req.Body, req.ContentType)
	if err != nil {
		return nil, sdk.Invalid("parse HTML: %v", err)
	}
	removeHidden(root)
	opts := trafilatura.Options{
		EnableFallback: true,
		IncludeLinks:   true,
		HtmlDateMode:   trafilatura.Fast,
	}
	if u, err := url.Parse(req.URL); err == nil && u.IsAbs() {
		opts.OriginalURL = u
	}
	res, err := trafilatura.ExtractDocument(root, opts)
	if err != nil {
		return nil, sdk.Invalid("no main content found: %v", err)
	}
	md, err := e.markdown(ctx, res, req.URL)
	if err != nil {
		return nil, err
	}
	out := &sdk.ExtractResult{Format: sdk.FormatMarkdown, Title: res.Metadata.Title, Metadata: metadata(res.Metadata)}
	maxOut := req.MaxOutputBytes
	if maxOut <= 0 {
		maxOut = DefaultMaxOutput
	}
	var cut bool
	if out.Content, cut = sdk.Truncate(md, maxOut); cut {
		out.Warnings = append(out.Warnings, fmt.Sprintf("output truncated at %d of %d bytes", len(out.Content), len(md)))
	}
	return out, nil
}

// parse decodes the page from its declared or sniffed charset to UTF-8 and
// parses it.
func parse(body []byte, contentType string) (*html.Node, error) {
	r, err := charset.NewReader(bytes.NewReader(body), contentType)
	if err != nil {
		return nil, fmt.Errorf("charset: %w", err)
	}
	return html.Parse(r)
}

var blankRuns = regexp.MustCompile(`\n{3,}`)

func (e *Extractor) markdown(ctx context.Context, res *trafilatura.ExtractResult, pageURL string) (string, error) {
	var parts []string
	for _, n := range []*html.Node{res.ContentNode, res.CommentsNode} {
		if n == nil {
			continue
		}
		b, err := e.md.ConvertNode(n, htmltomarkdown.WithContext(ctx), htmltomarkdown.WithDomain(pageURL))
		if err != nil {
			return "", fmt.Errorf("render markdown: %w", err)
		}
		if s := strings.TrimSpace(string(b)); s != "" {
			parts = append(parts, s)
		}
	}
	return blankRuns.ReplaceAllString(strings.Join(parts, "\n\n"), "\n\n"), nil
}

func metadata(m trafilatura.Metadata) map[string]string {
	out := map[string]string{}
	set := func(k, v string) {
		if v = strings.TrimSpace(v); v != "" {
			out[k] = v
		}
	}
	set("title", m.Title)
	set("author", m.Author)
	set("description", m.Description)
	set("language", m.Language)
	set("site_name", m.Sitename)
	set("url", m.URL)
	if !m.Date.IsZero() {
		out["date"] = m.Date.Format("2006-01-02")
	}
	return out
}

var _ sdk.Extractor = (*Extractor)(nil)
