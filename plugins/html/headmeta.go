package html

import (
	"strings"
	"time"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// headMetadata reads the metadata a page declares in its <head> (its
// <meta> tags, canonical link and language), for the pages whose main
// content is not sought for their size (bounded.go) or not found: without
// go-trafilatura's reading they came back with no metadata at all. It
// reads what go-trafilatura reads first, under the same keys; the bylines
// and dates it finds in the body are not looked for.
func headMetadata(root *html.Node, title string) map[string]string {
	m := map[string]string{}
	set := func(k, v string) {
		if v = strings.Join(strings.Fields(restoreSpaces(v)), " "); v != "" && m[k] == "" {
			m[k] = v
		}
	}
	if head := findElement(root, func(n *html.Node) bool { return n.DataAtom == atom.Head }); head != nil {
		for n := head.FirstChild; n != nil; n = n.NextSibling {
			if n.Type != html.ElementNode {
				continue
			}
			if n.DataAtom == atom.Link && strings.EqualFold(strings.TrimSpace(attr(n, "rel")), "canonical") {
				set("url", attr(n, "href"))
				continue
			}
			if n.DataAtom != atom.Meta {
				continue
			}
			key := strings.ToLower(strings.TrimSpace(attr(n, "property")))
			if key == "" {
				key = strings.ToLower(strings.TrimSpace(attr(n, "name")))
			}
			content := attr(n, "content")
			switch key {
			case "og:title", "twitter:title":
				set("title", content)
			case "description", "og:description", "twitter:description":
				set("description", content)
			case "author", "article:author", "dc.creator":
				if !strings.Contains(content, "://") {
					set("author", content)
				}
			case "og:site_name", "application-name":
				set("site_name", content)
			case "og:url":
				set("url", content)
			case "article:published_time", "date", "dc.date", "pubdate", "publish_date":
				if d := metaDate(content); d != "" {
					set("date", d)
				}
			}
		}
	}
	set("title", title)
	if h := findElement(root, func(n *html.Node) bool { return n.DataAtom == atom.Html }); h != nil {
		lang, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(attr(h, "lang"))), "-")
		set("language", lang)
	}
	if len(m) == 0 {
		return nil
	}
	return m
}

// metaDate is a <meta>'s date as YYYY-MM-DD, or "" when it is none.
func metaDate(v string) string {
	v = strings.TrimSpace(v)
	if len(v) < 10 {
		return ""
	}
	if t, err := time.Parse("2006-01-02", v[:10]); err == nil {
		return t.Format("2006-01-02")
	}
	return ""
}
