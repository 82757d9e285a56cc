package feed

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2/converter"

	"github.com/siftd/sift/plugins/sdk"
)

// renderer writes one feed as markdown and collects its links.
type renderer struct {
	md    *htmltomarkdown.Converter
	links *sdk.Links
	base  string
	b     strings.Builder
	cut   int // summaries cut at MaxSummary
}

// render writes the feed's head, then each item, and the warnings of what
// it cut.
func (r *renderer) render(ctx context.Context, f *feed) (string, []string) {
	if f.title != "" {
		fmt.Fprintf(&r.b, "# %s\n\n", f.title)
	}
	link := r.link(f.link, r.base)
	if desc := r.summary(ctx, f.description, link); desc != "" {
		r.b.WriteString(desc + "\n\n")
	}
	if line := byline(date(f.updated), link); line != "" {
		r.b.WriteString(line + "\n\n")
	}
	var warnings []string
	items := f.items
	if len(items) > MaxItems {
		warnings = append(warnings, fmt.Sprintf("feed cut at %d of %d items", MaxItems, len(items)))
		items = items[:MaxItems]
	}
	for i, it := range items {
		if i%64 == 0 && ctx.Err() != nil {
			break
		}
		r.item(ctx, it, link)
	}
	if r.cut > 0 {
		warnings = append(warnings, fmt.Sprintf("%d item summaries cut at %d bytes", r.cut, MaxSummary))
	}
	return strings.TrimSpace(r.b.String()), warnings
}

// item writes one item: its title as a heading, its date and link, its
// content (else its summary or description).
func (r *renderer) item(ctx context.Context, it item, feedLink string) {
	link := r.link(pageURL(it.Links, it.GUID, it.About), feedLink)
	title := cleanText(it.Title)
	if title == "" {
		title = "(untitled)"
	}
	fmt.Fprintf(&r.b, "## %s\n\n", title)
	when := firstOf(it.PubDate, it.Published, it.DCDate, it.Updated)
	if line := byline(date(when), link); line != "" {
		r.b.WriteString(line + "\n\n")
	}
	body := it.Content
	switch {
	case strings.TrimSpace(it.Encoded) != "":
		body = text{Chars: it.Encoded}
	case strings.TrimSpace(body.Chars) == "" && strings.TrimSpace(body.Inner) == "":
		body = firstText(it.Summary, it.Description)
	}
	base := link
	if base == "" {
		base = feedLink
	}
	if s := r.summary(ctx, body, base); s != "" {
		r.b.WriteString(s + "\n\n")
	}
}

// summary converts an element's HTML (or text) to markdown, capped.
func (r *renderer) summary(ctx context.Context, t text, base string) string {
	h, markup := t.html()
	if strings.TrimSpace(h) == "" {
		return ""
	}
	var md string
	if markup {
		md = r.markdown(ctx, h, base)
	} else {
		md = strings.TrimSpace(h)
	}
	if cut, ok := sdk.Truncate(md, MaxSummary); ok {
		r.cut++
		md = strings.TrimSpace(cut) + " …"
	}
	return md
}

// link resolves an item's or the feed's link and collects it.
func (r *renderer) link(ref, base string) string {
	if ref == "" {
		return ""
	}
	abs, ok := sdk.NewLinks(base).Add(ref)
	if !ok {
		return ""
	}
	r.links.Add(abs)
	return abs
}

func byline(when, link string) string {
	switch {
	case when != "" && link != "":
		return when + " · " + link
	case when != "":
		return when
	}
	return link
}

func firstOf(s ...string) string {
	for _, v := range s {
		if v = strings.TrimSpace(v); v != "" {
			return v
		}
	}
	return ""
}

func firstText(ts ...text) text {
	for _, t := range ts {
		if strings.TrimSpace(t.Chars) != "" || strings.TrimSpace(t.Inner) != "" {
			return t
		}
	}
	return text{}
}

// dateLayouts are the forms feeds write dates in: RFC 822 and its
// variants for RSS, RFC 3339 for Atom and Dublin Core.
var dateLayouts = []string{
	time.RFC1123Z, time.RFC1123, "Mon, 2 Jan 2006 15:04:05 -0700", "Mon, 2 Jan 2006 15:04:05 MST",
	"2 Jan 2006 15:04:05 -0700", "2 Jan 2006 15:04:05 MST", "Mon, 2 Jan 2006 15:04 -0700", time.RFC822Z, time.RFC822,
	time.RFC3339Nano, time.RFC3339, "2006-01-02T15:04:05", "2006-01-02",
}

// date writes a feed's date as RFC 3339 when it parses, else as given.
func date(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	for _, layout := range dateLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			if layout == "2006-01-02" {
				return t.Format(layout)
			}
			return t.Format(time.RFC3339)
		}
	}
	return strings.Join(strings.Fields(s), " ")
}

// sdkResolve is sdk.Resolve against a base given as a string.
func sdkResolve(base, ref string) (string, bool) {
	u, err := url.Parse(base)
	if err != nil || !u.IsAbs() {
		u = nil
	}
	return sdk.Resolve(u, ref)
}
