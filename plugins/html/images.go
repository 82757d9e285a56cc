package html

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/siftd/sift/plugins/html/visibility"
	"github.com/siftd/sift/plugins/sdk"
)

// OptionImages "true" renders the content's images as ![alt](URL), the
// URL absolute, and the figures within the content with their captions.
const OptionImages = "images"

// OptionBase64Images "true" keeps, with the images option, the images a
// page inlines as data: URIs, each of at most maxInlineImage bytes, as
// ![alt](data:…) (Firecrawl's removeBase64Images false); without it each
// is its alt text.
const OptionBase64Images = "base64_images"

// maxInlineImage bounds one inlined image OptionBase64Images keeps: a
// hostile page may inline megabytes, and a photograph of 64 KiB is
// already some 22,000 tokens of base64. A larger one is its alt text,
// with a warning.
const maxInlineImage = 64 << 10

func imagesOption(opts map[string]string) (bool, error) {
	return boolOption(opts, OptionImages)
}

// boolOption reads the option key: "true", "false" or unset (false).
func boolOption(opts map[string]string, key string) (bool, error) {
	switch v := opts[key]; v {
	case "", "false":
		return false, nil
	case "true":
		return true, nil
	default:
		return false, &sdk.DocError{Class: sdk.ClassBadOption, Message: fmt.Sprintf(`%s %q: want "true" or "false"`, key, v)}
	}
}

// go-trafilatura strips <img> and removes <picture>, so with the images
// option each image the reader sees is marked (objects.go) before it
// reads the page, and rendered as ![alt](URL) after. The URL is the one a
// browser would load: src, else the lazy-loading attributes scripts copy
// into src (data-src, …), else the largest candidate of a srcset or of
// the <picture>'s sources. Tracking pixels (a side of one or two pixels,
// the known beacons' addresses) and icons (both sides 32 pixels or less,
// an icon's class or file) are left out, and so are images inlined as
// data: URIs, which are bytes an agent cannot read (their alt text stays,
// as tidy leaves it), unless OptionBase64Images keeps them.

// lazySources are the attributes lazy-loading scripts copy into src.
var lazySources = []string{"data-src", "nitro-lazy-src", "data-lazy-src", "data-original", "data-lazy", "data-url", "data-hi-res-src", "data-full-src"}

// lazySrcsets are those they copy into srcset.
var lazySrcsets = []string{"srcset", "data-srcset", "data-lazy-srcset"}

// beacons are the addresses of tracking pixels.
var beacons = []string{
	"facebook.com/tr", "google-analytics.com/", "googletagmanager.com/", "doubleclick.net/",
	"scorecardresearch.com/", "bat.bing.com/", "quantserve.com/", "analytics.twitter.com/",
	"t.co/i/adsct", "ads.linkedin.com/", "px.ads.", "/pixel.gif", "/pixel.png", "/pixel?", "/beacon",
	"spacer.gif", "blank.gif", "clear.gif", "transparent.gif", "/1x1.", "pixel.wp.com/", "stats.wp.com/",
}

// markImages marks every image under root the reader sees, but pixels,
// icons and inlined data, as ![alt](URL) against base.
func markImages(root *html.Node, objs *objects, base *url.URL) {
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; {
			next := c.NextSibling
			switch {
			case c.Type != html.ElementNode:
			case c.DataAtom == atom.Picture:
				markPicture(c, objs, base)
			case c.DataAtom == atom.Img:
				markImage(c, c, nil, objs, base)
			case c.DataAtom == atom.Script, c.DataAtom == atom.Style, c.DataAtom == atom.Template,
				c.DataAtom == atom.Noscript, c.DataAtom == atom.Textarea, c.DataAtom == atom.Svg:
			default:
				walk(c)
			}
			c = next
		}
	}
	walk(root)
}

// markPicture marks a <picture> as the image it shows: its <img>, with
// its sources' largest candidate for want of the image's own.
func markPicture(p *html.Node, objs *objects, base *url.URL) {
	img := findElement(p, func(c *html.Node) bool { return c.DataAtom == atom.Img })
	if img == nil {
		p.Parent.RemoveChild(p)
		return
	}
	var sources []*html.Node
	walkElements(p, func(c *html.Node) bool {
		if c.DataAtom == atom.Source {
			sources = append(sources, c)
		}
		return true
	})
	markImage(p, img, sources, objs, base)
}

// markImage replaces n (the image, or the picture holding it) by img's
// marked ![alt](URL); an image left out goes, but an inlined one's alt
// text stays.
func markImage(n, img *html.Node, sources []*html.Node, objs *objects, base *url.URL) {
	src := imageSource(img, sources)
	alt := strings.Join(strings.Fields(attr(img, "alt")), " ")
	switch {
	case strings.HasPrefix(strings.ToLower(src), "data:"):
		markInline(n, img, src, alt, objs)
		return
	case src == "" || isPixel(img, src) || isIcon(img, src):
		n.Parent.RemoveChild(n)
		return
	}
	abs := absoluteURL(base, src)
	if !imageURL(abs, base) {
		n.Parent.RemoveChild(n)
		return
	}
	md := "![" + escapeBrackets(alt) + "](" + linkTargetEscapes.Replace(abs) + ")"
	h := `<img src="` + html.EscapeString(abs) + `" alt="` + html.EscapeString(alt) + `">`
	if a := soleLink(n); a != nil {
		href := strings.TrimSpace(attr(a, "href"))
		md = "[" + md + "](" + linkTarget(base, href) + ")"
		h = `<a href="` + html.EscapeString(absoluteURL(base, href)) + `">` + h + `</a>`
		n = a
	}
	objs.mark(n, "", md, h)
}

// imageURL reports whether abs, an image's URL resolved against the
// page's address base, is one to write: http or https, or, on a page read
// without its address (sift extract on a file), a relative URL, kept as
// the page's relative links are.
func imageURL(abs string, base *url.URL) bool {
	u, err := url.Parse(abs)
	if err != nil {
		return false
	}
	return u.Scheme == "http" || u.Scheme == "https" || u.Scheme == "" && (base == nil || !base.IsAbs())
}

// soleLink is the link n stands alone in (blanks beside it at most), when
// it leads somewhere: a linked image (WordPress's <p><a href="big.jpg"><img
// src="small.jpg"></a></p>) is marked whole, link and all. Marked as a link
// around an image's mark, which weighs nothing, it was a paragraph of link
// text only, and go-trafilatura's link density test removed it.
func soleLink(n *html.Node) *html.Node {
	a := n.Parent
	if a == nil || a.Type != html.ElementNode || a.DataAtom != atom.A || leadsNowhere(attr(a, "href")) {
		return nil
	}
	for c := a.FirstChild; c != nil; c = c.NextSibling {
		if c != n && (c.Type == html.ElementNode || c.Type == html.TextNode && strings.TrimFunc(c.Data, isBlank) != "") {
			return nil
		}
	}
	return a
}

// markInline replaces n, an image inlined as the data: URI src, by its
// alt text, or with OptionBase64Images by its marked ![alt](data:…) when
// it is no pixel or icon and within maxInlineImage (a larger one is
// counted, for the warning).
func markInline(n, img *html.Node, src, alt string, objs *objects) {
	switch {
	case !objs.base64Images || isPixel(img, src) || isIcon(img, src):
		replaceWithText(n, alt)
	case len(src) > maxInlineImage:
		objs.inlineTooLarge++
		replaceWithText(n, alt)
	default:
		md := "![" + escapeBrackets(alt) + "](" + linkTargetEscapes.Replace(src) + ")"
		objs.mark(n, "", md, `<img src="`+html.EscapeString(src)+`" alt="`+html.EscapeString(alt)+`">`)
	}
}

// imageSource is the URL a browser loads for img: its src, unless that is
// missing or a lazy loader's placeholder, else its lazy attributes', else
// its or its sources' largest srcset candidate. Only src and srcset hold
// placeholders: a lazy loader's own attribute is the real image, whatever
// its name says ("img/lazy.jpg"), so it is taken unless it is inlined data.
// Last comes the image of a <noscript> twin beside it (adoptNoscriptImage).
func imageSource(img *html.Node, sources []*html.Node) string {
	src := strings.TrimSpace(attr(img, "src"))
	if src != "" && !isPlaceholder(src) {
		return src
	}
	for _, key := range lazySources {
		if v := strings.TrimSpace(attr(img, key)); v != "" && !isData(v) {
			return v
		}
	}
	for _, n := range append([]*html.Node{img}, sources...) {
		for _, key := range lazySrcsets {
			best := largestCandidate(attr(n, key))
			if best == "" || isData(best) || key == "srcset" && isPlaceholder(best) {
				continue
			}
			return best
		}
	}
	// The image of its <noscript> twin (noscript.go).
	if v := attr(img, noscriptSource); v != "" {
		return v
	}
	return src // a data: URI or a placeholder
}

// isData reports whether ref is an inlined data: URI.
func isData(ref string) bool {
	return len(ref) >= 5 && strings.EqualFold(ref[:5], "data:")
}

// isPlaceholder reports whether src, an image's src or srcset, is what
// lazy loaders put there until the image is in view.
func isPlaceholder(src string) bool {
	if isData(src) {
		return true
	}
	s := strings.ToLower(src)
	for _, p := range []string{"placeholder", "lazy", "spacer.gif", "blank.gif", "transparent.gif", "loading.gif", "grey.gif", "pixel.gif"} {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// isPixel reports whether an image is a tracking pixel: a side of two
// pixels or less, or a beacon's address.
func isPixel(img *html.Node, src string) bool {
	w, h := imageSize(img, "width"), imageSize(img, "height")
	if w > 0 && w <= 2 || h > 0 && h <= 2 || attr(img, "width") == "0" || attr(img, "height") == "0" {
		return true
	}
	s := strings.ToLower(src)
	for _, b := range beacons {
		if strings.Contains(s, b) {
			return true
		}
	}
	return false
}

// isIcon reports whether an image is an icon: both sides 32 pixels or
// less, an icon's or emoji's class, a favicon or an .ico file.
func isIcon(img *html.Node, src string) bool {
	if w, h := imageSize(img, "width"), imageSize(img, "height"); w > 0 && h > 0 && w <= 32 && h <= 32 {
		return true
	}
	for _, c := range strings.Fields(strings.ToLower(attr(img, "class"))) {
		if strings.Contains(c, "icon") || strings.Contains(c, "emoji") {
			return true
		}
	}
	s := strings.ToLower(src)
	if i := strings.IndexAny(s, "?#"); i >= 0 {
		s = s[:i]
	}
	return strings.HasSuffix(s, ".ico") || strings.Contains(s, "favicon")
}

// imageSize reads an image's width or height in pixels, from its
// attribute or its inline style; 0 when neither says.
func imageSize(img *html.Node, side string) int {
	if n := leadingInt(attr(img, side)); n > 0 || strings.TrimSpace(attr(img, side)) == "0" {
		return n
	}
	style := visibility.NormalizeCSS(attr(img, "style"))
	for _, decl := range strings.Split(style, ";") {
		if v, ok := strings.CutPrefix(decl, side+":"); ok && strings.HasSuffix(v, "px") {
			return leadingInt(v)
		}
	}
	return 0
}

// leadingInt reads the digits s starts with ("1px" is 1); 0 for none.
func leadingInt(s string) int {
	s = strings.TrimSpace(s)
	end := 0
	for end < len(s) && end < 9 && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	n, _ := strconv.Atoi(s[:end])
	return n
}

// largestCandidate is the URL of a srcset's largest candidate: the widest
// (w), else the densest (x); candidates without a descriptor count as 1x.
func largestCandidate(srcset string) string {
	best, bestW, bestX := "", -1.0, -1.0
	for _, c := range srcsetCandidates(srcset) {
		switch {
		case c.width > bestW:
			best, bestW, bestX = c.url, c.width, c.density
		case bestW < 0 && c.width < 0 && c.density > bestX:
			best, bestX = c.url, c.density
		}
	}
	return best
}

type candidate struct {
	url            string
	width, density float64 // -1 when not given
}

// srcsetCandidates parses a srcset as the HTML standard does, as far as
// picking the largest needs: a URL (which may hold commas) up to
// whitespace, a URL's trailing commas ending it, then a descriptor up to
// the next comma.
func srcsetCandidates(s string) []candidate {
	var out []candidate
	const maxCandidates = 64
	for i := 0; i < len(s) && len(out) < maxCandidates; {
		for i < len(s) && (isSrcsetSpace(s[i]) || s[i] == ',') {
			i++
		}
		start := i
		for i < len(s) && !isSrcsetSpace(s[i]) {
			i++
		}
		u := s[start:i]
		descriptor := ""
		if trimmed := strings.TrimRight(u, ","); trimmed != u {
			u = trimmed // "a.jpg," ends the candidate
		} else {
			start = i
			for i < len(s) && s[i] != ',' {
				i++
			}
			descriptor = strings.TrimSpace(s[start:i])
		}
		if u == "" {
			continue
		}
		c := candidate{url: u, width: -1, density: 1}
		switch f := strings.Fields(descriptor); {
		case len(f) == 0:
		case strings.HasSuffix(f[0], "w"):
			if w, err := strconv.ParseFloat(strings.TrimSuffix(f[0], "w"), 64); err == nil && w > 0 {
				c.width, c.density = w, -1
			}
		case strings.HasSuffix(f[0], "x"):
			if x, err := strconv.ParseFloat(strings.TrimSuffix(f[0], "x"), 64); err == nil && x > 0 {
				c.density = x
			}
		}
		out = append(out, c)
	}
	return out
}

func isSrcsetSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f'
}

// go-trafilatura removes <figure> whole: one article caption in a hundred
// reached the markdown. With the images option, restoreFigures puts each
// figure that stands within the content back where it stood, as its
// images and its caption. Without it the figures stay out: the
// extraction benchmark's ground truths leave captions out (scrapinghub's
// always), and putting them back cost every set's F1 (bench/html/
// BENCHMARKS.md, 2026-12-03). A figure stands within the content when a
// block of the content comes before it in the page and another after it:
// the figures after an article's text are its teasers and its readers'
// comments' avatars. It reads the page's own tree, which go-trafilatura
// copied, and skips a figure whose caption the content already holds (a
// region of the page taken whole).
func restoreFigures(root, content *html.Node, objs *objects) {
	if !objs.images {
		return
	}
	isFigure := func(c *html.Node) bool { return c.Data == "figure" }
	// A content holding figures is a region of the page taken whole.
	if content == nil || findElement(root, isFigure) == nil || findElement(content, isFigure) != nil {
		return
	}
	blocks := map[string][]*html.Node{} // content's blocks by their words, in order
	longest := 0
	for c := content.FirstChild; c != nil; c = c.NextSibling {
		if w := headingWords(textOf(c)); c.Type == html.ElementNode && w != "" {
			blocks[w], longest = append(blocks[w], c), max(longest, len(w))
		}
	}
	held := headingWords(textOf(content))
	sizes := map[*html.Node]int{}
	textSizes(root, sizes)
	var pending []*html.Node // figures met since the last block of the content
	inContent := false
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if c.DataAtom == atom.Figure {
				// A figure whose own block (a quote) the content holds
				// stands there: its caption goes after that block.
				if own := heldBlock(c, blocks); own != nil {
					for _, f := range pending {
						if fig := figureBlock(f, held); fig != nil {
							own.Parent.InsertBefore(fig, own)
						}
					}
					if fig := figureBlock(c, held); fig != nil {
						own.Parent.InsertBefore(fig, own.NextSibling)
					}
					pending, inContent = pending[:0], true
					continue
				}
				if inContent {
					pending = append(pending, c)
				}
				continue
			}
			if !looseBlocks[c.Data] && !isHeading(c) || sizes[c] > 2*longest+64 {
				walk(c)
				continue
			}
			words := headingWords(textOf(c))
			if len(blocks[words]) == 0 {
				walk(c)
				continue
			}
			anchor := blocks[words][0]
			blocks[words] = blocks[words][1:]
			for _, f := range pending {
				if fig := figureBlock(f, held); fig != nil {
					anchor.Parent.InsertBefore(fig, anchor)
				}
			}
			pending, inContent = pending[:0], true
		}
	}
	walk(root)
}

// heldBlock is the content's block that is one of figure f's own blocks
// (outside its caption), taken from blocks; nil when there is none.
func heldBlock(f *html.Node, blocks map[string][]*html.Node) *html.Node {
	var own *html.Node
	walkElements(f, func(c *html.Node) bool {
		if own != nil || c.DataAtom == atom.Figcaption {
			return false
		}
		if looseBlocks[c.Data] {
			if words := headingWords(textOf(c)); len(blocks[words]) > 0 {
				own = blocks[words][0]
				blocks[words] = blocks[words][1:]
				return false
			}
		}
		return true
	})
	return own
}

// figureBlock is what figure f reads as in the content: a paragraph of its
// images, its quotes (a quote figure's) and a paragraph of its caption;
// only its quotes when the content already holds the caption, nil when it
// holds those too or the figure has nothing to show.
func figureBlock(f *html.Node, held string) *html.Node {
	var caption *html.Node
	var quotes []*html.Node // a quote figure's quotes the content lacks
	walkElements(f, func(c *html.Node) bool {
		switch {
		case c.DataAtom == atom.Figcaption:
			if caption == nil {
				caption = c
			}
			return false
		case c.DataAtom == atom.Blockquote:
			if words := headingWords(textOf(c)); words != "" && !strings.Contains(held, words) {
				quotes = append(quotes, c)
			}
			return false
		}
		return true
	})
	text := ""
	if caption != nil {
		text = headingWords(textOf(caption))
	}
	captionHeld := text != "" && strings.Contains(held, text)
	if captionHeld && len(quotes) == 0 {
		return nil
	}
	block := element(atom.Div)
	// markImages made the figure's images marked texts already.
	if marks := objectMarksIn(f, caption); marks != "" && !captionHeld {
		p := element(atom.P)
		p.AppendChild(&html.Node{Type: html.TextNode, Data: marks})
		block.AppendChild(p)
	}
	for _, q := range quotes {
		block.AppendChild(headingCopy(q))
	}
	if caption != nil && text != "" && !captionHeld {
		p := headingCopy(caption)
		p.Data, p.DataAtom, p.Attr = "p", atom.P, nil
		block.AppendChild(p)
	}
	if block.FirstChild == nil {
		return nil
	}
	return block
}

// objectMarksIn is the marked objects' text under n, outside skip.
func objectMarksIn(n, skip *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c == skip:
			case c.Type == html.TextNode && strings.ContainsRune(c.Data, objectOpen):
				b.WriteString(c.Data)
			case c.Type == html.ElementNode:
				walk(c)
			}
		}
	}
	walk(n)
	return b.String()
}
