package firecrawl

import (
	"bytes"
	"fmt"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// markdownHTML renders a document's clean markdown as HTML of its
// structure (headings, lists, GFM tables, links, emphasis, code), for the
// html format of a DOCX, an EPUB, a feed. goldmark leaves out any raw HTML
// the markdown holds (WithUnsafe is not set), so a document cannot smuggle
// markup into the answer.
func markdownHTML(md string) (string, error) {
	var b bytes.Buffer
	gm := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough))
	if err := gm.Convert([]byte(md), &b); err != nil {
		return "", fmt.Errorf("render markdown as html: %w", err)
	}
	return b.String(), nil
}
