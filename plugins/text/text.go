// Package text is the built-in extractor for plain text, markdown and CSV:
// it passes the body through, decoded to UTF-8 and under a size cap.
package text

import (
	"context"
	"strings"
	"unicode/utf8"

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
	return sdk.Info{Name: "text", Version: "1.0.0",
		ContentTypes: []string{"text/plain", "text/markdown", "text/csv", "text/*"}}, nil
}

// Extract returns the body as text, cut to the output cap with a note.
func (*Extractor) Extract(_ context.Context, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	body := string(req.Body)
	if !utf8.ValidString(body) {
		body = strings.ToValidUTF8(body, "\uFFFD")
	}
	format := sdk.FormatText
	if strings.HasPrefix(strings.ToLower(req.ContentType), "text/markdown") {
		format = sdk.FormatMarkdown
	}
	res := &sdk.ExtractResult{Format: format}
	var warning string
	if res.Content, warning = sdk.CapOutput(body, req.MaxOutputBytes, DefaultMaxOutput); warning != "" {
		res.Warnings = append(res.Warnings, warning)
	}
	return res, nil
}

var _ sdk.Extractor = (*Extractor)(nil)
