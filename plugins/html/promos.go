package html

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Within an article's text, a paragraph that is one link and little else
// is a promotion: "**Related:** [Snapshots of our universe]", "DON'T MISS
// […]", "[GET THE APP BY CLICKING HERE]", "[Check price on Amazon]".
// go-trafilatura keeps them, as they sit among the paragraphs.
// dropLoneLinks removes them from a declared article's markdown: paragraphs
// holding one link of two or more words, with 85% of the paragraph's words
// in it. Headings, list items, tables, quotes and images stay, and so does
// the first block. Some pages lose a list of links written as paragraphs
// that is content; measured over many articles, far more gain.
//
// A lone link that opens a tweet of the page's own sentence (the "Click
// To Tweet" boxes of Social Warfare and Better Click To Tweet) is no
// promotion: it is a sentence of the article offered for sharing, and its
// words stay, without the link and the button's label.
func dropLoneLinks(md string) string {
	blocks := splitMarkdownBlocks(md)
	kept := blocks[:0]
	for i, b := range blocks {
		switch quote, shared := sharedQuote(b); {
		case shared:
			kept = append(kept, quote)
		case i == 0 || !isLoneLink(b):
			kept = append(kept, b)
		}
	}
	return strings.Join(kept, "\n\n")
}

// tweetIntent matches the address of a link that opens a tweet for the
// reader to send.
var tweetIntent = regexp.MustCompile(`^https?://(www\.)?(twitter|x)\.com/(intent/tweet|share)\b`)

// shareLabel matches a share button's label at the end of a link's text.
var shareLabel = regexp.MustCompile(`(?i)\s*(click to tweet|tweet this)\s*$`)

// sharedQuote returns the words of block when block is one link, of six
// words or more, that opens a tweet of them, with the button's label
// taken off.
func sharedQuote(block string) (string, bool) {
	block = strings.TrimSpace(block)
	var text, target string
	links := 0
	markdownLinks(block, func(start, textStart, textEnd, end int) {
		links++
		if start == 0 && end == len(block) {
			text, target = block[textStart:textEnd], block[textEnd+len("]("):end-1]
		}
	})
	if links != 1 || !tweetIntent.MatchString(target) {
		return "", false
	}
	text = strings.TrimSpace(shareLabel.ReplaceAllString(text, ""))
	if len(strings.Fields(text)) < 6 {
		return "", false
	}
	return text, true
}

// notParagraph matches how headings, list items, quotes, tables, fenced
// code and images start in markdown.
var notParagraph = regexp.MustCompile("^(#{1,6} |[-*+] |\\d+[.)] |>|\\||```|!\\[)")

func isLoneLink(block string) bool {
	block = strings.TrimSpace(block)
	if !strings.Contains(block, "](") || notParagraph.MatchString(block) || strings.Contains(block, "![") {
		return false
	}
	if opensSentence(block) {
		return false
	}
	links, linked, other := linkWords(block)
	return links == 1 && linked >= 2 && float64(linked) >= linkShare*float64(linked+other)
}

// opensSentence reports whether the words before a paragraph's link start
// the sentence the link ends: plain words in lower case ending in a letter
// or a comma ("Yes, [meditation has been shown to …]", "Here’s [how we do
// GA4 reporting]"). A promotion's words are a label: emphasized, in
// capitals or ending with a colon ("**Related:**", "DON'T MISS", "Read
// next:").
func opensSentence(block string) bool {
	before, _, ok := strings.Cut(block, "[")
	before = strings.TrimSpace(before)
	if !ok || before == "" || strings.ContainsAny(before, "*_:|#>") || strings.ToUpper(before) == before {
		return false
	}
	last, _ := utf8.DecodeLastRuneInString(before)
	return last == ',' || unicode.IsLower(last)
}
