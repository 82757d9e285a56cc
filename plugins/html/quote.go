package html

import (
	"bytes"
	"regexp"

	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/marker"
	"golang.org/x/net/html"
)

// The markdown converter keeps a code block's line breaks as a marker
// until the end and prefixes a quote's lines with "> " before that, so a
// quoted code block kept "> " on its first line only: its other lines left
// the quote, and the quote's closing fence opened a new code block that
// swallowed the text after it (html-to-markdown issue 183). renderQuotedCode
// renders a blockquote holding a <pre> as the converter does, with the
// marker prefixed too. A list does the same with its indent, so quotes and
// lists nest in either order.
func renderQuotedCode(ctx htmltomarkdown.Context, w htmltomarkdown.Writer, n *html.Node) htmltomarkdown.RenderStatus {
	if n.Data != "blockquote" || !hasElement(n, "pre") {
		return htmltomarkdown.RenderTryNext
	}
	var buf bytes.Buffer
	ctx.RenderChildNodes(ctx, &buf, n)
	content := bytes.TrimSpace(buf.Bytes())
	if len(content) == 0 {
		return htmltomarkdown.RenderSuccess
	}
	content = quoteLines(content)
	w.WriteString("\n\n")
	w.Write(content)
	w.WriteString("\n\n")
	return htmltomarkdown.RenderSuccess
}

var (
	quoteBlankRuns = regexp.MustCompile(`\n[ ]*\n(?:[ ]*\n)+`)
	// hardBreakBeforeBlank is a hard line break ending a paragraph, which
	// breaks nothing.
	hardBreakBeforeBlank = regexp.MustCompile(`  \n[ ]?\n`)
	quotePrefix          = []byte("> ")
	quotedCodeNewline    = append(append([]byte{}, marker.BytesMarkerCodeBlockNewline...), quotePrefix...)
)

// quoteLines is a quote's rendered content with at most one blank line in a
// row, no hard break before a blank line, and "> " before every line, a
// code block's too.
func quoteLines(content []byte) []byte {
	content = quoteBlankRuns.ReplaceAll(content, []byte("\n\n"))
	content = hardBreakBeforeBlank.ReplaceAll(content, []byte("\n\n"))
	content = bytes.ReplaceAll(content, []byte("\n"), []byte("\n> "))
	content = bytes.ReplaceAll(content, marker.BytesMarkerCodeBlockNewline, quotedCodeNewline)
	return append(append([]byte{}, quotePrefix...), content...)
}
