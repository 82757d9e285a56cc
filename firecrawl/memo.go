package firecrawl

import (
	"slices"

	"github.com/siftd/sift/stages"
)

// memoPage is the memo name of what a Firecrawl scrape reads from a
// snapshot's body.
const memoPage = "server.page"

// pageOf is readPage of the Doc's body, read once per snapshot in memory.
// Each caller gets its own slice of links.
func pageOf(doc *stages.Doc) pageInfo {
	resp := doc.Response
	if doc.Memo == nil {
		return readPage(resp.Body, resp.FinalURL)
	}
	v, ok := doc.Memo.Load(memoPage)
	if !ok {
		page := readPage(resp.Body, resp.FinalURL)
		size := int64(len(page.Favicon))
		for _, l := range page.Links {
			size += int64(len(l))
		}
		for k, v := range page.Meta {
			size += int64(len(k) + len(v))
		}
		for _, c := range page.Cuts {
			size += int64(len(c))
		}
		doc.Memo.Store(memoPage, page, size)
		v = page
	}
	page := v.(pageInfo)
	page.Links = slices.Clone(page.Links)
	return page
}
