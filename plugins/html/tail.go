package html

import (
	"regexp"
	"strings"
)

// mdLink matches a markdown link, capturing its text.
var mdLink = regexp.MustCompile(`\[((?:\\.|[^\]\\])*)\]\([^)]*\)`)

// dropLinkTail removes the blocks at the end of md that are nothing but
// links (three or more, holding 85% of the block's words): tag clouds,
// "read next" lists and share rows that follow the content. Only the tail
// goes: a list of links inside the content may be its point.
// Scrapinghub 0.963 → 0.964, WCXB unchanged (README).
func dropLinkTail(md string) string {
	blocks := splitMarkdownBlocks(md)
	end := len(blocks)
	for end > 1 && isLinkList(blocks[end-1]) {
		end--
	}
	return strings.Join(blocks[:end], "\n\n")
}

func isLinkList(block string) bool {
	if strings.HasPrefix(strings.TrimSpace(block), "```") {
		return false // code shows links as text
	}
	links := mdLink.FindAllStringSubmatch(block, -1)
	if len(links) < 3 {
		return false
	}
	linked := 0
	for _, l := range links {
		linked += len(strings.Fields(l[1]))
	}
	rest := mdLink.ReplaceAllString(block, "")
	other := len(strings.FieldsFunc(rest, func(r rune) bool { return !isWordRune(r) }))
	return float64(linked) >= 0.85*float64(linked+other)
}

func isWordRune(r rune) bool {
	return r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127
}

// splitMarkdownBlocks splits md at blank lines, keeping fenced code whole.
func splitMarkdownBlocks(md string) []string {
	var blocks, cur []string
	inFence := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
		}
		if !inFence && strings.TrimSpace(line) == "" {
			if len(cur) > 0 {
				blocks = append(blocks, strings.Join(cur, "\n"))
				cur = nil
			}
			continue
		}
		cur = append(cur, line)
	}
	if len(cur) > 0 {
		blocks = append(blocks, strings.Join(cur, "\n"))
	}
	return blocks
}
