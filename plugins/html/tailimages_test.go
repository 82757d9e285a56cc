package html

import (
	"strconv"
	"strings"
	"testing"
)

// TestLinkTailKeepsImages: with the images option, the images after the
// content's text (a gallery closing a post, a figure after the last
// paragraph) stay, and the link blocks among them still go; without it the
// tail goes as before (the images leave the markdown later anyway).
func TestLinkTailKeepsImages(t *testing.T) {
	tags := "[stock car](https://ex.example/t/1), [interlagos](https://ex.example/t/2), [velopark](https://ex.example/t/3)"
	gallery := "![The start](https://ex.example/i/1.jpg) ![The first corner](https://ex.example/i/2.jpg) ![The podium](https://ex.example/i/3.jpg)"
	linked := "[![Pit lane](https://ex.example/i/4.jpg)](https://ex.example/i/4-big.jpg)\n[![Grid](https://ex.example/i/5.jpg)](/i/5)\n[![Flag](https://ex.example/i/6.jpg)](/i/6)"
	listed := "- ![a](/i/7.jpg)\n- ![b](/i/8.jpg)\n- ![c](/i/9.jpg)"
	figure := "![The winner](https://ex.example/i/w.jpg)"
	teasers := "- [![](/t/1.jpg)](/p/1) [Next race in Brazil](/p/1)\n- [![](/t/2.jpg)](/p/2) [The new cars](/p/2)\n- [![](/t/3.jpg)](/p/3) [Who leads the season](/p/3)"
	text := "The race ends in December."
	tests := []struct {
		name, in, want  string
		article, images bool
	}{
		{"a gallery closing the text", text + "\n\n" + gallery, text + "\n\n" + gallery, false, true},
		{"a gallery of linked images", text + "\n\n" + linked, text + "\n\n" + linked, false, true},
		{"a list of images", text + "\n\n" + listed, text + "\n\n" + listed, false, true},
		{"a gallery before the tags: the tags go", text + "\n\n" + gallery + "\n\n" + tags, text + "\n\n" + gallery, false, true},
		{"a gallery after the tags: the tags go", text + "\n\n" + tags + "\n\n" + gallery, text + "\n\n" + gallery, false, true},
		{"an article's figure after its tags and a line", text + "\n\n" + tags + "\n\nComments are moderated.\n\n" + figure,
			text + "\n\n" + figure, true, true},
		{"an article's gallery before its tags and a line", text + "\n\n" + gallery + "\n\n" + tags + "\n\nComments are moderated.",
			text + "\n\n" + gallery, true, true},
		{"captions among the images", text + "\n\n" + strings.ReplaceAll(gallery, ") ", ") Photo: R. Lee. "),
			text + "\n\n" + strings.ReplaceAll(gallery, ") ", ") Photo: R. Lee. "), false, true},
		{"teasers with thumbnails still go", text + "\n\n" + teasers, text, false, true},
		{"images off: the gallery goes as before", text + "\n\n" + gallery + "\n\n" + tags, text, false, false},
		{"a page of images alone stays", gallery, gallery, false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := dropLinkTail(tc.in, tc.article, tc.images); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestGalleryAfterTheTextKept: through the extractor, a post's closing
// gallery stays with the images option, and its tags still go.
func TestGalleryAfterTheTextKept(t *testing.T) {
	var gallery strings.Builder
	var want []string
	for i := 1; i <= 20; i++ {
		n := strconv.Itoa(i)
		gallery.WriteString(`<img src="/photos/alps-` + n + `.jpg" alt="Photo ` + n + `" width="800" height="600">` + "\n")
		want = append(want, "![Photo "+n+"](https://garden.example/photos/alps-"+n+".jpg)")
	}
	page := `<html><head><title>Our trip to the Alps</title></head><body><main><article><h1>Our trip to the Alps</h1>` +
		`<p>We spent two weeks walking from hut to hut across the high passes, carrying everything we needed on our backs.</p>` +
		`<p>The weather held for most of the trip, though a storm on the ninth day kept us inside for an afternoon of cards.</p>` +
		`<p>The last day brought us down into the valley, tired and happy, with a strong wish to come back next summer.</p>` +
		`<div class="gallery">` + gallery.String() + `</div>` +
		`<div class="tags"><a href="/tag/alps">Alps</a> <a href="/tag/hiking">Hiking</a> <a href="/tag/travel">Travel</a></div>` +
		`</article></main></body></html>`
	for _, tc := range []struct {
		name       string
		opts       map[string]string
		want, gone []string
	}{
		{"images on", map[string]string{OptionImages: "true"}, want, []string{"Hiking"}},
		{"images off", nil, []string{"strong wish to come back"}, []string{"![", "Hiking"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := extractHTML(t, []byte(page), pageURL, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			checkText(t, res.Content, tc.want, tc.gone)
		})
	}
}

// TestMarkdownImages: the images and the links holding one alone are
// found, and what only looks like one is not.
func TestMarkdownImages(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a ![x](/x.jpg) b", "a   b"},
		{"[![x](/x.jpg)](/big.jpg)[![y](/y.jpg)](/y)", "  "},
		{"[see ![x](/x.jpg) here](/p)", "[see   here](/p)"},
		{`![a \] b](/a.jpg)`, " "},
		{"![alt runs on (/u.jpg) ![to](/ok.jpg)", " "}, // as markdownLinks reads it
		{"![no target] then ![ok](/ok.jpg)", "![no target] then  "},
		{"![open](/never closes", "![open](/never closes"},
		{"[text](/t) and ! [not](/n)", "[text](/t) and ! [not](/n)"},
	} {
		if got, _ := withoutImages(tc.in); got != tc.want {
			t.Errorf("withoutImages(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"![a](/a.jpg) ![b](/b.jpg)", true},
		{"1. ![a](/a.jpg)\n2. ![b](/b.jpg)", true},
		{"| ![a](/a.jpg) | ![b](/b.jpg) |\n| --- | --- |", true},
		{"![a](/a.jpg) Photo: R. Lee", false},
		{"[a](/a) [b](/b) [c](/c)", false},
		{"", false},
	} {
		if got := isImageBlock(tc.in); got != tc.want {
			t.Errorf("isImageBlock(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
