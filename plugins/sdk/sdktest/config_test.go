package sdktest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/plugins/sdk/sdktest"
)

// rows is a plugin with an integer, a required string and a check of its
// own in Configure.
type rows struct {
	maxRows int
	sep     string
}

func (*rows) Info(context.Context) (sdk.Info, error) {
	return sdk.Info{Name: "rows", ContentTypes: []string{"text/csv"}}, nil
}

func (*rows) Schema(context.Context) (sdk.Schema, error) {
	return sdk.Schema{Attributes: []sdk.Attribute{
		{Name: "max_rows", Type: sdk.TypeInteger},
		{Name: "separator", Type: sdk.TypeString, Required: true},
	}}, nil
}

func (r *rows) Configure(_ context.Context, raw json.RawMessage) (sdk.Diagnostics, error) {
	var c struct {
		MaxRows   *int   `json:"max_rows"`
		Separator string `json:"separator"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, err
	}
	if c.MaxRows != nil && *c.MaxRows < 1 {
		return sdk.Diagnostics{{Severity: sdk.SeverityError, Summary: "max_rows below 1", Attribute: "max_rows"}}, nil
	}
	if len(c.Separator) != 1 {
		return sdk.Diagnostics{{Severity: sdk.SeverityWarning, Summary: "separator is not one character", Attribute: "separator"}}, nil
	}
	if c.MaxRows != nil {
		r.maxRows = *c.MaxRows
	}
	r.sep = c.Separator
	return nil, nil
}

func (r *rows) Extract(_ context.Context, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	lines := strings.Split(string(req.Body), "\n")
	if r.maxRows > 0 && len(lines) > r.maxRows {
		lines = lines[:r.maxRows]
	}
	return &sdk.ExtractResult{Content: fmt.Sprintf("%s|%s", r.sep, strings.Join(lines, ",")), Format: sdk.FormatText}, nil
}

func TestConfigureFromHCL(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // each diagnostic's text, in order; none for a good block
	}{
		{"block as in config.hcl", `extractor "csv" {
  command   = ["/usr/lib/sift/sift-csv"]
  sha256    = "abc"
  pool      = 2
  max_rows  = 10
  separator = ";"
}`, nil},
		{"bare attributes", "separator = \",\"\n", nil},
		{"a fraction for an integer", "extractor \"csv\" {\n  separator = \",\"\n  max_rows = 2.5\n}\n",
			[]string{"config.hcl:3,14-17: Invalid max_rows; max_rows must be a whole number, not 2.5."}},
		{"a required attribute missing", "extractor \"csv\" {\n  max_rows = 3\n}\n",
			[]string{`config.hcl:1,17-17: Missing required argument; The argument "separator" is required, but no definition was found.`}},
		{"an unknown attribute", "separator = \",\"\nmax_row = 3\n",
			[]string{`config.hcl:2,1-8: Unsupported argument; An argument named "max_row" is not expected here. Did you mean "max_rows"?`}},
		{"the plugin's own error on its attribute", "extractor \"csv\" {\n  separator = \",\"\n  max_rows = 0\n}\n",
			[]string{`config.hcl:3,14-15: extractor "csv": max_rows below 1; `}},
		{"the plugin's warning, bare attributes named by Info", "separator = \"||\"\n",
			[]string{`config.hcl:1,13-17: extractor "rows": separator is not one character; `}},
		{"two blocks", "extractor \"a\" {}\nextractor \"b\" {}\n",
			[]string{"config.hcl:2,1-14: More than one plugin block; give one extractor or digester block"}},
		{"bad syntax", "extractor \"csv\" {\n  max_rows = \n}\n", []string{"config.hcl:2,14-3,1: Invalid expression"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			diags := sdktest.Configure(t, sdktest.Extractor(t, &rows{}), tc.src)
			var got []string
			for _, d := range diags {
				got = append(got, fmt.Sprintf("%s: %s; %s", d.Subject, d.Summary, d.Detail))
			}
			if len(got) != len(tc.want) {
				t.Fatalf("diagnostics %q, want %q", got, tc.want)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tc.want[i]) {
					t.Errorf("diagnostic %d: %q, want %q", i, got[i], tc.want[i])
				}
			}
		})
	}
}

// TestConfiguredExtractor: the configured client extracts with the
// configuration it was given.
func TestConfiguredExtractor(t *testing.T) {
	ex := sdktest.ConfiguredExtractor(t, &rows{}, "extractor \"csv\" {\n  max_rows = 2\n  separator = \";\"\n}\n")
	res, err := ex.Extract(t.Context(), &sdk.ExtractRequest{Body: []byte("a\nb\nc"), ContentType: "text/csv"})
	if err != nil || res.Content != ";|a,b" {
		t.Fatalf("%v %+v, want two rows and the separator", err, res)
	}
}
