package sdk_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/plugins/sdk/sdktest"
)

// shout is the extractor of the SDK README's example: plain text in upper
// case, at most max_lines lines (a block attribute), or lines (a request
// option).
type shout struct{ maxLines int }

func (s *shout) Info(context.Context) (sdk.Info, error) {
	return sdk.Info{Name: "shout", Version: "0.1.0", ContentTypes: []string{"text/x-shout"}}, nil
}

func (s *shout) Schema(context.Context) (sdk.Schema, error) {
	return sdk.Schema{
		Attributes: []sdk.Attribute{{Name: "max_lines", Type: sdk.TypeInteger, Description: "Lines kept (default 100)."}},
		Options: []sdk.Option{{Name: "lines", Type: sdk.TypeInteger, Min: sdk.Bound(1), Max: sdk.Bound(10000),
			Description: "Lines kept for this request, instead of max_lines."}},
	}, nil
}

func (s *shout) Configure(_ context.Context, raw json.RawMessage) (sdk.Diagnostics, error) {
	cfg := struct {
		MaxLines *int `json:"max_lines"`
	}{}
	if err := json.Unmarshal(raw, &cfg); err != nil {
		return nil, err
	}
	s.maxLines = 100
	if cfg.MaxLines != nil {
		if *cfg.MaxLines < 1 {
			return sdk.Diagnostics{{Severity: sdk.SeverityError, Attribute: "max_lines",
				Summary: "Invalid max_lines", Detail: "max_lines must be at least 1."}}, nil
		}
		s.maxLines = *cfg.MaxLines
	}
	return nil, nil
}

func (s *shout) Extract(_ context.Context, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	if strings.ContainsRune(string(req.Body), 0) {
		return nil, sdk.Invalid("a NUL byte: this is no text")
	}
	n := s.maxLines
	if v, ok := req.Options["lines"]; ok { // checked by sift against the Schema
		n, _ = strconv.Atoi(v)
	}
	lines := strings.SplitAfter(string(req.Body), "\n")
	res := &sdk.ExtractResult{Format: sdk.FormatText}
	if len(lines) > n {
		lines = lines[:n]
		res.Warnings = append(res.Warnings, "cut at "+strconv.Itoa(n)+" lines")
	}
	content, warning := sdk.CapOutput(strings.ToUpper(strings.Join(lines, "")), req.MaxOutputBytes, 1<<20)
	if warning != "" {
		res.Warnings = append(res.Warnings, warning)
	}
	res.Content = content
	return res, nil
}

// TestReadmeExample runs the SDK README's plugin as sift would: its block
// decoded from HCL, a request's option, a bad document.
func TestReadmeExample(t *testing.T) {
	ex := sdktest.ConfiguredExtractor(t, &shout{}, "extractor \"shout\" {\n  max_lines = 2\n}\n")
	res, err := ex.Extract(t.Context(), &sdk.ExtractRequest{Body: []byte("a\nb\nc\n"), ContentType: "text/x-shout"})
	if err != nil || res.Content != "A\nB\n" || len(res.Warnings) != 1 {
		t.Fatalf("max_lines 2: %+v, %v", res, err)
	}
	res, err = ex.Extract(t.Context(), &sdk.ExtractRequest{Body: []byte("a\nb\nc\n"), Options: map[string]string{"lines": "3"}})
	if err != nil || res.Content != "A\nB\nC\n" {
		t.Fatalf("lines 3: %+v, %v", res, err)
	}
	if _, err := ex.Extract(t.Context(), &sdk.ExtractRequest{Body: []byte("a\x00")}); err == nil || !strings.Contains(err.Error(), "invalid: a NUL byte") {
		t.Fatalf("a NUL byte: %v", err)
	}
	if diags := sdktest.Configure(t, &shout{}, "extractor \"shout\" {\n  max_lines = 0\n}\n"); !strings.Contains(diags.Error(), "max_lines must be at least 1") {
		t.Fatalf("max_lines 0: %v", diags)
	}
}
