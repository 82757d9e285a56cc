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
func dropLoneLinks(md string) string {
	blocks := splitMarkdownBlocks(md)
	kept := blocks[:0]
	for i, b := range blocks {
		if i == 0 || !isLoneLink(b) {
			kept = append(kept, b)
		}
	}
	return strings.Join(kept, "\n\n")
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
