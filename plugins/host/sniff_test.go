package host

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/siftd/sift/plugins/sdk"
)

// xmlText is a built-in standing for sift's generic extractors: it claims
// text/* and application/xml.
type xmlText struct{ sdk.NoConfig }

func (xmlText) Info(context.Context) (sdk.Info, error) {
	return sdk.Info{Name: "text", ContentTypes: []string{"text/*", "application/xml"}}, nil
}

func (xmlText) Extract(context.Context, *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	return &sdk.ExtractResult{Content: "generic", Format: sdk.FormatText}, nil
}

// TestSniffRoutesFeedsServedAsXML: an external plugin's sniff rule takes
// the documents it claims from the generic built-in, one document at a
// time, through a real plugin process; any other document of the same
// type, and any type the rule does not sniff, is routed as before.
func TestSniffRoutesFeedsServedAsXML(t *testing.T) {
	self := testSpec(t, "").Command[0]
	t.Setenv(envTestSniff, "")
	specs, diags := planBlocks(t, fmt.Sprintf(`
extractor "text" { isolation = "none" }
extractor "feed" {
  command = [%q]
  sha256  = %q
  env     = [%q]
}`, self, testFileSHA256(t, self), envTestSniff), Builtins{"text": func() sdk.Extractor { return xmlText{} }})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	specs = slices.DeleteFunc(specs, func(s Spec) bool { return s.Companion })
	h, diags := Start(t.Context(), specs, Options{Stderr: io.Discard})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	t.Cleanup(h.Close)
	rss := `<?xml version="1.0"?>` + "\n<!-- feed -->\n" + `<rss version="2.0"><channel><title>t</title></channel></rss>`
	tests := []struct {
		mediaType, body, want, content string
	}{
		{"text/xml", rss, "feed", "echo: " + rss},
		{"application/xml", rss, "feed", "echo: " + rss},
		{"text/xml", `<svg xmlns="http://www.w3.org/2000/svg"/>`, "text", "generic"},
		{"application/xml", `<catalog/>`, "text", "generic"},
		{"text/plain", rss, "text", "generic"}, // not a type the rule sniffs
		{"text/x-test", "hi", "feed", "echo: hi"},
	}
	for _, tc := range tests {
		name, ex, ok := h.RouteDocument(tc.mediaType, "", []byte(tc.body))
		if !ok || name != tc.want {
			t.Errorf("RouteDocument(%s, %.20q) = %q, want %q", tc.mediaType, tc.body, name, tc.want)
			continue
		}
		if spec, _ := RouteSpecDocument(specs, tc.mediaType, "", []byte(tc.body)); spec != tc.want {
			t.Errorf("RouteSpecDocument(%s, %.20q) = %q, want %q", tc.mediaType, tc.body, spec, tc.want)
		}
		res, err := ex.Extract(t.Context(), &sdk.ExtractRequest{Body: []byte(tc.body), ContentType: tc.mediaType})
		if err != nil || res.Content != tc.content {
			t.Errorf("%s %.20q: %v %+v, want %q", tc.mediaType, tc.body, err, res, tc.content)
		}
	}
	if name, _, _ := h.Route("text/xml"); name != "text" {
		t.Errorf("Route(text/xml), without the document, = %q, want the generic text", name)
	}
}

// TestBadSniffRuleIsRefused: a rule the host cannot run is refused when
// the configuration is checked, on the plugin's block.
func TestBadSniffRuleIsRefused(t *testing.T) {
	self := testSpec(t, "").Command[0]
	t.Setenv(envTestSniff, "(unclosed")
	_, diags := planBlocks(t, fmt.Sprintf(`
extractor "feed" {
  command = [%q]
  sha256  = %q
  env     = [%q]
}`, self, testFileSHA256(t, self), envTestSniff), nil)
	msg := diags.Error()
	for _, want := range []string{"test.hcl:2", "sniff rule 1", "sniff pattern", "missing closing )"} {
		if !strings.Contains(msg, want) {
			t.Errorf("diagnostics %q do not say %q", msg, want)
		}
	}
}
