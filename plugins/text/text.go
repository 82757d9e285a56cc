// Package text is the built-in extractor for plain text and markdown (and
// any other text/* type no other extractor claims): it passes the body
// through, decoded to UTF-8 (plugins/internal/charset: the Content-Type's
// charset, a BOM, or detection, with a warning for what it could not
// decode) and under a size cap.
package text

import (
	"context"
	"strings"

	"github.com/siftd/sift/plugins/internal/charset"
	"github.com/siftd/sift/plugins/sdk"
)

// DefaultMaxOutput applies when the request sets no cap.
const DefaultMaxOutput = 1 << 20

// Extractor passes text through.
type Extractor struct{ sdk.NoConfig }

// New returns the text extractor.
func New() sdk.Extractor { return &Extractor{} }

// Info names the media types handled.
func (*Extractor) Info(context.Context) (sdk.Info, error) {
	return sdk.Info{Name: "text", Version: "1.1.0",
		ContentTypes: []string{"text/plain", "text/markdown", "text/*"}}, nil
}

// Extract returns the body as UTF-8 text, cut to the output cap with a
// note.
func (*Extractor) Extract(_ context.Context, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	decoded := charset.Decode(req.Body, req.ContentType)
	format := sdk.FormatText
	if strings.HasPrefix(strings.ToLower(req.ContentType), "text/markdown") {
		format = sdk.FormatMarkdown
	}
	res := &sdk.ExtractResult{Format: format, Warnings: decoded.Warnings}
	if decoded.Charset != "utf-8" {
		res.Metadata = map[string]string{"charset": decoded.Charset}
	}
	var warning string
	if res.Content, warning = sdk.CapOutput(string(decoded.Text), req.MaxOutputBytes, DefaultMaxOutput); warning != "" {
		res.Warnings = append(res.Warnings, warning)
	}
	return res, nil
}

var _ sdk.Extractor = (*Extractor)(nil)
