package html

import (
	"strings"
	"testing"
)

func TestDropLinkTail(t *testing.T) {
	tags := "[stock car](https://ex.example/t/1), [interlagos](https://ex.example/t/2), [velopark](https://ex.example/t/3)"
	tests := []struct {
		name, in, want string
		article        bool
	}{
		{"tag cloud after the text", "The race ends in December.\n\n" + tags, "The race ends in December.", false},
		{"two trailing link blocks", "Text here.\n\n" + tags + "\n\n- [a](/a)\n- [b](/b)\n- [c](/c)", "Text here.", false},
		{"elsewhere, a line after links keeps them", "Intro.\n\n" + tags + "\n\nClosing words of the article.", "Intro.\n\n" + tags + "\n\nClosing words of the article.", false},
		{"a sentence with links is text", "Text.\n\nRead [one](/1), then [two](/2) and [three](/3) before you start the long walk home.",
			"Text.\n\nRead [one](/1), then [two](/2) and [three](/3) before you start the long walk home.", false},
		{"a page of links alone stays", tags, tags, false},
		{"fenced code is one block", "Text.\n\n```\n[a](/a) [b](/b)\n\n[c](/c)\n```", "Text.\n\n```\n[a](/a) [b](/b)\n\n[c](/c)\n```", false},
		{"an article's line after its tags goes with them", "Intro.\n\n" + tags + "\n\nComments are moderated.", "Intro.", true},
		{"an article's paragraphs after links stay", "Intro.\n\n" + tags + "\n\n" + strings.Repeat("The article goes on after its list of links. ", 4), "Intro.\n\n" + tags + "\n\n" + strings.Repeat("The article goes on after its list of links. ", 4), true},
		{"an article ending in links loses only them", "Intro.\n\nComments are moderated.\n\n" + tags, "Intro.\n\nComments are moderated.", true},
		{"an article of one short block stays", "Comments are moderated.", "Comments are moderated.", true},
		{"an FAQ's questions stay", "Permits.\n\n- [How do I get a permit?](/q/1)\n- [Do I need a permit for a pool?](/q/2)\n- [How do I file a complaint?](/q/3)",
			"Permits.\n\n- [How do I get a permit?](/q/1)\n- [Do I need a permit for a pool?](/q/2)\n- [How do I file a complaint?](/q/3)", false},
		{"a title that asks is one of the list", "Text.\n\n- [What is yoga?](/1)\n- [Ten poses](/2)\n- [Yoga at home](/3)", "Text.", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := dropLinkTail(tc.in, tc.article, false); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestLinkCounts: the one pass counts what the three passes it replaced
// counted: the links, their words, the words around them (a word cut by a
// link joined again, as removing the links joined it) and the links that
// ask.
func TestLinkCounts(t *testing.T) {
	threePasses := func(block string) (links, linked, other, questions int) {
		texts := mdLink.FindAllStringSubmatch(block, -1)
		for _, l := range texts {
			links++
			linked += len(strings.Fields(l[1]))
			if strings.HasSuffix(strings.TrimSpace(l[1]), "?") {
				questions++
			}
		}
		other = len(strings.FieldsFunc(mdLink.ReplaceAllString(block, ""), isWordSeparator))
		return links, linked, other, questions
	}
	for _, block := range []string{
		"",
		"no links here, only words",
		"[one](/1) [two words](/2) [three](/3)",
		"Tags: [a](/a), [b c](/b) and [d](/d).",
		"fo[x](/x)o bar",
		`[esc \] aped](/e) [How do I apply? ](/q) [Why?](/w)`,
		"[unclosed](/u [broken] (/b) [ok](/ok)",
		"![img 1](/i/1.jpg)![img 2](/i/2.jpg)![img 3](/i/3.jpg) caption",
	} {
		l, w, o, q := linkCounts(block)
		wl, ww, wo, wq := threePasses(block)
		if l != wl || w != ww || o != wo || q != wq {
			t.Errorf("linkCounts(%q) = %d, %d, %d, %d; want %d, %d, %d, %d", block, l, w, o, q, wl, ww, wo, wq)
		}
	}
}
