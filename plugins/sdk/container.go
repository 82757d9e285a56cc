package sdk

import (
	"bytes"
	"errors"
	"fmt"
	"mime"
	"net/url"
	"path"
	"slices"
	"strings"
)

// GenericTypes are the media types that say nothing of a document: what
// servers and object stores send for any file (and "", no Content-Type at
// all). Container rules claim documents of these types by their content.
var GenericTypes = []string{
	"", "application/octet-stream", "binary/octet-stream", "application/zip",
	"application/x-zip-compressed", "application/x-zip", "application/unknown",
	"application/download", "application/x-download", "application/force-download",
}

// IsGeneric reports whether mediaType (without parameters, any case) is
// one of GenericTypes.
func IsGeneric(mediaType string) bool {
	mt := strings.ToLower(strings.TrimSpace(mediaType))
	if parsed, _, err := mime.ParseMediaType(mt); err == nil {
		mt = parsed
	}
	return slices.Contains(GenericTypes, mt)
}

// MagicWithin is how far into a document a ContainerRule's Magic is looked
// for when the rule does not say.
const MagicWithin = 1 << 10

// maxMagicWithin bounds a rule's MagicWithin: the magic of a format sits
// at its start, and every document of a generic type is searched.
const maxMagicWithin = 64 << 10

// ContainerRule claims a document served with a generic media type
// (GenericTypes) by what its container holds: the entries of a zip's
// central directory (an OOXML package's [Content_Types].xml and main
// part), the content of a zip's "mimetype" entry (ODF, EPUB), or a magic
// string near the start (%PDF-). Every test a rule sets must hold, and it
// sets at least one.
//
// The host evaluates the rules on the whole body without calling the
// plugin, after sniff rules and before routing by media type. A document a
// rule claims goes to its plugin with MediaType as its ContentType, so the
// plugin learns what it was recognised as. When rules of several plugins
// (or several rules of one) claim a document, the one whose Extensions
// hold the extension of the document's URL wins, else the first in the
// configuration's order: the extension only breaks a tie.
type ContainerRule struct {
	// MediaType is the type of the documents the rule recognises, such as
	// "application/vnd.openxmlformats-officedocument.wordprocessingml.document".
	MediaType string
	// Extensions of a URL's path that break a tie between rules, without
	// the dot ("docx").
	Extensions []string
	// ZipEntries, when set, are names that must all be entries of the
	// zip's central directory, compared exactly ("[Content_Types].xml",
	// "word/document.xml"), wherever they stand in it.
	ZipEntries []string
	// ZipMimetype, when set, is what the zip's entry named "mimetype" must
	// hold, surrounding white space aside
	// ("application/vnd.oasis.opendocument.text").
	ZipMimetype string
	// Magic, when set, must occur within the first MagicWithin bytes
	// ("%PDF-").
	Magic string
	// MagicWithin bounds where Magic may start; 0 means sdk.MagicWithin.
	MagicWithin int
}

// Check reports what keeps the rule from running, or nil.
func (r ContainerRule) Check() error {
	typ, sub, ok := strings.Cut(r.MediaType, "/")
	if !ok || typ == "" || sub == "" || strings.ContainsAny(r.MediaType, "*;, ") {
		return fmt.Errorf("media type %q is not one exact media type", r.MediaType)
	}
	if IsGeneric(r.MediaType) {
		return fmt.Errorf("%s is a generic type, which recognises nothing", r.MediaType)
	}
	if len(r.ZipEntries) == 0 && r.ZipMimetype == "" && r.Magic == "" {
		return errors.New("it sets no test (zip entries, a zip mimetype or a magic string)")
	}
	if slices.Contains(r.ZipEntries, "") {
		return errors.New("an empty zip entry name")
	}
	if r.MagicWithin < 0 || r.MagicWithin > maxMagicWithin {
		return fmt.Errorf("magic within %d bytes, not between 0 and %d", r.MagicWithin, maxMagicWithin)
	}
	return nil
}

// ContainerSet is container rules compiled to test documents together: a
// document's zip directory is read once for all of them.
type ContainerSet struct {
	rules []ContainerRule
	// wanted numbers every zip entry name some rule asks for.
	wanted   map[string]int
	mimetype bool
}

// CompileContainerRules checks the rules and prepares them; an error names
// the first rule that cannot run, counting from 1.
func CompileContainerRules(rules []ContainerRule) (*ContainerSet, error) {
	s := &ContainerSet{wanted: map[string]int{}}
	for i, r := range rules {
		if err := r.Check(); err != nil {
			return nil, fmt.Errorf("rule %d: %w", i+1, err)
		}
		for _, e := range r.ZipEntries {
			if _, ok := s.wanted[e]; !ok {
				s.wanted[e] = len(s.wanted)
			}
		}
		s.mimetype = s.mimetype || r.ZipMimetype != ""
		s.rules = append(s.rules, r)
	}
	return s, nil
}

// Rules returns the compiled rules, in order.
func (s *ContainerSet) Rules() []ContainerRule { return s.rules }

// Match returns the indices of the rules that claim body, in order; the
// caller checks first that the document's media type is generic. Only
// the bytes the tests need are read: the magic's window, the central
// directory, the mimetype entry's first bytes.
func (s *ContainerSet) Match(body []byte) []int {
	c := s.inspect(body)
	var out []int
	for i, r := range s.rules {
		if s.holds(r, body, c) {
			out = append(out, i)
		}
	}
	return out
}

// Pick returns the index of the rule that takes a document at docURL
// among the matched ones (indices into Rules): the first whose Extensions
// hold docURL's extension, else the first; -1 when none matched.
func (s *ContainerSet) Pick(matched []int, docURL string) int {
	if len(matched) == 0 {
		return -1
	}
	if ext := urlExtension(docURL); ext != "" {
		for _, i := range matched {
			if slices.ContainsFunc(s.rules[i].Extensions, func(e string) bool { return strings.EqualFold(e, ext) }) {
				return i
			}
		}
	}
	return matched[0]
}

// contents is what a container scan found in one document.
type contents struct {
	zip      bool
	found    []bool
	mimetype string
}

func (s *ContainerSet) inspect(body []byte) contents {
	c := contents{found: make([]bool, len(s.wanted))}
	if len(s.wanted) == 0 && !s.mimetype {
		return c
	}
	c.zip = zipDirectory(body, func(name []byte, e zipEntry) bool {
		if i, ok := s.wanted[string(name)]; ok {
			c.found[i] = true
		}
		if s.mimetype && c.mimetype == "" && string(name) == "mimetype" {
			if data, ok := entryPrefix(body, e, maxMimetypeBytes); ok {
				c.mimetype = string(bytes.TrimSpace(data))
			}
		}
		return true
	})
	return c
}

func (s *ContainerSet) holds(r ContainerRule, body []byte, c contents) bool {
	if r.Magic != "" {
		within := r.MagicWithin
		if within == 0 {
			within = MagicWithin
		}
		head := body[:min(len(body), within+len(r.Magic)-1)]
		if !bytes.Contains(head, []byte(r.Magic)) {
			return false
		}
	}
	if (len(r.ZipEntries) > 0 || r.ZipMimetype != "") && !c.zip {
		return false
	}
	for _, e := range r.ZipEntries {
		if !c.found[s.wanted[e]] {
			return false
		}
	}
	return r.ZipMimetype == "" || c.mimetype == r.ZipMimetype
}

// urlExtension is the extension of a URL's path (or a file name),
// lower-cased and without the dot; "" when it has none.
func urlExtension(docURL string) string {
	p := docURL
	if u, err := url.Parse(docURL); err == nil && u.Path != "" {
		p = u.Path
	}
	return strings.ToLower(strings.TrimPrefix(path.Ext(p), "."))
}
