package html

import "testing"

func TestDropLoneLinks(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"a related link between paragraphs goes",
			"The storm reached the coast at noon.\n\n**Related:** [**Snapshots of the storm from space**](https://news.example/s)\n\nBy evening it had passed.",
			"The storm reached the coast at noon.\n\nBy evening it had passed."},
		{"a link inside a sentence stays",
			"The storm reached the coast at noon, as [the forecast](https://news.example/f) had said it would for days.",
			"The storm reached the coast at noon, as [the forecast](https://news.example/f) had said it would for days."},
		{"a one-word link stays", "Text.\n\n[Contact](https://news.example/c)", "Text.\n\n[Contact](https://news.example/c)"},
		{"list items, headings and images stay",
			"Text.\n\n- [Snapshots of the storm](https://news.example/s)\n\n## [Storm season](https://news.example/h)\n\n![A storm cloud](https://news.example/i.png)",
			"Text.\n\n- [Snapshots of the storm](https://news.example/s)\n\n## [Storm season](https://news.example/h)\n\n![A storm cloud](https://news.example/i.png)"},
		{"the first block stays", "[Snapshots of the storm](https://news.example/s)\n\nText.", "[Snapshots of the storm](https://news.example/s)\n\nText."},
		{"a sentence whose words after its first link it is stays",
			"Text.\n\nYes, [meditation has been shown to reduce stress and anxiety.](https://news.example/m)\n\nHere’s [how we report for our clients](https://news.example/r)",
			"Text.\n\nYes, [meditation has been shown to reduce stress and anxiety.](https://news.example/m)\n\nHere’s [how we report for our clients](https://news.example/r)"},
		{"a label before the link still goes",
			"Text.\n\nMUST READ [Snapshots of the storm from space taken by the crew of the station](https://news.example/s)\n\nRead next: [Seven lessons for the storm season from the coast guard and its pilots](https://news.example/n)\n\nMore.",
			"Text.\n\nMore."},
		{"a sentence offered as a tweet keeps its words, without the link and the label",
			"Text.\n\n[Every online business exists in the 'space-time continuum.'Click To Tweet](https://twitter.com/intent/tweet?text=Every+online&via=a)\n\nMore.",
			"Text.\n\nEvery online business exists in the 'space-time continuum.'\n\nMore."},
		{"a short tweet link is still a promotion",
			"Text.\n\n[Share on Twitter](https://x.com/intent/tweet?url=https://news.example/s)\n\nMore.",
			"Text.\n\nMore."},
		{"a tweet link among words is left to the rule",
			"Text.\n\nYes, [the storm reached the coast at noon today](https://twitter.com/intent/tweet?text=x)",
			"Text.\n\nYes, [the storm reached the coast at noon today](https://twitter.com/intent/tweet?text=x)"},
		{"two links are no lone link",
			"Text.\n\n[Storm news](https://news.example/1) [Flood news](https://news.example/2)",
			"Text.\n\n[Storm news](https://news.example/1) [Flood news](https://news.example/2)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := dropLoneLinks(tc.in); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// Only a page declaring an article loses its lone links: elsewhere a
// paragraph of one link may be what the page offers.
func TestLoneLinksOnlyLeaveArticles(t *testing.T) {
	page := func(head string) []byte {
		body := ""
		for i := 0; i < 5; i++ {
			body += `<p>STORY The storm reached the coast at noon and the harbour closed for the rest of the day while crews watched the sea walls.</p>`
		}
		body += `<p><b>Related:</b> <a href="/promo">PROMO snapshots of the storm from space</a></p>`
		body += `<p>STORY By evening it had passed, and the harbour opened again before dark.</p>`
		return []byte(`<html><head>` + head + `<title>Storm</title></head><body><article>` + body + `</article></body></html>`)
	}
	article, err := extractHTML(t, page(`<meta property="og:type" content="article">`), pageURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkText(t, article.Content, []string{"STORY"}, []string{"PROMO"})
	other, err := extractHTML(t, page(""), pageURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkText(t, other.Content, []string{"STORY", "PROMO"}, nil)
}
