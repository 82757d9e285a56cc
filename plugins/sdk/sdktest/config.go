package sdktest

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/plugins/sdk/hclconfig"
)

// Configurable is what Configure configures: an sdk.Extractor or an
// sdk.Digester, the implementation itself or the client Extractor returns.
type Configurable interface {
	Info(ctx context.Context) (sdk.Info, error)
	Schema(ctx context.Context) (sdk.Schema, error)
	Configure(ctx context.Context, config json.RawMessage) (sdk.Diagnostics, error)
}

// ConfigFile is the file name diagnostics of Configure point into.
const ConfigFile = "config.hcl"

// Configure decodes src against p's schema exactly as sift decodes the
// plugin's block, then passes the result to p's Configure, and returns
// every diagnostic, each pointing at its line of src as "config.hcl:3,14-17".
//
// src is the block as an operator writes it in sift's config.hcl
// (`extractor "csv" { … }` or `digester "NAME" { … }`), or just the
// attributes inside it. sift's own attributes of the block (command,
// sha256, pool, …; hclconfig.SiftAttributes) are skipped: `sift validate`
// checks those. A failure of the protocol itself fails the test.
func Configure(t testing.TB, p Configurable, src string) hcl.Diagnostics {
	t.Helper()
	ctx := context.Background()
	name, body, def, diags := pluginBody(src)
	if diags.HasErrors() {
		return diags
	}
	if name == "" {
		info, err := p.Info(ctx)
		if err != nil {
			t.Fatalf("sdktest: info: %v", err)
		}
		name = info.Name
	}
	schema, err := p.Schema(ctx)
	if err != nil {
		t.Fatalf("sdktest: schema: %v", err)
	}
	cfg, ds := hclconfig.Decode(body, schema)
	if diags = append(diags, ds...); diags.HasErrors() {
		return diags
	}
	pds, err := p.Configure(ctx, cfg)
	if err != nil {
		t.Fatalf("sdktest: configure: %v", err)
	}
	return append(diags, hclconfig.PluginDiagnostics(name, body, def, pds)...)
}

// ConfiguredExtractor serves impl as Extractor does and configures it with
// src as Configure does; an error among the diagnostics fails the test,
// naming its line.
func ConfiguredExtractor(t testing.TB, impl sdk.Extractor, src string) sdk.Extractor {
	t.Helper()
	ex := Extractor(t, impl)
	if diags := Configure(t, ex, src); diags.HasErrors() {
		t.Fatalf("sdktest: the configuration is refused: %v", diags)
	}
	return ex
}

// ConfiguredDigester is ConfiguredExtractor's counterpart for digesters.
func ConfiguredDigester(t testing.TB, impl sdk.Digester, src string) sdk.Digester {
	t.Helper()
	dg := Digester(t, impl)
	if diags := Configure(t, dg, src); diags.HasErrors() {
		t.Fatalf("sdktest: the configuration is refused: %v", diags)
	}
	return dg
}

// pluginBody parses src and returns the plugin's part of it: the body of
// its extractor or digester block, or the whole file when src holds bare
// attributes, with sift's own attributes hidden. name is the block's
// label, "" for bare attributes.
func pluginBody(src string) (name string, body hcl.Body, def hcl.Range, diags hcl.Diagnostics) {
	file, diags := hclsyntax.ParseConfig([]byte(src), ConfigFile, hcl.InitialPos)
	if diags.HasErrors() {
		return "", nil, hcl.Range{}, diags
	}
	body, def = file.Body, file.Body.MissingItemRange()
	blocks, rest, ds := file.Body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
		{Type: "extractor", LabelNames: []string{"name"}},
		{Type: "digester", LabelNames: []string{"name"}},
	}})
	if diags = append(diags, ds...); diags.HasErrors() {
		return "", nil, hcl.Range{}, diags
	}
	switch len(blocks.Blocks) {
	case 0:
	case 1:
		b := blocks.Blocks[0]
		attrs, _ := rest.JustAttributes()
		for _, a := range attrs {
			return "", nil, hcl.Range{}, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Attribute outside the block",
				Detail: "give the plugin's block alone, or only the attributes inside it", Subject: a.NameRange.Ptr()}}
		}
		name, body, def = b.Labels[0], b.Body, b.DefRange
	default:
		return "", nil, hcl.Range{}, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "More than one plugin block",
			Detail: "give one extractor or digester block", Subject: blocks.Blocks[1].DefRange.Ptr()}}
	}
	var sift []hcl.AttributeSchema
	for _, a := range hclconfig.SiftAttributes {
		sift = append(sift, hcl.AttributeSchema{Name: a})
	}
	_, body, ds = body.PartialContent(&hcl.BodySchema{Attributes: sift})
	return name, body, def, append(diags, ds...)
}
