package text

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/plugins/sdk/sdktest"
)

func TestExtract(t *testing.T) {
	sjis, err := os.ReadFile(filepath.Join("..", "internal", "charset", "testdata", "ja.shift_jis"))
	if err != nil {
		t.Fatal(err)
	}
	ja, err := os.ReadFile(filepath.Join("..", "internal", "charset", "testdata", "source", "ja.txt"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, contentType, body string
		maxOut                  int64
		want                    string
		format                  sdk.Format
		charset                 string // metadata, "" when UTF-8
		warning                 string // a part of the one warning expected
	}{
		{"plain", "text/plain", "hello\nworld", 0, "hello\nworld", sdk.FormatText, "", ""},
		{"markdown", "text/markdown; charset=utf-8", "# Title", 0, "# Title", sdk.FormatMarkdown, "", ""},
		{"windows-1252 by label", "text/plain; charset=windows-1252", "caf\xe9", 0, "café", sdk.FormatText, "windows-1252", ""},
		{"iso-8859-1 by label", "text/plain; charset=ISO-8859-1", "na\xefve", 0, "naïve", sdk.FormatText, "windows-1252", ""},
		{"shift_jis by label", "text/plain; charset=cp932", string(sjis), 0, string(ja), sdk.FormatText, "shift_jis", ""},
		{"shift_jis detected, with a warning", "text/plain", string(sjis), 0, string(ja), sdk.FormatText, "shift_jis", "read as shift_jis, detected"},
		{"invalid utf-8 replaced and counted", "text/plain; charset=utf-8", "caf\xe9", 0, "caf\uFFFD", sdk.FormatText, "", "1 sequences not valid in utf-8"},
		{"unknown charset named", "text/plain; charset=x-mac-klingon", "plain", 0, "plain", sdk.FormatText, "", `charset "x-mac-klingon"`},
		{"cut on a rune boundary", "text/plain", "aé", 2, "a", sdk.FormatText, "", "truncated"},
	}
	ex := sdktest.Extractor(t, New())
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := ex.Extract(context.Background(), &sdk.ExtractRequest{Body: []byte(tc.body), ContentType: tc.contentType, MaxOutputBytes: tc.maxOut})
			if err != nil {
				t.Fatal(err)
			}
			if res.Content != tc.want || res.Format != tc.format || res.Metadata["charset"] != tc.charset {
				t.Errorf("got %.60q (%s, %q), want %.60q (%s, %q)", res.Content, res.Format, res.Metadata["charset"], tc.want, tc.format, tc.charset)
			}
			warned := slices.ContainsFunc(res.Warnings, func(w string) bool { return tc.warning != "" && strings.Contains(w, tc.warning) })
			if tc.warning == "" && len(res.Warnings) > 0 || tc.warning != "" && (!warned || len(res.Warnings) != 1) {
				t.Errorf("warnings %q, want one with %q", res.Warnings, tc.warning)
			}
		})
	}
}
