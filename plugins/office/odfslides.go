package office

import (
	"fmt"
	"strings"

	"github.com/siftd/sift/plugins/markdown"
	"github.com/siftd/sift/plugins/zipdoc"
)

// slidePage is an ODF presentation's page being read: its title frame's
// text, its other content written to a writer of its own (the title may
// come after it), its notes.
type slidePage struct {
	r                           *reader
	w                           *markdown.Writer
	out                         *blocks
	title, notes                []string
	inTitle, inOutline, inNotes bool
}

func newSlidePage(r *reader) *slidePage {
	w := markdown.NewWriter(r.outputLeft())
	return &slidePage{r: r, w: w, out: newBlocks(w)}
}

// write writes the page as slide n: its heading, its content, its notes.
func (p *slidePage) write(n int) {
	p.out.flushCode()
	heading := fmt.Sprintf("Slide %d", n)
	if t := strings.Join(p.title, " "); t != "" {
		heading += ": " + t
	}
	p.r.w.Heading(2, heading)
	p.r.w.Block(p.w.String())
	if len(p.notes) > 0 {
		p.r.w.Paragraph("**Notes:** " + strings.Join(p.notes, "  \n"))
	}
}

// odfMeta reads meta.xml's title, author and dates.
func odfMeta(a *zipdoc.Archive) (map[string]string, error) {
	meta := map[string]string{}
	if !a.Has("meta.xml") {
		return meta, nil
	}
	keys := map[string]string{"title": "title", "creator": "author", "initial-creator": "author", "subject": "subject",
		"description": "description", "keyword": "keywords", "creation-date": "created", "date": "modified", "language": "language"}
	return meta, readFlat(a, "meta.xml", keys, meta)
}
