package firecrawl

import (
	"bytes"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/siftd/sift/stages/extract"
)

// pageInfo is what Firecrawl reads from a page beside its content: every
// link, and the head's meta tags and icon.
type pageInfo struct {
	// Links are the page's http(s) links, absolute, without repeats, in
	// page order.
	Links []string
	// Images are the page's http(s) image URLs (images.go), absolute,
	// without repeats, in page order: Firecrawl's images format.
	Images []string
	// Meta holds the head's meta tags Firecrawl reports (reported), by
	// name as written (the first of a name wins).
	Meta    map[string]string
	Favicon string
	// Title is the document's <title>, its spaces collapsed.
	Title string
	// Cuts name what of the head was cut to its bound, for the answer's
	// warning.
	Cuts []string
}

// maxMetaTags bounds the meta tags read from a page. A page's head is
// the page's to write: its title and each tag are cut to the extract
// stage's bounds, as a hostile megabyte of title came back whole, and
// each cut is named.
const maxMetaTags = 256

// reported reports whether Firecrawl reports a meta tag of this name: only
// those are read, so tags of other names cannot crowd them out.
func reported(name string) bool {
	switch name {
	case "description", "keywords", "robots":
		return true
	}
	return strings.HasPrefix(name, "og:") || strings.HasPrefix(name, "twitter:") || strings.HasPrefix(name, "article:")
}

// readPage reads an HTML page's links and head. base is the URL the page
// was fetched from; the page's first <base href> replaces it, for every
// URL of the page wherever it stands, as in a browser, so the URLs are
// resolved once the whole page is read.
func readPage(body []byte, base string) pageInfo {
	info := pageInfo{Links: []string{}, Images: []string{}, Meta: map[string]string{}}
	baseURL, err := url.Parse(base)
	if err != nil {
		return info
	}
	var hrefs []string // the links' href attributes, in the page's order
	favicon := ""
	baseSeen := false
	images := imageList{seen: map[string]bool{}}
	skipped := 0 // meta tags past maxMetaTags
	z := html.NewTokenizer(bytes.NewReader(body))
	svg := 0 // a <title> inside an <svg> names the drawing
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			if skipped > 0 {
				info.Cuts = append(info.Cuts, fmt.Sprintf("read the first %d of the page's %d meta tags Firecrawl reports", maxMetaTags, maxMetaTags+skipped))
			}
			info.Links = resolveLinks(baseURL, hrefs)
			info.Favicon = absolute(baseURL, favicon)
			info.Images = images.resolve(baseURL)
			return info
		}
		if tt == html.EndTagToken {
			switch name, _ := z.TagName(); string(name) {
			case "svg":
				svg = max(svg-1, 0)
			case "picture":
				images.picture = max(images.picture-1, 0)
			}
			continue
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		tok := z.Token()
		images.add(tok, tt == html.StartTagToken)
		switch tok.DataAtom {
		case atom.Svg:
			if tt == html.StartTagToken {
				svg++
			}
		case atom.Noscript:
			// The tokenizer reads a <noscript> as raw text, as a browser
			// with scripts does; a lazy image's real URL is often only
			// there (its twin for readers without scripts).
			if tt == html.StartTagToken && z.Next() == html.TextToken {
				images.addMarkup(z.Text())
			}
		case atom.Title:
			if svg == 0 && info.Title == "" && tt == html.StartTagToken && z.Next() == html.TextToken {
				info.Title = info.bounded("the page's <title>", strings.Join(strings.Fields(string(z.Text())), " "), extract.MaxTitleBytes)
			}
		case atom.Base:
			if href := attr(tok, "href"); href != "" && !baseSeen {
				baseSeen = true
				if u, err := baseURL.Parse(href); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
					baseURL = u
				}
			}
		case atom.A, atom.Area:
			hrefs = append(hrefs, attr(tok, "href"))
		case atom.Meta:
			name := attr(tok, "property")
			if name == "" {
				name = attr(tok, "name")
			}
			name = strings.ToLower(strings.TrimSpace(name))
			if _, dup := info.Meta[name]; !reported(name) || dup {
				break
			}
			if len(info.Meta) == maxMetaTags {
				skipped++
				break
			}
			info.Meta[name] = info.bounded(fmt.Sprintf("meta tag %q", name), strings.TrimSpace(attr(tok, "content")), extract.MaxMetadataBytes)
		case atom.Link:
			rel := strings.Fields(strings.ToLower(attr(tok, "rel")))
			if favicon == "" && (slices.Contains(rel, "icon") || slices.Contains(rel, "apple-touch-icon")) {
				favicon = attr(tok, "href")
			}
		}
	}
}

// resolveLinks resolves hrefs against base: the http(s) links, each once,
// in the page's order.
func resolveLinks(base *url.URL, hrefs []string) []string {
	links := []string{}
	seen := map[string]bool{}
	for _, href := range hrefs {
		if link := absolute(base, href); link != "" && !seen[link] {
			seen[link] = true
			links = append(links, link)
		}
	}
	return links
}

// bounded cuts v to max bytes, and names the cut of what in Cuts.
func (info *pageInfo) bounded(what, v string, max int64) string {
	cut, warning := extract.Bound(what, v, max)
	if warning != "" {
		info.Cuts = append(info.Cuts, warning)
	}
	return cut
}

// absolute resolves href against base; only http(s) links count.
func absolute(base *url.URL, href string) string {
	href = strings.TrimSpace(href)
	if href == "" {
		return ""
	}
	u, err := base.Parse(href)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return ""
	}
	return u.String()
}

func attr(tok html.Token, name string) string {
	for _, a := range tok.Attr {
		if a.Key == name {
			return a.Val
		}
	}
	return ""
}
