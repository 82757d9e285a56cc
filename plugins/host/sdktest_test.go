package host

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/plugins/sdk/sdktest"
)

// rowsPlugin has an integer and a required attribute, and a check of its
// own in Configure.
type rowsPlugin struct{}

func (rowsPlugin) Info(context.Context) (sdk.Info, error) {
	return sdk.Info{Name: "rows", ContentTypes: []string{"text/x-rows"}}, nil
}

func (rowsPlugin) Schema(context.Context) (sdk.Schema, error) {
	return sdk.Schema{Attributes: []sdk.Attribute{
		{Name: "max_rows", Type: sdk.TypeInteger},
		{Name: "separator", Type: sdk.TypeString, Required: true},
	}}, nil
}

func (rowsPlugin) Configure(_ context.Context, raw json.RawMessage) (sdk.Diagnostics, error) {
	var c struct {
		MaxRows *int `json:"max_rows"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, err
	}
	if c.MaxRows != nil && *c.MaxRows < 1 {
		return sdk.Diagnostics{{Severity: sdk.SeverityError, Summary: "max_rows below 1", Attribute: "max_rows"}}, nil
	}
	return nil, nil
}

func (rowsPlugin) Extract(context.Context, *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	return &sdk.ExtractResult{}, nil
}

// TestSDKTestConfigureGivesSiftsDiagnostics: a plugin author's test that
// passes a block to sdktest.Configure gets, word for word and line for
// line, the diagnostics sift gives for that block in its config.hcl.
func TestSDKTestConfigureGivesSiftsDiagnostics(t *testing.T) {
	blocks := []string{
		"extractor \"rows\" {\n  isolation = \"none\"\n  separator = \",\"\n  max_rows  = 2.5\n}\n",
		"extractor \"rows\" {\n  pool     = 1\n  max_rows = 3\n}\n",
		"extractor \"rows\" {\n  separator = \",\"\n  max_row   = 3\n}\n",
		"extractor \"rows\" {\n  separator = \",\"\n  max_rows  = 0\n}\n",
		"extractor \"rows\" {\n  separator = [\",\"]\n}\n",
		"extractor \"rows\" {\n  separator = \";\"\n  max_rows  = 7\n}\n",
	}
	format := func(ds []string) string { return fmt.Sprintf("%q", ds) }
	for i, src := range blocks {
		cfg, diags := config.Parse([]byte(src), sdktest.ConfigFile)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		specs, diags := Plan(t.Context(), cfg.Extractors, Builtins{"rows": func() sdk.Extractor { return rowsPlugin{} }}, nil, 1<<20)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		var spec *Spec
		for i := range specs {
			if specs[i].Name == "rows" {
				spec = &specs[i]
			}
		}
		_, sift := Configure(t.Context(), spec)
		author := sdktest.Configure(t, rowsPlugin{}, src)
		var siftText, authorText []string
		for _, d := range sift {
			siftText = append(siftText, fmt.Sprintf("%s: %s; %s", d.Subject, d.Summary, d.Detail))
		}
		for _, d := range author {
			authorText = append(authorText, fmt.Sprintf("%s: %s; %s", d.Subject, d.Summary, d.Detail))
		}
		if bad := i < len(blocks)-1; bad != sift.HasErrors() {
			t.Errorf("block\n%s\nsift says %s, want errors: %v", src, format(siftText), bad)
		}
		if format(siftText) != format(authorText) {
			t.Errorf("block\n%s\nsift says    %s\nsdktest says %s", src, format(siftText), format(authorText))
		}
	}
}
