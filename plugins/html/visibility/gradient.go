package visibility

import (
	"strings"

	"github.com/andybalholm/cascadia"
	"github.com/siftd/sift/plugins/html/internal/dom"
	"golang.org/x/net/html"
)

// Gradient text is written transparent over a background clipped to the
// letters ("background-clip: text; color: transparent", Tailwind's
// bg-clip-text text-transparent bg-gradient-to-r): the letters show the
// background. A transparent colour hides nothing on an element whose
// background, of its own, is clipped so.

// byColourAlone reports whether declarations hide their element's text by
// its colour alone (transparent, or its background's): without the
// colour, they would not.
func byColourAlone(d map[string]string) bool {
	if !invisibleDecls(d) {
		return false
	}
	rest := make(map[string]string, len(d))
	for k, v := range d {
		if k != "color" && k != "-webkit-text-fill-color" {
			rest[k] = v
		}
	}
	return !invisibleDecls(rest)
}

// gradientText reports whether n's background, which it has of its own,
// is clipped to its text, by its style or a rule of the stylesheets.
func (r *Rules) gradientText(n *html.Node) bool {
	if r.ownBackground(n) == "" && !r.paintedBySheet(n) {
		return false
	}
	if clipsToText(Declarations(dom.Attr(n, "style"))) {
		return true
	}
	clips, found := r.textClips(), false
	r.clipIndex.each(n, func(i int) bool {
		found = r.match(clips[i], n)
		return !found
	})
	return found
}

// clipsToText reports whether declarations clip the background to the
// text.
func clipsToText(d map[string]string) bool {
	return strings.Contains(d["background-clip"], "text") || strings.Contains(d["-webkit-background-clip"], "text")
}

// textClips returns the selectors of the rules of the stylesheets that
// clip the background to the text, read once for the page when first
// needed.
func (r *Rules) textClips() []cascadia.Sel {
	if r.clipsRead {
		return r.clipRules
	}
	r.clipsRead = true
	declaringRules(r.sheets, r.lower, []string{"background-clip", "-webkit-background-clip"}, startsProperty, func(rule declared) {
		if !clipsToText(rule.decls) {
			return
		}
		for _, text := range rule.selectors {
			if sel, ok := parseSelector(text); ok {
				r.clipIndex.add(len(r.clipRules), text)
				r.clipRules = append(r.clipRules, sel)
			}
		}
	})
	return r.clipRules
}
