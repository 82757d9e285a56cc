package charset

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/simplifiedchinese"
)

// readSource returns a text of testdata/source, as written.
func readSource(t *testing.T, lang string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "source", lang+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// knownMisses are the detector's known mistakes on the test files, as
// replacements from the right text to what it reads: ICU's detector does
// not know ISO-8859-15, which differs from windows-1252 in eight letters.
var knownMisses = map[string][]string{"fr.iso-8859-15": {"œ", "½"}}

// TestDetectsWhatIconvWrote reads every file make.sh encoded with iconv,
// without a label, and must get its text back exactly, with a warning
// naming the charset it guessed.
func TestDetectsWhatIconvWrote(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		base := filepath.Base(file)
		lang, cs, _ := strings.Cut(base, ".")
		if cs == "sh" || cs == "utf-16le" {
			continue
		}
		t.Run(base, func(t *testing.T) {
			body, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			want := readSource(t, lang)
			r := Decode(body, "text/plain")
			if miss, ok := knownMisses[base]; ok {
				want = strings.NewReplacer(miss...).Replace(want)
			}
			if string(r.Text) != want {
				t.Fatalf("read as %s (%s): %.80q…, want %.80q…", r.Charset, r.Source, r.Text, want)
			}
			if r.Source != FromDetection || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "read as "+r.Charset+", detected") {
				t.Fatalf("source %s, warnings %q", r.Source, r.Warnings)
			}
			// The same bytes served with their label: no guess, no warning.
			label := Decode(body, "text/plain; charset="+cs)
			if string(label.Text) != readSource(t, lang) || label.Source != FromContentType || len(label.Warnings) != 0 {
				t.Fatalf("by label %s: %s (%s), warnings %q", cs, label.Charset, label.Source, label.Warnings)
			}
		})
	}
}

func TestDecode(t *testing.T) {
	de := readSource(t, "de")
	ja := readSource(t, "ja")
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	tests := []struct {
		name, contentType, body string
		want, charset           string
		source                  Source
		warning                 string // a part of the one warning expected, "" for none
	}{
		{"utf-8 unlabelled", "text/plain", "héllo", "héllo", "utf-8", FromDefault, ""},
		{"ascii", "text/csv", "a,b", "a,b", "utf-8", FromDefault, ""},
		{"empty", "text/plain", "", "", "utf-8", FromDefault, ""},
		{"utf-8 with a stray byte", "text/plain", "Grüße \x9b31m \u202e", "Grüße \uFFFD31m \u202e", "utf-8", FromDefault, "1 sequences not valid in utf-8"},
		{"terminal colours are no ISO-2022", "text/plain", "\x1b[31mrot\x1b[0m — \u202eGrüße", "\x1b[31mrot\x1b[0m — \u202eGrüße", "utf-8", FromDefault, ""},
		{"shift_jis label", "text/csv; charset=shift_jis", read("ja.shift_jis"), ja, "shift_jis", FromContentType, ""},
		{"cp932 label", "text/csv; charset=cp932", read("ja.cp932"), ja, "shift_jis", FromContentType, ""},
		{"windows-31j label", `text/csv; charset="Windows-31J"`, read("ja.cp932"), ja, "shift_jis", FromContentType, ""},
		{"label with a trailing semicolon", "text/plain; charset=EUC_JP;", read("ja.euc-jp"), ja, "euc-jp", FromContentType, ""},
		{"iso-8859-1 is windows-1252", "text/plain; charset=ISO-8859-1", read("de.iso-8859-1"), de, "windows-1252", FromContentType, ""},
		{"latin1 label on a UTF-8 body", "text/plain; charset=iso-8859-1", "Grüße", "Grüße", "utf-8", FromContentType, `charset "iso-8859-1" (from the Content-Type) read as utf-8`},
		{"utf-8 BOM beats the label", "text/plain; charset=shift_jis", "\xef\xbb\xbfGrüße", "Grüße", "utf-8", FromBOM, ""},
		{"utf-16le BOM", "text/plain", "\xff\xfe" + read("de.utf-16le"), de, "utf-16le", FromBOM, ""},
		{"utf-16be BOM", "text/plain", "\xfe\xff\x00h\x00i", "hi", "utf-16be", FromBOM, ""},
		{"unknown label is named", "text/plain; charset=x-klingon", "plain", "plain", "utf-8", FromDefault, `charset "x-klingon" (from the Content-Type) is not one sift can decode: no such charset`},
		{"replacement label is named", "text/plain; charset=iso-2022-kr", "plain", "plain", "utf-8", FromDefault, "maps it to replacement"},
		{"invalid utf-8 is counted", "text/plain; charset=utf-8", "caf\xe9 \xff\xfe ok", "caf\uFFFD \uFFFD ok", "utf-8", FromContentType, "2 sequences not valid in utf-8 were replaced with U+FFFD"},
		{"undefined byte in a label's charset is counted", "text/plain; charset=shift_jis", "a\xa0b", "a\uFFFDb", "shift_jis", FromContentType, "1 sequences not valid in shift_jis"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := Decode([]byte(tc.body), tc.contentType)
			if string(r.Text) != tc.want || r.Charset != tc.charset || r.Source != tc.source {
				t.Fatalf("got %.60q as %s (%s), want %.60q as %s (%s)", r.Text, r.Charset, r.Source, tc.want, tc.charset, tc.source)
			}
			switch {
			case tc.warning == "" && len(r.Warnings) != 0:
				t.Fatalf("warnings %q, want none", r.Warnings)
			case tc.warning != "" && (len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], tc.warning)):
				t.Fatalf("warnings %q, want one with %q", r.Warnings, tc.warning)
			}
		})
	}
}

func TestLookup(t *testing.T) {
	for label, want := range map[string]string{
		"Shift_JIS": "shift_jis", "cp932": "shift_jis", "windows-31j": "shift_jis", "MS_Kanji": "shift_jis",
		"sjis": "shift_jis", "latin1": "windows-1252", "cp1252": "windows-1252", "US-ASCII": "windows-1252",
		"iso_8859-1:1987": "windows-1252", "euc_kr": "euc-kr", "cp949": "euc-kr", "cp936": "gbk", "cp950": "big5",
		"GB-18030": "gb18030", "koi8-r": "koi8-r", "utf8": "utf-8", " UTF-8 ": "utf-8", "IBM866": "ibm866",
	} {
		if _, got, err := Lookup(label); err != nil || got != want {
			t.Errorf("Lookup(%q) = %q, %v; want %q", label, got, err, want)
		}
	}
	for _, label := range []string{"", "x-klingon", "hz-gb-2312", "iso-2022-kr"} {
		if _, name, err := Lookup(label); err == nil {
			t.Errorf("Lookup(%q) = %q, want an error", label, name)
		}
	}
}

func TestDecodeXML(t *testing.T) {
	de := readSource(t, "de")
	latin := func(s string) string {
		b, _ := os.ReadFile(filepath.Join("testdata", "de.windows-1252"))
		return strings.Replace(s, "TEXT", string(b), 1)
	}
	decl := `<?xml version="1.0" encoding="%s"?>`
	tests := []struct {
		name, contentType, body string
		want, charset           string
		source                  Source
		warnings                int
	}{
		{"declaration", "text/xml", latin(strings.Replace(decl, "%s", "windows-1252", 1) + "<t>TEXT</t>"),
			strings.Replace(decl, "%s", "UTF-8", 1) + "<t>" + de + "</t>", "windows-1252", FromDeclaration, 0},
		{"single quotes", "application/rss+xml", latin(`<?xml version='1.0' encoding='ISO-8859-1'?><t>TEXT</t>`),
			`<?xml version='1.0' encoding='UTF-8'?><t>` + de + "</t>", "windows-1252", FromDeclaration, 0},
		{"content-type beats the declaration", "text/xml; charset=windows-1252", latin(strings.Replace(decl, "%s", "koi8-r", 1) + "<t>TEXT</t>"),
			strings.Replace(decl, "%s", "UTF-8", 1) + "<t>" + de + "</t>", "windows-1252", FromContentType, 0},
		{"a wrong utf-8 label yields to the declaration", "text/xml; charset=utf-8", latin(strings.Replace(decl, "%s", "iso-8859-1", 1) + "<t>TEXT</t>"),
			strings.Replace(decl, "%s", "UTF-8", 1) + "<t>" + de + "</t>", "windows-1252", FromDeclaration, 1},
		{"no declaration", "application/xml", "<t>é</t>", "<t>é</t>", "utf-8", FromDefault, 0},
		{"utf-16 without a BOM", "text/xml", "<\x00?\x00x\x00m\x00l\x00 \x00e\x00n\x00c\x00o\x00d\x00i\x00n\x00g\x00=\x00'\x00U\x00T\x00F\x00-\x001\x006\x00'\x00?\x00>\x00",
			"<?xml encoding='UTF-8'?>", "utf-16le", FromDetection, 0},
		{"unknown declaration", "text/xml", `<?xml version="1.0" encoding="x-klingon"?><t/>`, `<?xml version="1.0" encoding="UTF-8"?><t/>`, "utf-8", FromDefault, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := DecodeXML([]byte(tc.body), tc.contentType)
			if string(r.Text) != tc.want || r.Charset != tc.charset || r.Source != tc.source || len(r.Warnings) != tc.warnings {
				t.Fatalf("got %.90q as %s (%s), warnings %q; want %.90q as %s (%s), %d warnings",
					r.Text, r.Charset, r.Source, r.Warnings, tc.want, tc.charset, tc.source, tc.warnings)
			}
		})
	}
}

// FuzzDecode: whatever the bytes and the label, the text is valid UTF-8,
// and an XML declaration at its start says UTF-8.
func FuzzDecode(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.*"))
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(b[:min(len(b), 512)], "text/plain")
		}
	}
	f.Add([]byte("\xff\xfe<\x00?\x00x\x00"), "text/xml; charset=cp932")
	f.Add([]byte(`<?xml version="1.0" encoding="shift_jis"?><a/>`), "application/xml")
	f.Add([]byte("\x1b$Babc"), `text/csv; charset="`)
	f.Fuzz(func(t *testing.T, body []byte, contentType string) {
		for _, r := range []Result{Decode(body, contentType), DecodeXML(body, contentType)} {
			if !utf8.Valid(r.Text) || r.Charset == "" {
				t.Fatalf("%q as %q (%s)", r.Text, r.Charset, r.Source)
			}
		}
		if x := DecodeXML(body, contentType); bytes.HasPrefix(x.Text, []byte("<?xml")) {
			if m := declaration.FindSubmatch(x.Text); m != nil && string(m[1]) != "UTF-8" {
				t.Fatalf("declaration still says %q", m[1])
			}
		}
	})
}

// TestShortTextDecodesCleanly: of the charsets the detector ties on a
// short text, one in which the bytes are valid and read best is taken,
// the same on every run (four Chinese characters of GB18030 came out as
// Shift_JIS, two sequences replaced, or as Big5, by the run).
func TestShortTextDecodesCleanly(t *testing.T) {
	for _, tc := range []struct {
		name string
		enc  encoding.Encoding
		text string
	}{
		{"gb18030", simplifiedchinese.GB18030, "<html><body><p>今天休息。</p></body></html>"},
		{"shift_jis", japanese.ShiftJIS, "<html><body><p>今日は休みです。</p></body></html>"},
		{"gb18030, two characters", simplifiedchinese.GB18030, "<html><body><p>谢谢。</p></body></html>"},
		{"shift_jis, kana", japanese.ShiftJIS, "<html><body><p>ありがとう</p></body></html>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body, err := tc.enc.NewEncoder().Bytes([]byte(tc.text))
			if err != nil {
				t.Fatal(err)
			}
			r := DecodeHTML(body, "text/html")
			if string(r.Text) != tc.text {
				t.Errorf("read as %s: %q, want %q (warnings %q)", r.Charset, r.Text, tc.text, r.Warnings)
			}
		})
	}
}
