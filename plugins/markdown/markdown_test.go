package markdown

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestInline(t *testing.T) {
	type run struct {
		text  string
		style Style
	}
	for _, tc := range []struct {
		name string
		runs []run
		want string
		cell string
	}{
		{"emphasis hugs its words", []run{{"a ", Style{}}, {" bold ", Style{Bold: true}}, {"and", Style{}}}, "a **bold** and", "a **bold** and"},
		{"runs of one style merge", []run{{"it", Style{Italic: true}}, {"alic", Style{Italic: true}}}, "*italic*", "*italic*"},
		{"markup in text is escaped", []run{{"2*3 [x] <b> a_b _c `d` |", Style{}}}, `2\*3 \[x\] \<b> a_b \_c \` + "`d\\` |", `2\*3 \[x\] \<b> a_b \_c \` + "`d\\` \\|"},
		{"code keeps its text", []run{{"a*b `c`", Style{Code: true}}}, "`` a*b `c` ``", "`` a*b `c` ``"},
		{"a link across styles stays one link", []run{{"the ", Style{Link: "https://e.example/a b"}}, {"site", Style{Bold: true, Link: "https://e.example/a b"}}}, "[the **site**](https://e.example/a%20b)", "[the **site**](https://e.example/a%20b)"},
		{"a link without text shows its URL", []run{{" ", Style{Link: "https://e.example/"}}}, "[https://e.example/](https://e.example/)", "[https://e.example/](https://e.example/)"},
		{"white space collapses", []run{{"  a \t\n b  ", Style{}}}, "a  \nb", "a<br>b"},
		{"a multibyte letter is no space", []run{{"déjà", Style{Bold: true}}, {"vu", Style{}}}, "**déjà**vu", "**déjà**vu"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var in Inline
			for _, r := range tc.runs {
				in.Add(r.text, r.style)
			}
			if got := in.String(); got != tc.want {
				t.Errorf("String() = %q, want %q", got, tc.want)
			}
			if got := in.Cell(); got != tc.cell {
				t.Errorf("Cell() = %q, want %q", got, tc.cell)
			}
		})
	}
}

func TestEscapeLineStart(t *testing.T) {
	for in, want := range map[string]string{
		"# not a heading": `\# not a heading`, "> no quote": `\> no quote`, "- no item": `\- no item`,
		"1. no item": `1\. no item`, "2024. A year": `2024\. A year`, "---": `\---`, "-3 degrees": "-3 degrees",
		"**bold** start": "**bold** start", "plain": "plain", "1.5 litres": "1.5 litres",
	} {
		if got := EscapeLineStart(in); got != want {
			t.Errorf("EscapeLineStart(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWriterBlocks(t *testing.T) {
	w := NewWriter(0)
	w.Heading(9, "Deep")
	w.Paragraph("# text\nline two")
	w.ListItem(0, "1.", "first")
	w.ListItem(1, "-", "nested")
	w.ListItem(2, "10.", "deeper")
	w.ListItem(0, "2.", "second")
	w.EndList()
	w.ListItem(0, "-", "another list")
	w.Table([][]string{{"a", "b"}, {"only"}})
	w.Quote("said\nand more")
	w.Code("go", "x := \"```\"")
	want := "###### Deep\n\n\\# text\nline two\n\n1. first\n   - nested\n     10. deeper\n2. second\n\n- another list\n\n" +
		"| a | b |\n| --- | --- |\n| only |  |\n\n> said\n> and more\n\n````go\nx := \"```\"\n````\n"
	if got := w.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// A writer keeps to its cap, cutting a block inside a character never.
func TestWriterCap(t *testing.T) {
	w := NewWriter(21) // the paragraph, the blank line, and one byte of "é"
	w.Paragraph("ééééééééé")
	w.Paragraph("é more than fits")
	w.Paragraph("and nothing after")
	got := w.String()
	if len(got) > 21 || !utf8.ValidString(got) || !w.Full() || strings.Contains(got, "nothing") || got != "ééééééééé\n" {
		t.Fatalf("%q (%d bytes), full %v", got, len(got), w.Full())
	}
}

// FuzzInline: whatever the runs, rendering never panics and a cell is one
// line.
func FuzzInline(f *testing.F) {
	f.Add("a *b* [c](d)", "https://e.example/", uint8(3))
	f.Add("\n\n  ``` ", "", uint8(255))
	f.Fuzz(func(t *testing.T, text, link string, style uint8) {
		var in Inline
		in.Add(text, Style{Bold: style&1 != 0, Italic: style&2 != 0, Code: style&4 != 0, Strike: style&8 != 0, Link: link})
		in.Text(text)
		_ = in.String()
		if cell := in.Cell(); strings.Contains(cell, "\n") {
			t.Fatalf("a cell of more than one line: %q", cell)
		}
	})
}
