// Package json is the built-in extractor for JSON: it validates the
// document, applies an optional JMESPath (json_path) or jq query, and
// pretty-prints the result under a size cap.
package json

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/siftd/sift/plugins/sdk"
)

// Limits on one extraction.
const (
	DefaultMaxOutput = 1 << 20
	// QueryTimeout bounds a jq program; jq can loop forever.
	QueryTimeout = 2 * time.Second
	// MaxQueryResults bounds how many values a jq program may emit.
	MaxQueryResults = 10000
	// MaxResult bounds a jq result before it is encoded: 16 times the
	// default output cap, enough for compaction to have room.
	MaxResult = 16 << 20
)

// Extractor handles application/json and every +json type.
type Extractor struct{ sdk.NoConfig }

// New returns the JSON extractor.
func New() sdk.Extractor { return &Extractor{} }

// Info names the media types handled.
func (*Extractor) Info(context.Context) (sdk.Info, error) {
	return sdk.Info{Name: "json", Version: "1.0.0",
		ContentTypes: []string{"application/json", "text/json", "application/*+json"}}, nil
}

// Schema declares no attributes and the two query options.
func (*Extractor) Schema(context.Context) (sdk.Schema, error) {
	return sdk.Schema{Options: []sdk.Option{
		{Name: "json_path", Type: sdk.TypeString, Description: "a JMESPath expression the document is narrowed to"},
		{Name: "jq", Type: sdk.TypeString, Description: "a jq program the document is narrowed to (bounded in time and values)"},
	}}, nil
}

// Extract validates, queries and pretty-prints one document.
func (*Extractor) Extract(ctx context.Context, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	if err := validate(req.Body); err != nil {
		return nil, err
	}
	out := req.Body
	var err error
	switch path, jq := req.Options["json_path"], req.Options["jq"]; {
	case path != "" && jq != "":
		return nil, sdk.Invalid("give json_path or jq, not both")
	case path != "":
		out, err = jmesPath(req.Body, path)
	case jq != "":
		out, err = runJQ(ctx, req.Body, jq)
	}
	if err != nil {
		return nil, err
	}
	maxOut := req.MaxOutputBytes
	if maxOut <= 0 {
		maxOut = DefaultMaxOutput
	}
	content, warnings := fit(out, maxOut)
	return &sdk.ExtractResult{Content: content, Format: sdk.FormatJSON, Warnings: warnings}, nil
}

// validate reports malformed JSON with its line and column.
func validate(body []byte) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	var v any
	err := dec.Decode(&v)
	if err == nil {
		if _, extra := dec.Token(); extra == nil {
			return sdk.Invalid("malformed JSON at %s: data after the top-level value", position(body, dec.InputOffset()))
		}
		return nil
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		// Offset counts the offending byte as read.
		return sdk.Invalid("malformed JSON at %s: %v", position(body, se.Offset-1), se)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return sdk.Invalid("malformed JSON at %s: %v", position(body, te.Offset), te)
	}
	return sdk.Invalid("malformed JSON at %s: %v", position(body, int64(len(body))), err)
}

// position turns a byte offset into "line L, column C" (1-based).
func position(body []byte, offset int64) string {
	offset = min(max(offset, 0), int64(len(body)))
	before := body[:offset]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(offset) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return fmt.Sprintf("line %d, column %d", line, col)
}

// fit pretty-prints JSON when that fits the cap, falls back to the compact
// form, and cuts as a last resort, saying what it did.
func fit(doc []byte, maxOut int64) (string, []string) {
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, doc, "", "  "); err == nil && int64(pretty.Len()) <= maxOut {
		return pretty.String(), nil
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, doc); err != nil {
		compact.Reset()
		compact.Write(doc)
	}
	if int64(compact.Len()) <= maxOut {
		return compact.String(), []string{"output compacted to fit the size cap"}
	}
	cut, _ := sdk.Truncate(compact.String(), maxOut)
	return cut, []string{fmt.Sprintf("output truncated at %d of %d bytes; the JSON is incomplete — narrow it with json_path or jq",
		len(cut), compact.Len())}
}
