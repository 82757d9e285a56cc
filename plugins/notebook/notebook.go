// Package notebook is the built-in extractor for Jupyter notebooks
// (nbformat 4): markdown cells as markdown, code cells as code fenced in
// the kernel's language with their outputs bounded (text kept and cut with
// a note, images named, never inlined), raw cells fenced. It claims
// application/x-ipynb+json, and application/json or text/plain (GitHub's
// raw files) whose start is a notebook's.
package notebook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/siftd/sift/plugins/sdk"
)

// Limits on one notebook.
const (
	// DefaultMaxOutput applies when the request sets no cap.
	DefaultMaxOutput = 1 << 20
	// MaxCells bounds the cells rendered.
	MaxCells = 2000
	// MaxOutputText bounds the text of one cell's outputs, in bytes.
	MaxOutputText = 2 << 10
)

// sniff matches the start of a notebook: the key order nbformat writes
// (sorted: "cells" first, its first cell's first key "attachments" or
// "cell_type"), or "nbformat" and "cells" both near the start in any
// order, as other writers put them.
const sniff = `(?s)^\s*\{(\s*"cells"\s*:\s*\[\s*(\]|\{\s*"(attachments|cell_type)"\s*:)|.*"nbformat"\s*:\s*\d.*"cells"\s*:\s*\[|.*"cells"\s*:\s*\[.*"nbformat"\s*:\s*\d)`

// Extractor renders notebooks. It is safe for concurrent use.
type Extractor struct{ sdk.NoConfig }

// New returns the notebook extractor.
func New() sdk.Extractor { return &Extractor{} }

// Info names the notebook media type and claims notebooks served as JSON
// or plain text.
func (*Extractor) Info(context.Context) (sdk.Info, error) {
	return sdk.Info{Name: "notebook", Version: "1.0.0",
		ContentTypes: []string{"application/x-ipynb+json"},
		Sniff:        []sdk.SniffRule{{ContentTypes: []string{"application/json", "text/plain"}, Pattern: sniff}}}, nil
}

// Extract renders one notebook.
func (*Extractor) Extract(ctx context.Context, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	nb, err := parse(req.Body)
	if err != nil {
		return nil, err
	}
	r := &renderer{lang: nb.language(), links: sdk.NewLinks(req.URL)}
	content := r.render(ctx, *nb.Cells)
	res := &sdk.ExtractResult{Format: sdk.FormatMarkdown, Title: nb.Metadata.Title, Links: r.links.List(),
		Warnings: r.warnings(len(*nb.Cells)),
		Metadata: map[string]string{"language": r.lang, "cells": fmt.Sprint(len(*nb.Cells)),
			"nbformat": fmt.Sprintf("%d.%d", nb.NBFormat, nb.NBFormatMinor)}}
	var warning string
	if res.Content, warning = sdk.CapOutput(content, req.MaxOutputBytes, DefaultMaxOutput); warning != "" {
		res.Warnings = append(res.Warnings, warning)
	}
	return res, nil
}

// parse decodes a notebook, refusing JSON that is none (encoding/json
// bounds nesting at 10,000 levels) and other nbformat versions.
func parse(body []byte) (*notebook, error) {
	var nb notebook
	if err := json.Unmarshal(body, &nb); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, sdk.Invalid("malformed notebook JSON at byte %d: %v", se.Offset, err)
		}
		return nil, sdk.Invalid("not an nbformat 4 notebook: %v", err)
	}
	switch {
	case nb.NBFormat == 0 && nb.Cells == nil:
		return nil, sdk.Invalid("not a Jupyter notebook: no nbformat and no cells")
	case nb.NBFormat != 0 && nb.NBFormat < 4:
		return nil, sdk.Unsupported("nbformat %d notebook: sift reads nbformat 4 (jupyter nbconvert --to notebook upgrades it)", nb.NBFormat)
	case nb.Cells == nil:
		return nil, sdk.Invalid("not an nbformat 4 notebook: no cells")
	}
	return &nb, nil
}
