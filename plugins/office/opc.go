package office

import (
	"encoding/xml"
	"errors"
	"io"
	"path"
	"strings"

	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/plugins/zipdoc"
)

// rel is one relationship of an OOXML part: an image, a hyperlink, the
// slide a presentation lists. An external one's target is a URL, which is
// only ever written as a link, never read.
type rel struct {
	typ      string
	target   string
	external bool
}

// rels maps a part's relationship ids to what they name.
type rels map[string]rel

// relsOf reads the relationships of the part at name ("word/document.xml"
// has "word/_rels/document.xml.rels"); internal targets are resolved to
// entry names. A part without relationships has none.
func relsOf(a *zipdoc.Archive, name string) (rels, error) {
	dir, file := path.Split(name)
	relsName := dir + "_rels/" + file + ".rels"
	out := rels{}
	if !a.Has(relsName) {
		return out, nil
	}
	rc, err := a.Open(relsName)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	d := zipdoc.NewDecoder(rc)
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, zipdoc.XMLError(relsName, err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "Relationship" {
			continue
		}
		r := rel{typ: path.Base(zipdoc.Attr(se, "Type")), target: zipdoc.Attr(se, "Target"),
			external: strings.EqualFold(zipdoc.Attr(se, "TargetMode"), "External")}
		if !r.external {
			r.target = zipdoc.Resolve(strings.TrimSuffix(dir, "/"), r.target)
		}
		out[zipdoc.Attr(se, "Id")] = r
	}
}

// first returns the target of the first relationship of type typ (the
// last part of its Type URI: "officeDocument", "slide").
func (r rels) first(typ string) (string, bool) {
	for _, v := range r {
		if v.typ == typ && !v.external {
			return v.target, true
		}
	}
	return "", false
}

// mainPart is the package's main document part, as its root relationships
// name it, else the conventional name.
func mainPart(a *zipdoc.Archive, conventional string) (string, error) {
	root, err := relsOf(a, "")
	if err != nil {
		return "", err
	}
	if p, ok := root.first("officeDocument"); ok && a.Has(p) {
		return p, nil
	}
	if a.Has(conventional) {
		return conventional, nil
	}
	return "", sdk.Invalid("the package has no main part (%s)", conventional)
}

// coreProperties reads docProps/core.xml (OOXML's Dublin Core metadata)
// into metadata keys; a package without it has none.
func coreProperties(a *zipdoc.Archive) (map[string]string, error) {
	const name = "docProps/core.xml"
	meta := map[string]string{}
	if !a.Has(name) {
		return meta, nil
	}
	keys := map[string]string{"title": "title", "creator": "author", "subject": "subject", "description": "description",
		"keywords": "keywords", "created": "created", "modified": "modified", "lastModifiedBy": "last_modified_by", "language": "language"}
	return meta, readFlat(a, name, keys, meta)
}

// readFlat reads the text of the elements named in keys (by local name)
// of a flat metadata part into meta under the keys' values.
func readFlat(a *zipdoc.Archive, name string, keys map[string]string, meta map[string]string) error {
	rc, err := a.Open(name)
	if err != nil {
		return err
	}
	defer rc.Close()
	d := zipdoc.NewDecoder(rc)
	key := ""
	var text strings.Builder
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return zipdoc.XMLError(name, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			key = keys[t.Name.Local]
			text.Reset()
		case xml.CharData:
			if key != "" && text.Len() < maxMetaBytes {
				text.Write(t)
			}
		case xml.EndElement:
			if key != "" {
				if v := strings.Join(strings.Fields(text.String()), " "); v != "" && meta[key] == "" {
					meta[key] = v
				}
			}
			key = ""
		}
	}
}

// maxMetaBytes bounds one metadata value as it is read; the extract stage
// bounds it again.
const maxMetaBytes = 8 << 10

// openMain finds an OOXML package's main part (conventional when the
// package's root relationships name none), reads the core properties into
// r.meta and returns the main part's relationships.
func openMain(r *reader, conventional string) (string, rels, error) {
	part, err := mainPart(r.zip, conventional)
	if err != nil {
		return "", nil, err
	}
	if r.meta, err = coreProperties(r.zip); err != nil {
		return "", nil, err
	}
	links, err := relsOf(r.zip, part)
	if err != nil {
		return "", nil, err
	}
	return part, links, nil
}
