package server

import (
	"bytes"
	"net/url"
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/stages/extract"
)

// pageInfo is what Firecrawl reads from a page beside its content: every
// link, and the head's meta tags and icon.
type pageInfo struct {
	// Links are the page's http(s) links, absolute, without repeats, in
	// page order.
	Links []string
	// Meta holds the head's named meta tags, og:* and twitter:* among
	// them, by name as written (the first of a name wins).
	Meta    map[string]string
	Favicon string
	// Title is the document's <title>, its spaces collapsed.
	Title string
}

// maxMetaTags bounds the meta tags read from a page. A page's head is
// the page's to write: its title and each tag are cut to the extract
// stage's bounds, as a hostile megabyte of title came back whole.
const maxMetaTags = 256

// readPage reads an HTML page's links and head. base is the URL the page
// was fetched from; a <base href> replaces it.
func readPage(body []byte, base string) pageInfo {
	info := pageInfo{Links: []string{}, Meta: map[string]string{}}
	baseURL, err := url.Parse(base)
	if err != nil {
		return info
	}
	seen := map[string]bool{}
	z := html.NewTokenizer(bytes.NewReader(body))
	svg := 0 // a <title> inside an <svg> names the drawing
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return info
		}
		if tt == html.EndTagToken {
			if name, _ := z.TagName(); string(name) == "svg" && svg > 0 {
				svg--
			}
			continue
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		tok := z.Token()
		switch tok.DataAtom {
		case atom.Svg:
			if tt == html.StartTagToken {
				svg++
			}
		case atom.Title:
			if svg == 0 && info.Title == "" && tt == html.StartTagToken && z.Next() == html.TextToken {
				info.Title, _ = sdk.Truncate(strings.Join(strings.Fields(string(z.Text())), " "), extract.MaxTitleBytes)
			}
		case atom.Base:
			if u, err := baseURL.Parse(attr(tok, "href")); err == nil && attr(tok, "href") != "" {
				baseURL = u
			}
		case atom.A, atom.Area:
			if link := absolute(baseURL, attr(tok, "href")); link != "" && !seen[link] {
				seen[link] = true
				info.Links = append(info.Links, link)
			}
		case atom.Meta:
			name := attr(tok, "property")
			if name == "" {
				name = attr(tok, "name")
			}
			name = strings.ToLower(strings.TrimSpace(name))
			if _, dup := info.Meta[name]; name != "" && !dup && len(info.Meta) < maxMetaTags {
				info.Meta[name], _ = sdk.Truncate(strings.TrimSpace(attr(tok, "content")), extract.MaxMetadataBytes)
			}
		case atom.Link:
			rel := strings.Fields(strings.ToLower(attr(tok, "rel")))
			if info.Favicon == "" && (slices.Contains(rel, "icon") || slices.Contains(rel, "apple-touch-icon")) {
				info.Favicon = absolute(baseURL, attr(tok, "href"))
			}
		}
	}
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
