package testenv

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"

	"github.com/siftd/sift/config"
)

// ShippedBlock returns the text of the shipped configuration's block of
// that type and label (`extractor "html"`), for a test that runs sift as
// it ships; it fails t when there is none.
func ShippedBlock(t testing.TB, typ, label string) string {
	t.Helper()
	f, diags := hclwrite.ParseConfig(config.Default, config.DefaultName, hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("parse the shipped configuration: %v", diags)
	}
	block := f.Body().FirstMatchingBlock(typ, []string{label})
	if block == nil {
		t.Fatalf("the shipped configuration has no %s %q block", typ, label)
	}
	tokens := block.BuildTokens(nil)
	for len(tokens) > 0 && (tokens[0].Type == hclsyntax.TokenComment || tokens[0].Type == hclsyntax.TokenNewline) {
		tokens = tokens[1:] // the comments above the block
	}
	return string(hclwrite.Format(tokens.Bytes()))
}
