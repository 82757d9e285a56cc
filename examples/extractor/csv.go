package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/siftd/sift/plugins/sdk"
)

const defaultMaxRows = 500

// csvExtractor renders CSV as a markdown table, the first row as header.
type csvExtractor struct {
	maxRows int
}

func (e *csvExtractor) Info(context.Context) (sdk.Info, error) {
	return sdk.Info{Name: "csv", Version: "0.1.0", ContentTypes: []string{"text/csv"}}, nil
}

func (e *csvExtractor) Schema(context.Context) (sdk.Schema, error) {
	return sdk.Schema{Attributes: []sdk.Attribute{{
		Name: "max_rows", Type: sdk.TypeInteger,
		Description: "Rows rendered before the table is cut (default 500).",
	}}, Options: []sdk.Option{{
		Name: "rows", Type: sdk.TypeInteger, Min: sdk.Bound(1), Max: sdk.Bound(100000),
		Description: "Rows rendered for this request, instead of max_rows.",
	}}}, nil
}

func (e *csvExtractor) Configure(_ context.Context, raw json.RawMessage) (sdk.Diagnostics, error) {
	var cfg struct {
		MaxRows *int `json:"max_rows"`
	}
	if err := json.Unmarshal(raw, &cfg); err != nil {
		return nil, fmt.Errorf("decode config: %w", err)
	}
	if cfg.MaxRows == nil {
		return nil, nil
	}
	if *cfg.MaxRows < 1 {
		return sdk.Diagnostics{{Severity: sdk.SeverityError, Summary: "max_rows must be at least 1", Attribute: "max_rows"}}, nil
	}
	e.maxRows = *cfg.MaxRows
	return nil, nil
}

func (e *csvExtractor) Extract(_ context.Context, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	r := csv.NewReader(bytes.NewReader(req.Body))
	r.FieldsPerRecord = -1 // ragged rows are padded below, not refused
	var rows [][]string
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, sdk.Invalid("malformed CSV: %v", err)
		}
		rows = append(rows, rec)
	}
	if len(rows) == 0 {
		return nil, sdk.Invalid("empty CSV")
	}
	limit := e.maxRows
	if v, ok := req.Options["rows"]; ok {
		// sift has checked it against the declared option: an integer
		// from 1 to 100000.
		n, err := strconv.Atoi(v)
		if err != nil {
			return nil, sdk.BadOption("rows %q: want an integer", v)
		}
		limit = n
	}
	res := &sdk.ExtractResult{Format: sdk.FormatMarkdown}
	if body := len(rows) - 1; body > limit {
		res.Warnings = append(res.Warnings, fmt.Sprintf("table cut at %d of %d rows", limit, body))
		rows = rows[:limit+1]
	}
	res.Content = table(rows)
	return res, nil
}

// table renders rows as a GitHub-flavoured markdown table.
func table(rows [][]string) string {
	width := 0
	for _, r := range rows {
		width = max(width, len(r))
	}
	var b strings.Builder
	for i, r := range rows {
		b.WriteString("|")
		for j := range width {
			cell := ""
			if j < len(r) {
				cell = escape(r[j])
			}
			b.WriteString(" " + cell + " |")
		}
		b.WriteString("\n")
		if i == 0 {
			b.WriteString("|" + strings.Repeat(" --- |", width) + "\n")
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func escape(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.Join(strings.Fields(s), " ")
}
