// Package zipdoc opens the zip packages that Office documents and
// e-books are (OOXML, ODF, EPUB) under bounds a hostile one cannot pass:
// the number of entries, the bytes each entry and all of them inflate to,
// and how far one inflates past its compressed size (a zip bomb). Their
// XML is decoded as tokens by encoding/xml, which expands no entity a
// document declares and resolves nothing outside it.
package zipdoc

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/siftd/sift/plugins/sdk"
)

// Limits bound what one document may make a reader inflate.
type Limits struct {
	// MaxEntries bounds the archive's entries.
	MaxEntries int
	// MaxEntryBytes bounds what one entry inflates to.
	MaxEntryBytes int64
	// MaxTotalBytes bounds what all entries read inflate to together.
	MaxTotalBytes int64
	// MaxRatio bounds how many times its compressed size an entry
	// inflates to, past the first RatioFloor bytes (a small entry of
	// repeated markup inflates far, and harmlessly).
	MaxRatio int64
}

// RatioFloor is what any entry may inflate to whatever its ratio.
const RatioFloor = 1 << 20

// DefaultLimits are generous for real documents (a 5 MiB DOCX inflates
// to some tens of MiB) and stop a bomb long before memory does.
var DefaultLimits = Limits{MaxEntries: 10_000, MaxEntryBytes: 256 << 20, MaxTotalBytes: 512 << 20, MaxRatio: 200}

// Archive is an opened zip package.
type Archive struct {
	files  map[string]*zip.File
	order  []*zip.File
	limits Limits
	// read is what the archive's entries have inflated to so far, and
	// total what they may inflate to in all.
	read, total int64
}

// MinTotalBytes is what a package of any size may inflate to in all: a
// bound in all of MaxRatio times the package's size would stop small
// real ones, and without one a small package whose parts name one entry
// again and again (a spine of one chapter ten thousand times) would be
// read ten thousand times.
const MinTotalBytes = 32 << 20

// Open reads body's central directory. A body that is no zip, or a
// damaged one, is sdk.Invalid naming the reason; one past the entry bound
// is sdk.TooLarge.
func Open(body []byte, lim Limits) (*Archive, error) {
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		return nil, sdk.Invalid("not a readable zip package: %v", err)
	}
	if len(zr.File) > lim.MaxEntries {
		return nil, sdk.TooLarge("the zip package holds %d entries, more than the %d read", len(zr.File), lim.MaxEntries)
	}
	a := &Archive{files: make(map[string]*zip.File, len(zr.File)), order: zr.File, limits: lim, total: lim.MaxTotalBytes}
	if lim.MaxRatio > 0 {
		a.total = min(a.total, max(MinTotalBytes, lim.MaxRatio*int64(len(body))))
	}
	for _, f := range zr.File {
		name := strings.TrimPrefix(f.Name, "/")
		if _, dup := a.files[name]; !dup {
			a.files[name] = f
		}
	}
	return a, nil
}

// Has reports whether the archive holds an entry called name.
func (a *Archive) Has(name string) bool {
	_, ok := a.files[name]
	return ok
}

// Names returns the entries' names in the directory's order.
func (a *Archive) Names() []string {
	out := make([]string, 0, len(a.order))
	for _, f := range a.order {
		out = append(out, f.Name)
	}
	return out
}

// ErrMissing is an entry the archive does not hold.
var ErrMissing = errors.New("no such entry")

// Open returns a reader of entry name's inflated bytes, held to the
// limits: reading past them fails with an sdk.TooLarge error naming the
// entry and the bound.
func (a *Archive) Open(name string) (io.ReadCloser, error) {
	f, ok := a.files[name]
	if !ok {
		return nil, fmt.Errorf("%s: %w", name, ErrMissing)
	}
	if f.UncompressedSize64 > uint64(a.limits.MaxEntryBytes) {
		return nil, sdk.TooLarge("zip entry %s declares %d bytes, more than the %d read of one entry", name, f.UncompressedSize64, a.limits.MaxEntryBytes)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, sdk.Invalid("zip entry %s: %v", name, err)
	}
	limit := a.limits.MaxEntryBytes
	if ratio := a.limits.MaxRatio; ratio > 0 {
		limit = min(limit, max(RatioFloor, int64(min(f.CompressedSize64, 1<<40))*ratio))
	}
	return &bounded{rc: rc, a: a, name: name, left: limit, limit: limit}, nil
}

// ReadAll reads entry name whole, under the limits.
func (a *Archive) ReadAll(name string) ([]byte, error) {
	rc, err := a.Open(name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(rc)
}

// bounded counts an entry's inflated bytes against its own limit and the
// archive's total.
type bounded struct {
	rc    io.ReadCloser
	a     *Archive
	name  string
	left  int64
	limit int64
}

func (b *bounded) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if b.left <= 0 || b.a.read >= b.a.total {
		// At a bound: the entry may end exactly there.
		var one [1]byte
		if n, err := b.rc.Read(one[:]); n == 0 && errors.Is(err, io.EOF) {
			return 0, io.EOF
		}
		if b.left <= 0 {
			return 0, sdk.TooLarge("zip entry %s inflates past %d bytes, its bound (at most %d bytes, and %d times its compressed size past %d)",
				b.name, b.limit, b.a.limits.MaxEntryBytes, b.a.limits.MaxRatio, RatioFloor)
		}
		return 0, sdk.TooLarge("the zip package inflates past %d bytes, more than is read of one document", b.a.total)
	}
	if left := min(b.left, b.a.total-b.a.read); int64(len(p)) > left {
		p = p[:left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	b.a.read += int64(n)
	if err != nil && !errors.Is(err, io.EOF) {
		return n, sdk.Invalid("zip entry %s: %v", b.name, err)
	}
	return n, err
}

func (b *bounded) Close() error { return b.rc.Close() }

// Resolve joins an entry-relative reference (a relationship's target, a
// manifest's href) to the entry dir it appears in: "../media/a.png" from
// "word" is "media/a.png". A target starting "/" is from the root.
func Resolve(dir, target string) string {
	if strings.HasPrefix(target, "/") {
		return strings.TrimPrefix(path.Clean(target), "/")
	}
	return strings.TrimPrefix(path.Clean(path.Join("/", dir, target)), "/")
}
