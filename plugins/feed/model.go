package feed

import (
	"encoding/xml"
	"strings"
)

// document is any of the three roots: RSS 0.9x and 2.0's <rss> (items in
// the channel), RSS 1.0's <rdf:RDF> (items beside it) and Atom's <feed>
// (entries in it). encoding/xml matches a field without a namespace on
// the local name in any namespace, so one shape reads all three.
type document struct {
	XMLName  xml.Name
	Channel  *channel `xml:"channel"`
	Items    []item   `xml:"item"`
	Entries  []item   `xml:"entry"`
	Title    text     `xml:"title"`
	Subtitle text     `xml:"subtitle"`
	Links    []link   `xml:"link"`
	Updated  string   `xml:"updated"`
}

type channel struct {
	Title       text   `xml:"title"`
	Description text   `xml:"description"`
	Links       []link `xml:"link"`
	Items       []item `xml:"item"`
}

// item is an RSS item or an Atom entry.
type item struct {
	Title       text   `xml:"title"`
	Links       []link `xml:"link"`
	GUID        guid   `xml:"guid"`
	Description text   `xml:"description"`
	Encoded     string `xml:"http://purl.org/rss/1.0/modules/content/ encoded"`
	Summary     text   `xml:"summary"`
	Content     text   `xml:"content"`
	PubDate     string `xml:"pubDate"`
	DCDate      string `xml:"http://purl.org/dc/elements/1.1/ date"`
	Published   string `xml:"published"`
	Updated     string `xml:"updated"`
	About       string `xml:"http://www.w3.org/1999/02/22-rdf-syntax-ns# about,attr"`
}

// text is an element whose type says how to read it: Atom's "text",
// "html" or "xhtml" (markup inline), RSS's escaped HTML.
type text struct {
	Type  string `xml:"type,attr"`
	Chars string `xml:",chardata"`
	Inner string `xml:",innerxml"`
}

// html returns the element as HTML to convert, and whether it is markup
// at all (Atom's type="text" is not).
func (t text) html() (string, bool) {
	switch strings.ToLower(t.Type) {
	case "xhtml", "application/xhtml+xml":
		return t.Inner, true
	case "text", "text/plain":
		return t.Chars, false
	}
	return t.Chars, true
}

// link is RSS's <link>URL</link> or Atom's <link href rel/>.
type link struct {
	Href string `xml:"href,attr"`
	Rel  string `xml:"rel,attr"`
	Text string `xml:",chardata"`
}

type guid struct {
	IsPermaLink string `xml:"isPermaLink,attr"`
	Text        string `xml:",chardata"`
}

// url picks the page a feed or item links to: RSS's element text, else
// Atom's alternate link (rel="alternate" or no rel), else a permalink
// guid, else RSS 1.0's rdf:about.
func pageURL(links []link, g guid, about string) string {
	for _, l := range links {
		if s := strings.TrimSpace(l.Text); s != "" && l.Href == "" {
			return s
		}
	}
	for _, l := range links {
		if rel := strings.ToLower(strings.TrimSpace(l.Rel)); l.Href != "" && (rel == "" || rel == "alternate") {
			return strings.TrimSpace(l.Href)
		}
	}
	if s := strings.TrimSpace(g.Text); s != "" && !strings.EqualFold(g.IsPermaLink, "false") &&
		(strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")) {
		return s
	}
	return strings.TrimSpace(about)
}
