// Package epub is the built-in extractor for e-books (EPUB 2 and 3): the
// chapters in spine order as markdown, each XHTML document read through
// golang.org/x/net/html's streaming tokenizer, with the package's
// metadata (title, author, language, publisher, date) and the book's
// links. The zip is opened under zipdoc's bounds.
package epub

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/siftd/sift/plugins/markdown"
	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/plugins/zipdoc"
)

// DefaultMaxOutput applies when the request sets no cap.
const DefaultMaxOutput = 1 << 20

const mediaType = "application/epub+zip"

// maxChapters bounds the spine items read.
const maxChapters = 10_000

// Extractor reads EPUB books.
type Extractor struct{ sdk.NoConfig }

// New returns the epub extractor.
func New() sdk.Extractor { return &Extractor{} }

// Info names the media type handled and the container rule that
// recognises a book served as application/octet-stream.
func (*Extractor) Info(context.Context) (sdk.Info, error) {
	return sdk.Info{Name: "epub", Version: "1.0.0", ContentTypes: []string{mediaType},
		Capabilities:  []string{sdk.CapabilityCostly},
		MemoryPerBody: 8, // the body, its gRPC copy, one chapter's tokens
		Containers:    []sdk.ContainerRule{{MediaType: mediaType, Extensions: []string{"epub"}, ZipMimetype: mediaType}}}, nil
}

// Extract reads the book's chapters in spine order.
func (*Extractor) Extract(ctx context.Context, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	a, err := zipdoc.Open(req.Body, zipdoc.DefaultLimits)
	if err != nil {
		return nil, err
	}
	opfPath, err := rootfile(a)
	if err != nil {
		return nil, err
	}
	pkg, err := readPackage(a, opfPath)
	if err != nil {
		return nil, err
	}
	maxOut := req.MaxOutputBytes
	if maxOut <= 0 {
		maxOut = DefaultMaxOutput
	}
	w := markdown.NewWriter(maxOut)
	links := sdk.NewLinks(req.URL)
	var warnings []string
	where := ""
	for i, href := range pkg.chapters() {
		if w.Full() || ctx.Err() != nil {
			break
		}
		if i == maxChapters {
			warnings = append(warnings, fmt.Sprintf("chapters cut at %d: the chapters after it are left out", maxChapters))
			break
		}
		where = href
		if err := readChapter(a, href, w, links); err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if w.Full() {
		warnings = append([]string{fmt.Sprintf("output cut at %d bytes in %s: the rest of the book is left out", w.Len(), where)}, warnings...)
	}
	if links.Dropped > 0 {
		warnings = append(warnings, fmt.Sprintf("links cut at %d: %d more left out", sdk.MaxLinks, links.Dropped))
	}
	meta := pkg.meta
	meta["format"] = "EPUB " + pkg.version
	meta["chapters"] = fmt.Sprint(len(pkg.chapters()))
	return &sdk.ExtractResult{Content: w.String(), Format: sdk.FormatMarkdown, Title: meta["title"], Metadata: meta,
		Warnings: warnings, Links: links.List()}, nil
}

// rootfile is the package document container.xml names.
func rootfile(a *zipdoc.Archive) (string, error) {
	const name = "META-INF/container.xml"
	if !a.Has(name) {
		return "", sdk.Invalid("not an EPUB: no %s", name)
	}
	rc, err := a.Open(name)
	if err != nil {
		return "", err
	}
	defer rc.Close()
	d := zipdoc.NewDecoder(rc)
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return "", sdk.Invalid("%s names no package document (rootfile)", name)
		}
		if err != nil {
			return "", zipdoc.XMLError(name, err)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "rootfile" {
			p := zipdoc.Resolve("", zipdoc.Attr(se, "full-path"))
			if !a.Has(p) {
				return "", sdk.Invalid("%s names %q, which the book does not hold", name, p)
			}
			return p, nil
		}
	}
}

// opf is what the reader needs of the package document.
type opf struct {
	version  string
	meta     map[string]string
	manifest map[string]manifestItem
	spine    []string
	dir      string
}

type manifestItem struct {
	href, mediaType, properties string
}

// chapters are the spine's XHTML documents in reading order, as entry
// names; items the spine marks non-linear and the navigation document are
// left out.
func (p *opf) chapters() []string {
	var out []string
	seen := map[string]bool{}
	for _, id := range p.spine {
		it, ok := p.manifest[id]
		if !ok || strings.Contains(it.properties, "nav") {
			continue
		}
		if it.mediaType != "" && !strings.Contains(it.mediaType, "html") {
			continue
		}
		// A chapter the spine lists twice is read once: a hostile spine
		// of one chapter ten thousand times would be read as often.
		if name := zipdoc.Resolve(p.dir, unescapeHref(it.href)); !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	return out
}

// unescapeHref undoes an href's percent-encoding, which zip names lack.
func unescapeHref(href string) string {
	if i := strings.IndexByte(href, '#'); i >= 0 {
		href = href[:i]
	}
	if u, err := urlUnescape(href); err == nil {
		return u
	}
	return href
}

// readPackage reads the OPF: metadata, manifest, spine.
func readPackage(a *zipdoc.Archive, name string) (*opf, error) {
	rc, err := a.Open(name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	d := zipdoc.NewDecoder(rc)
	p := &opf{meta: map[string]string{}, manifest: map[string]manifestItem{}, dir: path.Dir(name)}
	if p.dir == "." {
		p.dir = ""
	}
	keys := map[string]string{"title": "title", "creator": "author", "language": "language", "publisher": "publisher",
		"date": "date", "description": "description", "subject": "subject", "rights": "rights"}
	key := ""
	var text strings.Builder
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, zipdoc.XMLError(name, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "package":
				p.version = zipdoc.Attr(t, "version")
			case "item":
				if len(p.manifest) < maxChapters*4 {
					p.manifest[zipdoc.Attr(t, "id")] = manifestItem{href: zipdoc.Attr(t, "href"),
						mediaType: zipdoc.Attr(t, "media-type"), properties: zipdoc.Attr(t, "properties")}
				}
			case "itemref":
				if zipdoc.Attr(t, "linear") != "no" && len(p.spine) < maxChapters+1 {
					p.spine = append(p.spine, zipdoc.Attr(t, "idref"))
				}
			default:
				if k, ok := keys[t.Name.Local]; ok && t.Name.Space == "http://purl.org/dc/elements/1.1/" {
					key = k
					text.Reset()
				}
			}
		case xml.CharData:
			if key != "" && text.Len() < 8<<10 {
				text.Write(t)
			}
		case xml.EndElement:
			if key != "" {
				if v := strings.Join(strings.Fields(text.String()), " "); v != "" && p.meta[key] == "" {
					p.meta[key] = v
				}
				key = ""
			}
		}
	}
	if len(p.spine) == 0 {
		return nil, sdk.Invalid("the book's package document (%s) has an empty spine: no chapters to read", name)
	}
	return p, nil
}

var _ sdk.Extractor = (*Extractor)(nil)
