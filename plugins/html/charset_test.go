package html

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/siftd/sift/plugins/sdk"
)

// TestCharsets reads the pages of testdata/charset (real bytes, encoded by
// make.sh with iconv) as served with and without labels: each must read
// as its UTF-8 original does, with a warning exactly when the charset was
// guessed or the declared one did not fit.
func TestCharsets(t *testing.T) {
	tests := []struct {
		name, file, contentType, meta string
		// warning is what the one warning holds; "" for none.
		warning string
	}{
		{"shift_jis unlabelled", "ja.shift_jis", "text/html", "", "read as shift_jis, detected"},
		{"euc-kr unlabelled", "ko.euc-kr", "text/html", "", "read as euc-kr, detected"},
		{"gb18030 unlabelled", "zh.gb18030", "text/html", "", "read as gb18030, detected"},
		{"windows-1252 unlabelled", "de.windows-1252", "text/html", "", "read as windows-1252, detected"},
		{"windows-1252 under a utf-8 meta", "de.windows-1252", "text/html", `<meta charset="utf-8">`, `charset "utf-8" (from the page's <meta>) does not fit the page`},
		{"windows-1252 under a utf-8 header", "de.windows-1252", "text/html; charset=utf-8", "", `charset "utf-8" (from the Content-Type) does not fit the page`},
		{"shift_jis under a euc-kr header", "ja.shift_jis", "text/html; charset=euc-kr", "", `charset "euc-kr" (from the Content-Type) does not fit the page`},
		{"shift_jis by meta", "ja.shift_jis", "text/html", `<meta charset="Shift_JIS">`, ""},
		{"euc-kr by header", "ko.euc-kr", "text/html; charset=euc-kr", "", ""},
		{"gb18030 by http-equiv", "zh.gb18030", "text/html", `<meta http-equiv="Content-Type" content="text/html; charset=gb18030">`, ""},
		{"header over meta", "ko.euc-kr", "text/html; charset=euc-kr", `<meta charset="shift_jis">`, ""},
		{"windows-1252 by meta", "de.windows-1252", "text/html", `<meta charset="windows-1252">`, ""},
		{"utf-16 by its mark", "de.utf-16", "text/html", "", ""},
		{"utf-16 mark over a header", "de.utf-16", "text/html; charset=windows-1252", "", ""},
		{"utf-8 under a stale meta", "ja.utf-8", "text/html", `<meta charset="shift_jis">`, `charset "shift_jis" (from the page's <meta>) read as utf-8`},
		{"utf-8 unlabelled", "ja.utf-8", "text/html", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := readCharsetPage(t, tt.file)
			want := extractBytes(t, readCharsetPage(t, strings.Split(tt.file, ".")[0]+".utf-8"), "text/html")
			got := extractBytes(t, append([]byte(tt.meta), body...), tt.contentType)
			if got.Content != want.Content || got.Title != want.Title {
				t.Errorf("read as\n%s (title %q)\nwant\n%s (title %q)", got.Content, got.Title, want.Content, want.Title)
			}
			switch {
			case tt.warning == "" && len(got.Warnings) != 0:
				t.Errorf("warnings %q, want none", got.Warnings)
			case tt.warning != "" && (len(got.Warnings) != 1 || !strings.Contains(got.Warnings[0], tt.warning)):
				t.Errorf("warnings %q, want one holding %q", got.Warnings, tt.warning)
			}
		})
	}
}

func readCharsetPage(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "charset", name+".html"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func extractBytes(t *testing.T, body []byte, contentType string) *sdk.ExtractResult {
	t.Helper()
	res, err := New().Extract(context.Background(), &sdk.ExtractRequest{Body: body, ContentType: contentType, URL: "https://example.com/"})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestBinaryIsRefused: random bytes served as a page are no page; they
// are refused with an error naming them, not returned as mojibake.
func TestBinaryIsRefused(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	noise := make([]byte, 200<<10)
	for i := range noise {
		noise[i] = byte(rnd.Uint32())
	}
	tests := []struct {
		name string
		body []byte
	}{
		{"random bytes", noise},
		{"a page on random bytes", append([]byte("<html><body><p>hello</p>"), noise...)},
		{"nul-padded", []byte("<p>" + strings.Repeat("\x00", 64) + "</p>")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := New().Extract(context.Background(), &sdk.ExtractRequest{Body: tt.body, ContentType: "text/html"})
			var de *sdk.DocError
			if !errors.As(err, &de) || !strings.Contains(err.Error(), "binary data") {
				t.Fatalf("err %v, want an invalid-document error naming binary data (result %v)", err, res != nil)
			}
		})
	}
}
