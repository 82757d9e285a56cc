package html

import (
	"strings"
	"testing"
)

func TestLinkParagraphsKeptForMarksDropped(t *testing.T) {
	// A news article whose body ends in a line of links. go-trafilatura
	// alone drops a short one as rich in links; counted with sift's marks
	// it passed the length limit and stayed.
	const head = `<html lang="de"><head><title>Stadtrat beschließt neuen Radweg</title>
<meta property="og:type" content="article"></head><body><article><h1>Stadtrat beschließt neuen Radweg</h1><div class="article-body">
<p>Die Entscheidung fiel mit knapper Mehrheit. Vertreter der Opposition kritisierten vor allem die Kosten von rund zwei Millionen Euro, die aus dem städtischen Haushalt bezahlt werden sollen.</p>
<p>Der Radweg soll auf einer Länge von drei Kilometern vom Bahnhof bis zum Stadtpark führen. Dabei fallen etwa sechzig Parkplätze weg, was bei den Einzelhändlern auf Widerstand stößt.</p>
<p>Die Bauarbeiten sollen im April beginnen. Während der Arbeiten wird die Hauptstraße zeitweise nur in einer Richtung befahrbar sein, kündigte die Stadtverwaltung an.</p>`
	const foot = `</div></article></body></html>`
	kept := []string{"knapper Mehrheit", "sechzig Parkplätze", "Bauarbeiten"}
	for _, tc := range []struct {
		name, line string
		kept, gone []string
	}{
		{"social links", `<p>Folgen Sie uns auf <a href="https://facebook.example/tb">Facebook</a>, <a href="https://twitter.example/tb">Twitter</a> und <a href="https://instagram.example/tb">Instagram</a>.</p>`,
			nil, []string{"Folgen Sie uns", "Instagram"}},
		{"a sentence with links", `<p>Der Plan und die Kosten stehen im <a href="/plan">Radverkehrskonzept</a> und im <a href="/haushalt">Haushaltsentwurf</a> der Stadt, beide seit Montag öffentlich.</p>`,
			[]string{"Radverkehrskonzept", "beide seit Montag"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := extractHTML(t, []byte(head+tc.line+foot), "https://news.example/verkehr/radweg", nil)
			if err != nil {
				t.Fatal(err)
			}
			checkText(t, res.Content, append(kept, tc.kept...), tc.gone)
		})
	}
}

func TestLinkRich(t *testing.T) {
	for _, tc := range []struct {
		name       string
		text       int
		links      []int
		para, last bool
		want       bool
	}{
		{"list under the limit, all links", 92, []int{38, 26, 26}, false, false, true},
		{"list at the limit", 100, []int{38, 26, 36}, false, false, false},
		{"last list under its limit", 290, []int{100, 90, 90}, false, true, true},
		{"list of short links", 60, []int{5, 6, 5, 4, 7}, false, false, true},
		{"list with text beside its links", 80, []int{20, 10}, false, false, false},
		{"paragraph of one link", 25, []int{24}, true, false, true},
		{"paragraph past its limit", 35, []int{34}, true, false, false},
		{"one long link", 150, []int{140}, true, false, true},
	} {
		if got := linkRich(tc.text, tc.links, tc.para, tc.last); got != tc.want {
			t.Errorf("%s: linkRich = %v, want %v", tc.name, got, tc.want)
		}
	}
	if !strings.Contains(unmarked("\uE001\U000F0001a\uE000b\uE002"), "a b") {
		t.Error("unmarked keeps a mark")
	}
}
