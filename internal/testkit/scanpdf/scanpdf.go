// Package scanpdf writes scans for tests and benchmarks: a PDF whose
// pages are each one grey image and nothing else, no text layer, as a
// scanner writes them. Tests render a real PDF's pages and wrap them so;
// the original's text layer is then the truth OCR is scored against.
package scanpdf

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"image"
	"strings"
	"unicode"
)

// Write returns a PDF of pages, each image a page at dpi dots per inch.
func Write(pages []*image.Gray, dpi int) []byte {
	var buf bytes.Buffer
	var offsets []int
	obj := func(body string, stream []byte) {
		offsets = append(offsets, buf.Len())
		fmt.Fprintf(&buf, "%d 0 obj\n%s", len(offsets), body)
		if stream != nil {
			buf.WriteString("\nstream\n")
			buf.Write(stream)
			buf.WriteString("\nendstream")
		}
		buf.WriteString("\nendobj\n")
	}
	buf.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	kids := make([]string, len(pages))
	for i := range pages {
		kids[i] = fmt.Sprintf("%d 0 R", 3+3*i)
	}
	obj("<< /Type /Catalog /Pages 2 0 R >>", nil)
	obj(fmt.Sprintf("<< /Type /Pages /Count %d /Kids [%s] >>", len(pages), strings.Join(kids, " ")), nil)
	for i, img := range pages {
		b := img.Bounds()
		w, h := float64(b.Dx())*72/float64(dpi), float64(b.Dy())*72/float64(dpi)
		content, image := 4+3*i, 5+3*i
		obj(fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f] /Resources << /XObject << /Im0 %d 0 R >> >> /Contents %d 0 R >>", w, h, image, content), nil)
		draw := fmt.Sprintf("q %.2f 0 0 %.2f 0 0 cm /Im0 Do Q", w, h)
		obj(fmt.Sprintf("<< /Length %d >>", len(draw)), []byte(draw))
		data := deflate(img)
		obj(fmt.Sprintf("<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length %d >>",
			b.Dx(), b.Dy(), len(data)), data)
	}
	xref := buf.Len()
	fmt.Fprintf(&buf, "xref\n0 %d\n0000000000 65535 f \n", len(offsets)+1)
	for _, off := range offsets {
		fmt.Fprintf(&buf, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&buf, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offsets)+1, xref)
	return buf.Bytes()
}

func deflate(img *image.Gray) []byte {
	var buf bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&buf, zlib.BestSpeed)
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		off := img.PixOffset(b.Min.X, y)
		_, _ = zw.Write(img.Pix[off : off+b.Dx()])
	}
	_ = zw.Close()
	return buf.Bytes()
}

// Words splits text into lower-cased words of letters and digits, as the
// shared PDF corpus's score.py counts them.
func Words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' })
}

// F1 is the word F1 of got against want: the bag of words each holds.
func F1(got, want string) float64 {
	g, w := map[string]int{}, map[string]int{}
	ng, nw := 0, 0
	for _, x := range Words(got) {
		g[x]++
		ng++
	}
	for _, x := range Words(want) {
		w[x]++
		nw++
	}
	if ng == 0 || nw == 0 {
		return 0
	}
	common := 0
	for x, n := range g {
		common += min(n, w[x])
	}
	if common == 0 {
		return 0
	}
	p, r := float64(common)/float64(ng), float64(common)/float64(nw)
	return 2 * p * r / (p + r)
}
