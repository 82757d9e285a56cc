package html

import "strings"

// mdLinkText matches the text of a markdown link: escapes, or anything but
// a closing bracket.
const mdLinkText = `(?:\\.|[^\]\\])*`

// isFence reports whether line opens or closes fenced code.
func isFence(line string) bool { return strings.HasPrefix(strings.TrimSpace(line), "```") }

// dropLinkTail removes the blocks at the end of md that are nothing but
// links (three or more, holding 85% of the block's words): tag clouds,
// "read next" lists and share rows that follow the content. Only the tail
// goes: a list of links inside the content may be its point.
//
// On an article, a line or two after such blocks (tailWords at most) goes
// with them: an article's tags come after its last paragraph, and what
// follows them is a comment policy, a copyright or a credit line. Not on
// other pages: there it cut a shop's and a manual's content; and a longer
// tail cut articles' real paragraphs.
const tailWords = 30

func dropLinkTail(md string, article, images bool) string {
	blocks := splitMarkdownBlocks(md)
	text, at := tailText(blocks, images)
	end := linkTailStart(text, len(text), images)
	if article && end == len(text) {
		if last := shortTailStart(text, images); last < end {
			end = linkTailStart(text, last, images)
		}
	}
	if end == len(text) {
		return strings.Join(blocks, "\n\n")
	}
	// The blocks of images among the tail stay (tailimages.go).
	kept := blocks[:at[end]]
	for i, k := at[end], end; i < len(blocks); i++ {
		if k < len(at) && at[k] == i {
			k++
			continue
		}
		kept = append(kept, blocks[i])
	}
	return strings.Join(kept, "\n\n")
}

// tailText returns the blocks the tail is sought among, and where each
// stands in blocks: all of them, or with images those that hold more than
// images (tailimages.go).
func tailText(blocks []string, images bool) (text []string, at []int) {
	for i, b := range blocks {
		if !images || !isImageBlock(b) {
			text, at = append(text, b), append(at, i)
		}
	}
	return text, at
}

// linkTailStart returns where the link blocks that end blocks[:end] start,
// keeping the first block whatever it is.
func linkTailStart(blocks []string, end int, images bool) int {
	for end > 1 && isTailLinks(blocks[end-1], images) {
		end--
	}
	return end
}

// shortTailStart returns where the last blocks holding no more than
// tailWords words start, when link blocks come just before them, and
// len(blocks) otherwise.
func shortTailStart(blocks []string, images bool) int {
	words := 0
	for k := len(blocks); k > 1; k-- {
		if isTailLinks(blocks[k-1], images) {
			if k == len(blocks) {
				break
			}
			return k
		}
		if words += len(strings.Fields(blocks[k-1])); words > tailWords {
			break
		}
	}
	return len(blocks)
}

// isTailLinks reports whether block is a block of links that may end the
// content: with images, judged without them (tailimages.go).
func isTailLinks(block string, images bool) bool {
	if images {
		block, _ = withoutImages(block)
	}
	return isLinkList(block)
}

func isLinkList(block string) bool {
	if isFence(block) {
		return false // code shows links as text
	}
	links, linked, other, questions := linkCounts(block)
	if links > 0 && questions == links {
		return false // an FAQ's index is content
	}
	return links >= 3 && float64(linked) >= linkShare*float64(linked+other)
}

// linkShare is the share of a block's words in links above which the
// block is nothing but links.
const linkShare = 0.85

// linkWords counts the markdown links in block, the words of their texts
// (a URL written out is one) and the words outside them.
func linkWords(block string) (links, linked, other int) {
	links, linked, other, _ = linkCounts(block)
	return links, linked, other
}

// linkCounts is linkWords, and counts the links that are questions too:
// when every link of a block is one, the block is an FAQ's index, whose
// questions lead to the page's own answers (a town's building department
// lists "How do I know if I need a permit?" and fifteen more); tags and
// "read next" lists name topics and titles, and a title that asks is one
// among them. One pass over the block's links (markdownLinks): the three
// it took (the questions, the links' words, the words left) cost a 4 MB
// gallery's markdown 1.3 s of CPU.
func linkCounts(block string) (links, linked, other, questions int) {
	var rest strings.Builder
	at := 0
	markdownLinks(block, func(start, textStart, textEnd, end int) {
		links++
		text := block[textStart:textEnd]
		linked += len(strings.Fields(text))
		if strings.HasSuffix(strings.TrimSpace(text), "?") {
			questions++
		}
		rest.WriteString(block[at:start])
		at = end
	})
	if links == 0 {
		return 0, 0, len(strings.FieldsFunc(block, isWordSeparator)), 0
	}
	rest.WriteString(block[at:])
	other = len(strings.FieldsFunc(rest.String(), isWordSeparator))
	return links, linked, other, questions
}

func isWordSeparator(r rune) bool { return !isWordRune(r) }

func isWordRune(r rune) bool {
	return r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127
}

// splitMarkdownBlocks splits md at blank lines, keeping fenced code whole.
func splitMarkdownBlocks(md string) []string {
	var blocks, cur []string
	inFence := false
	for _, line := range strings.Split(md, "\n") {
		if isFence(line) {
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
