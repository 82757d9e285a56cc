package html

import "testing"

func TestDropLinkTail(t *testing.T) {
	tags := "[stock car](https://ex.example/t/1), [interlagos](https://ex.example/t/2), [velopark](https://ex.example/t/3)"
	tests := []struct{ name, in, want string }{
		{"tag cloud after the text", "The race ends in December.\n\n" + tags, "The race ends in December."},
		{"two trailing link blocks", "Text here.\n\n" + tags + "\n\n- [a](/a)\n- [b](/b)\n- [c](/c)", "Text here."},
		{"links inside the content stay", "Intro.\n\n" + tags + "\n\nClosing words of the article.", "Intro.\n\n" + tags + "\n\nClosing words of the article."},
		{"a sentence with links is text", "Text.\n\nRead [one](/1), then [two](/2) and [three](/3) before you start the long walk home.",
			"Text.\n\nRead [one](/1), then [two](/2) and [three](/3) before you start the long walk home."},
		{"a page of links alone stays", tags, tags},
		{"fenced code is one block", "Text.\n\n```\n[a](/a) [b](/b)\n\n[c](/c)\n```", "Text.\n\n```\n[a](/a) [b](/b)\n\n[c](/c)\n```"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := dropLinkTail(tc.in); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}
