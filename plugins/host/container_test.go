package host

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/siftd/sift/plugins/sdk"
)

// magicText is a built-in that recognises documents starting "%TEST-".
type magicText struct{ xmlText }

func (magicText) Info(context.Context) (sdk.Info, error) {
	return sdk.Info{Name: "text", ContentTypes: []string{"text/*"},
		Containers: []sdk.ContainerRule{{MediaType: "application/x-magic", Extensions: []string{"magic"}, Magic: "%TEST-"}}}, nil
}

func (magicText) Extract(_ context.Context, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	return &sdk.ExtractResult{Content: "text as " + req.ContentType, Format: sdk.FormatText}, nil
}

func zipOf(t *testing.T, names ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, n := range names {
		f, err := w.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(f, "entry %s %s", n, strings.Repeat("padding ", 500))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestContainerRulesRouteGenericTypes: a document served with a generic
// type goes to the plugin whose container rule recognises it, through a
// real plugin process, which receives the recognised type; a declared
// type is routed by itself, and the URL's extension breaks a tie only; a
// generic type no rule claims is routed as what its bytes or extension
// show.
func TestContainerRulesRouteGenericTypes(t *testing.T) {
	self := testSpec(t, "").Command[0]
	t.Setenv(envTestContainer, "test/main.xml")
	specs, diags := planBlocks(t, fmt.Sprintf(`
extractor "text" { isolation = "none" }
extractor "tzip" {
  command = [%q]
  sha256  = %q
  env     = [%q]
}`, self, testFileSHA256(t, self), envTestContainer), Builtins{"text": func() sdk.Extractor { return magicText{} }})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	specs = slices.DeleteFunc(specs, func(s Spec) bool { return s.Companion })
	h, diags := Start(t.Context(), specs, Options{Stderr: io.Discard})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	t.Cleanup(h.Close)
	ours := zipOf(t, "thumbnail.jpeg", "other.xml", "test/main.xml")
	polyglot := append([]byte("%TEST-1\n"), ours...)
	tests := []struct {
		name, mediaType, url string
		body                 []byte
		want, content        string
	}{
		{"octet-stream, main part last", "application/octet-stream", "", ours, "tzip", "type: application/x-test-zip"},
		{"binary/octet-stream", "binary/octet-stream", "", ours, "tzip", "type: application/x-test-zip"},
		{"application/zip", "application/zip", "https://example.com/get?id=1", ours, "tzip", "type: application/x-test-zip"},
		{"no type", "", "", ours, "tzip", "type: application/x-test-zip"},
		{"magic", "application/octet-stream", "", []byte("  %TEST-2"), "text", "text as application/x-magic"},
		{"a tie, no extension: the operator's plugin", "application/octet-stream", "https://example.com/f", polyglot, "tzip", "type: application/x-test-zip"},
		{"a tie broken by the extension", "application/octet-stream", "https://example.com/f.MAGIC", polyglot, "text", "text as application/x-magic"},
		{"a declared type is not looked inside", "text/plain", "", ours, "text", "text as text/plain"},
		{"a zip without the main part", "application/zip", "https://example.com/a.tzip", zipOf(t, "a.xml"), "", ""},
		{"text served as octet-stream: by its bytes", "application/octet-stream", "", []byte("plain words\n"), "text", "text as text/plain"},
		{"a CSV served as octet-stream: by its extension", "binary/octet-stream", "https://example.com/data.csv?v=2", []byte("a,b\n1,2\n"), "text", "text as text/csv"},
		{"bytes that say nothing", "application/octet-stream", "https://example.com/blob", []byte{0, 1, 2, 3, 0xfe, 0xff}, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			name, ex, ok := h.RouteDocument(tc.mediaType, tc.url, tc.body)
			if spec, _ := RouteSpecDocument(specs, tc.mediaType, tc.url, tc.body); spec != name {
				t.Errorf("RouteSpecDocument = %q, RouteDocument %q", spec, name)
			}
			if tc.want == "" {
				if ok {
					t.Fatalf("routed to %q, want no extractor", name)
				}
				return
			}
			if !ok || name != tc.want {
				t.Fatalf("RouteDocument = %q, %v; want %q", name, ok, tc.want)
			}
			req := &sdk.ExtractRequest{Body: tc.body, ContentType: tc.mediaType, Options: map[string]string{"mode": "type"}}
			res, err := ex.Extract(t.Context(), req)
			if err != nil || res.Content != tc.content {
				t.Fatalf("extract: %v %+v, want %q", err, res, tc.content)
			}
			if req.ContentType != tc.mediaType {
				t.Errorf("the caller's request was changed: %q", req.ContentType)
			}
		})
	}
}

// TestBadContainerRuleIsRefused: a rule the host cannot run is refused
// when the configuration is checked, on the plugin's block.
func TestBadContainerRuleIsRefused(t *testing.T) {
	self := testSpec(t, "").Command[0]
	t.Setenv(envTestContainer, "")
	_, diags := planBlocks(t, fmt.Sprintf(`
extractor "tzip" {
  command = [%q]
  sha256  = %q
  env     = [%q]
}`, self, testFileSHA256(t, self), envTestContainer), nil)
	msg := diags.Error()
	for _, want := range []string{"test.hcl:2", "container rule 1", "empty zip entry"} {
		if !strings.Contains(msg, want) {
			t.Errorf("diagnostics %q do not say %q", msg, want)
		}
	}
}
