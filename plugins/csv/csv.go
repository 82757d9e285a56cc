// Package csv is the built-in extractor for CSV and TSV: the document,
// decoded to UTF-8 (plugins/internal/charset), becomes one markdown table
// whose first row is its header. Rows, columns, cells and the output are
// capped, and every cut is named in a warning; a malformed file is read up
// to the line where it breaks, and a file malformed from its first row is
// refused (invalid).
package csv

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/siftd/sift/plugins/internal/charset"
	"github.com/siftd/sift/plugins/sdk"
)

// Limits on one table.
const (
	// DefaultMaxOutput applies when the request sets no cap.
	DefaultMaxOutput = 1 << 20
	// MaxColumns bounds a row; further fields are left out.
	MaxColumns = 256
	// MaxCell bounds one cell in bytes; a longer cell is cut with "…".
	MaxCell = 2000
	// MaxRows bounds the rows rendered, whatever the output cap.
	MaxRows = 100_000
)

// Extractor renders CSV and TSV as markdown tables. It is safe for
// concurrent use.
type Extractor struct{ sdk.NoConfig }

// New returns the CSV extractor.
func New() sdk.Extractor { return &Extractor{} }

// tsvTypes are the media types whose fields are separated by tabs.
var tsvTypes = []string{"text/tab-separated-values", "text/tsv"}

// Info names the media types handled: the registered ones and the
// unregistered names servers still send.
func (*Extractor) Info(context.Context) (sdk.Info, error) {
	return sdk.Info{Name: "delimited", Version: "1.0.0", ContentTypes: []string{
		"text/csv", "application/csv", "text/x-csv", "application/x-csv",
		"text/comma-separated-values", "text/x-comma-separated-values",
		"text/tab-separated-values", "text/tsv",
	}}, nil
}

// Extract renders one document as a markdown table.
func (*Extractor) Extract(ctx context.Context, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	decoded := charset.Decode(req.Body, req.ContentType)
	comma, text := delimiter(req.ContentType, decoded.Text)
	maxOut := req.MaxOutputBytes
	if maxOut <= 0 {
		maxOut = DefaultMaxOutput
	}
	t, err := read(ctx, text, comma, maxOut)
	if err != nil {
		return nil, err
	}
	res := &sdk.ExtractResult{Format: sdk.FormatMarkdown, Content: t.markdown(),
		Warnings: append(decoded.Warnings, t.warnings()...),
		Metadata: map[string]string{
			"rows": strconv.Itoa(t.total), "columns": strconv.Itoa(t.width),
			"delimiter": string(comma), "charset": decoded.Charset,
		}}
	var warning string
	if res.Content, warning = sdk.CapOutput(res.Content, maxOut, DefaultMaxOutput); warning != "" {
		res.Warnings = append(res.Warnings, warning)
	}
	return res, nil
}

// delimiter returns the field separator of a document, and its text
// without Excel's "sep=" line when it names one. TSV types are tabs;
// otherwise the first record decides among comma, semicolon (European
// spreadsheets' CSV), tab and pipe, comma on a tie.
func delimiter(contentType string, text []byte) (rune, []byte) {
	mt := strings.ToLower(strings.TrimSpace(strings.Split(contentType, ";")[0]))
	for _, t := range tsvTypes {
		if mt == t {
			return '\t', text
		}
	}
	if rest, ok := bytes.CutPrefix(text, []byte("sep=")); ok {
		if line, after, ok := bytes.Cut(rest, []byte("\n")); ok && len(bytes.TrimRight(line, "\r")) == 1 && line[0] < utf8.RuneSelf {
			return rune(line[0]), after
		}
	}
	counts := map[rune]int{}
	quoted := false
	for _, r := range string(text[:min(len(text), 64<<10)]) {
		if r == '"' {
			quoted = !quoted
		}
		if quoted {
			continue
		}
		if r == '\n' {
			break
		}
		counts[r]++
	}
	best := ','
	for _, r := range []rune{';', '\t', '|'} {
		if counts[r] > counts[best] {
			best = r
		}
	}
	return best, text
}

// position formats where a CSV breaks.
func position(line, column int) string { return fmt.Sprintf("line %d, column %d", line, column) }
