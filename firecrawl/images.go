package firecrawl

import (
	"bytes"
	"net/url"
	"regexp"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Firecrawl's images format lists the image URLs a page names: its
// images' src, lazy-loading and srcset candidates, its <picture>s'
// sources, video posters, the images its meta tags and links name (Open
// Graph, Twitter cards, icons), and inline background images; absolute,
// http(s) only (an inlined data: image is bytes, not a URL), each once.

// maxImages bounds the list: a hostile page may name millions.
const maxImages = 10_000

// imageList gathers a page's image references as the tokenizer meets
// them; they are resolved at the end, against the page's <base> if it has
// one.
type imageList struct {
	refs    []string
	seen    map[string]bool
	picture int // inside a <picture>, whose <source>s are images
}

// imageMeta are the meta tags that name the page's image.
var imageMeta = map[string]bool{
	"og:image": true, "og:image:url": true, "og:image:secure_url": true,
	"twitter:image": true, "twitter:image:src": true,
}

// imageSources are an <img>'s attributes that hold a URL.
var imageSources = []string{"src", "data-src", "data-lazy-src", "data-original"}

// imageSrcsets are those that hold a srcset.
var imageSrcsets = []string{"srcset", "data-srcset"}

var backgroundImage = regexp.MustCompile(`(?i)background(?:-image)?\s*:[^;]*?url\(\s*['"]?([^'")]+)['"]?\s*\)`)

func (l *imageList) ref(v string) {
	if v = strings.TrimSpace(v); v != "" && len(l.refs) < maxImages && !l.seen[v] {
		l.seen[v] = true
		l.refs = append(l.refs, v)
	}
}

// add notes the images tok names; start says it opens an element.
func (l *imageList) add(tok html.Token, start bool) {
	switch tok.DataAtom {
	case atom.Img:
		for _, k := range imageSources {
			l.ref(attr(tok, k))
		}
		for _, k := range imageSrcsets {
			l.srcset(attr(tok, k))
		}
	case atom.Picture:
		if start {
			l.picture++
		}
	case atom.Source:
		if l.picture > 0 {
			l.srcset(attr(tok, "srcset"))
		}
	case atom.Video:
		l.ref(attr(tok, "poster"))
	case atom.Meta:
		name := strings.ToLower(attr(tok, "property"))
		if name == "" {
			name = strings.ToLower(attr(tok, "name"))
		}
		if imageMeta[name] || strings.EqualFold(attr(tok, "itemprop"), "image") {
			l.ref(attr(tok, "content"))
		}
	case atom.Link:
		for _, rel := range strings.Fields(strings.ToLower(attr(tok, "rel"))) {
			if rel == "icon" || rel == "apple-touch-icon" || rel == "image_src" {
				l.ref(attr(tok, "href"))
				break
			}
		}
	}
	if style := attr(tok, "style"); style != "" {
		for _, m := range backgroundImage.FindAllStringSubmatch(style, 8) {
			l.ref(m[1])
		}
	}
}

// addMarkup notes the images the markup b names (a <noscript>'s).
func (l *imageList) addMarkup(b []byte) {
	defer func(picture int) { l.picture = picture }(l.picture)
	z := html.NewTokenizer(bytes.NewReader(b))
	for {
		switch tt := z.Next(); tt {
		case html.ErrorToken:
			return
		case html.StartTagToken, html.SelfClosingTagToken:
			l.add(z.Token(), tt == html.StartTagToken)
		case html.EndTagToken:
			if name, _ := z.TagName(); string(name) == "picture" {
				l.picture = max(l.picture-1, 0)
			}
		}
	}
}

// srcset notes every candidate of a srcset: a URL (which may hold commas)
// up to whitespace, a trailing comma ending it, then a descriptor up to
// the next comma.
func (l *imageList) srcset(s string) {
	for i := 0; i < len(s); {
		for i < len(s) && (isSpace(s[i]) || s[i] == ',') {
			i++
		}
		start := i
		for i < len(s) && !isSpace(s[i]) {
			i++
		}
		u := s[start:i]
		if trimmed := strings.TrimRight(u, ","); trimmed != u {
			u = trimmed
		} else {
			for i < len(s) && s[i] != ',' {
				i++
			}
		}
		l.ref(u)
	}
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' }

// resolve is the list of absolute http(s) URLs, each once.
func (l *imageList) resolve(base *url.URL) []string {
	out := []string{}
	seen := map[string]bool{}
	for _, r := range l.refs {
		if u := absolute(base, r); u != "" && !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	return out
}
