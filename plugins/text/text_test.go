package text

import (
	"context"
	"strings"
	"testing"

	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/plugins/sdk/sdktest"
)

func TestExtract(t *testing.T) {
	tests := []struct {
		name, contentType, body string
		maxOut                  int64
		want                    string
		format                  sdk.Format
		warn                    bool
	}{
		{"plain", "text/plain", "hello\nworld", 0, "hello\nworld", sdk.FormatText, false},
		{"markdown", "text/markdown; charset=utf-8", "# Title", 0, "# Title", sdk.FormatMarkdown, false},
		{"csv", "text/csv", "a,b\n1,2", 0, "a,b\n1,2", sdk.FormatText, false},
		{"invalid utf-8 replaced", "text/plain", "caf\xe9", 0, "caf\uFFFD", sdk.FormatText, false},
		{"cut on a rune boundary", "text/plain", "aé", 2, "a", sdk.FormatText, true},
	}
	ex := sdktest.Extractor(t, New())
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := ex.Extract(context.Background(), &sdk.ExtractRequest{Body: []byte(tc.body), ContentType: tc.contentType, MaxOutputBytes: tc.maxOut})
			if err != nil {
				t.Fatal(err)
			}
			if res.Content != tc.want || res.Format != tc.format {
				t.Errorf("got %q (%s), want %q (%s)", res.Content, res.Format, tc.want, tc.format)
			}
			if warned := len(res.Warnings) == 1 && strings.Contains(res.Warnings[0], "truncated"); warned != tc.warn {
				t.Errorf("warnings %q", res.Warnings)
			}
		})
	}
}
