package ocr

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/image/bmp"
	"golang.org/x/image/tiff"

	"github.com/siftd/sift/internal/testkit/testenv"
	"github.com/siftd/sift/plugins/sdk"
)

// configured is the ocr extractor as sift configures it, with tesseract;
// the test stops (testenv.Missing) without it.
func configured(t *testing.T) *Extractor {
	t.Helper()
	testenv.NeedCommand(t, "tesseract", "apt-get install tesseract-ocr tesseract-ocr-eng")
	e := NewExtractor().(*Extractor)
	diags, err := e.Configure(context.Background(), nil)
	if err != nil || diags.HasErrors() || e.engine == nil {
		t.Fatalf("configure: %v %v", diags, err)
	}
	return e
}

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// encodings are the test image in each format read, the PNG and WebP from
// testdata (generate.sh), the others encoded here from the PNG.
func encodings(t *testing.T) map[string][]byte {
	t.Helper()
	pngBody := readTestdata(t, "title.png")
	img, err := png.Decode(bytes.NewReader(pngBody))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{"image/png": pngBody, "image/webp": readTestdata(t, "title.webp")}
	for typ, enc := range map[string]func(*bytes.Buffer) error{
		"image/jpeg": func(b *bytes.Buffer) error { return jpeg.Encode(b, img, &jpeg.Options{Quality: 90}) },
		"image/gif":  func(b *bytes.Buffer) error { return gif.Encode(b, img, nil) },
		"image/tiff": func(b *bytes.Buffer) error { return tiff.Encode(b, img, &tiff.Options{Compression: tiff.Deflate}) },
		"image/bmp":  func(b *bytes.Buffer) error { return bmp.Encode(b, img) },
	} {
		var buf bytes.Buffer
		if err := enc(&buf); err != nil {
			t.Fatal(err)
		}
		out[typ] = buf.Bytes()
	}
	return out
}

// Every format is read: its text by OCR, its dimensions, and a warning
// that says OCR read it and with what confidence.
func TestImagesReadByOCR(t *testing.T) {
	e := configured(t)
	for typ, body := range encodings(t) {
		t.Run(typ, func(t *testing.T) {
			res, err := e.Extract(context.Background(), &sdk.ExtractRequest{Body: body, ContentType: typ})
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"Overview of the Technology Acceptance Model", "Mohammad Chuttur"} {
				if !strings.Contains(res.Content, want) {
					t.Errorf("content lacks %q:\n%s", want, res.Content)
				}
			}
			if res.Metadata["width"] != "1240" || res.Metadata["height"] != "420" || res.Metadata["ocr_confidence"] == "" {
				t.Errorf("metadata %v", res.Metadata)
			}
			if len(res.Warnings) != 1 || !strings.HasPrefix(res.Warnings[0], "the image was read by OCR (tesseract ") {
				t.Errorf("warnings %q", res.Warnings)
			}
		})
	}
}

// withEXIF puts an APP1 EXIF segment holding a description and a Windows
// title (XPTitle, UTF-16) right after a JPEG's SOI.
func withEXIF(jpg []byte, description, title string) []byte {
	le := binary.LittleEndian
	desc := append([]byte(description), 0)
	var t16 []byte
	for _, r := range title + "\x00" {
		t16 = le.AppendUint16(t16, uint16(r))
	}
	// TIFF header, IFD0 of two entries, then the values.
	tiff := []byte("II*\x00")
	tiff = le.AppendUint32(tiff, 8)
	tiff = le.AppendUint16(tiff, 2)
	values := 8 + 2 + 2*12 + 4
	entry := func(tag, typ uint16, n, off int) {
		tiff = le.AppendUint16(tiff, tag)
		tiff = le.AppendUint16(tiff, typ)
		tiff = le.AppendUint32(tiff, uint32(n))
		tiff = le.AppendUint32(tiff, uint32(off))
	}
	entry(tagImageDescription, 2, len(desc), values)
	entry(tagXPTitle, 1, len(t16), values+len(desc))
	tiff = le.AppendUint32(tiff, 0)
	tiff = append(append(tiff, desc...), t16...)
	seg := append([]byte("Exif\x00\x00"), tiff...)
	app1 := []byte{0xff, 0xe1}
	app1 = binary.BigEndian.AppendUint16(app1, uint16(len(seg)+2))
	app1 = append(app1, seg...)
	return append(append([]byte{0xff, 0xd8}, app1...), jpg[2:]...)
}

// A JPEG's EXIF title and description are the result's title and
// metadata; the image is read as without them.
func TestImageEXIF(t *testing.T) {
	jpg := encodings(t)["image/jpeg"]
	body := withEXIF(jpg, "The head of a paper's first page", "TAM review")
	if title, desc := exifFields(exifBlock("jpeg", body)); title != "TAM review" || desc != "The head of a paper's first page" {
		t.Fatalf("exif: %q %q", title, desc)
	}
	e := configured(t)
	res, err := e.Extract(context.Background(), &sdk.ExtractRequest{Body: body, ContentType: "image/jpeg"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Title != "TAM review" || res.Metadata["description"] != "The head of a paper's first page" || !strings.Contains(res.Content, "Technology Acceptance") {
		t.Errorf("title %q, metadata %v", res.Title, res.Metadata)
	}
}

// pngHeader is a PNG of w × h pixels that is all header: a signature and
// an IHDR chunk with its CRC, then an IEND, a few dozen bytes however
// large it claims to be.
func pngHeader(w, h uint32) []byte {
	chunk := func(typ string, data []byte) []byte {
		c := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
		c = append(append(c, typ...), data...)
		return binary.BigEndian.AppendUint32(c, crc32.ChecksumIEEE(append([]byte(typ), data...)))
	}
	ihdr := binary.BigEndian.AppendUint32(nil, w)
	ihdr = binary.BigEndian.AppendUint32(ihdr, h)
	ihdr = append(ihdr, 8, 0, 0, 0, 0) // 8-bit grey
	out := append([]byte("\x89PNG\r\n\x1a\n"), chunk("IHDR", ihdr)...)
	return append(out, chunk("IEND", nil)...)
}

// Decompression bombs are refused by the pixel count their header
// declares, before anything is decoded: at once, in no memory to speak
// of, engine or not. Malformed images are invalid.
func TestHostileImages(t *testing.T) {
	gifBomb := []byte("GIF89a\xff\xff\xff\xff\x00\x00\x00")
	bmpBomb := append([]byte("BM"), make([]byte, 52)...)
	binary.LittleEndian.PutUint32(bmpBomb[10:], 54)
	binary.LittleEndian.PutUint32(bmpBomb[14:], 40)
	binary.LittleEndian.PutUint32(bmpBomb[18:], 60000)
	binary.LittleEndian.PutUint32(bmpBomb[22:], 60000)
	binary.LittleEndian.PutUint16(bmpBomb[26:], 1)
	binary.LittleEndian.PutUint16(bmpBomb[28:], 24)
	for _, tc := range []struct {
		name, typ string
		body      []byte
		class     string
	}{
		{"png 50,000 × 50,000", "image/png", pngHeader(50_000, 50_000), sdk.ClassTooLarge},
		{"png 1 × 2,000,000,000", "image/png", pngHeader(1, 2_000_000_000), sdk.ClassTooLarge},
		{"gif 65,535 × 65,535", "image/gif", gifBomb, sdk.ClassTooLarge},
		{"bmp 60,000 × 60,000", "image/bmp", bmpBomb, sdk.ClassTooLarge},
		{"png 0 × 10", "image/png", pngHeader(0, 10), sdk.ClassInvalid},
		{"not an image", "image/png", []byte("no image at all"), sdk.ClassInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := NewExtractor().(*Extractor) // no engine needed: refused before OCR
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			_, err := e.Extract(context.Background(), &sdk.ExtractRequest{Body: tc.body, ContentType: tc.typ})
			runtime.ReadMemStats(&after)
			var de *sdk.DocError
			if !errors.As(err, &de) || de.Class != tc.class {
				t.Fatalf("%v, want class %s", err, tc.class)
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 || time.Since(start) > 10*time.Second {
				t.Errorf("allocated %d MiB in %s", grew>>20, time.Since(start))
			}
		})
	}
}

// An image whose header reads but whose pixels do not is invalid.
func TestTruncatedImage(t *testing.T) {
	e := configured(t)
	_, err := e.Extract(context.Background(), &sdk.ExtractRequest{Body: readTestdata(t, "title.png")[:4000], ContentType: "image/png"})
	var de *sdk.DocError
	if !errors.As(err, &de) || de.Class != sdk.ClassInvalid {
		t.Fatalf("%v, want invalid", err)
	}
}

// ocr: never refuses an image (its text is OCR's to read); without the
// engine an image is unsupported, and the error names the package.
func TestImageWithoutOCR(t *testing.T) {
	body := readTestdata(t, "title.png")
	e := NewExtractor().(*Extractor)
	for _, tc := range []struct {
		opts        map[string]string
		class, want string
	}{
		{map[string]string{"ocr": "never"}, ClassNoText, "ocr: never"},
		{nil, sdk.ClassUnsupported, "install Debian's tesseract-ocr"},
	} {
		_, err := e.Extract(context.Background(), &sdk.ExtractRequest{Body: body, ContentType: "image/png", Options: tc.opts})
		var de *sdk.DocError
		if !errors.As(err, &de) || de.Class != tc.class || !strings.Contains(de.Message, tc.want) {
			t.Errorf("%v: %v, want %s saying %q", tc.opts, err, tc.class, tc.want)
		}
	}
}

// A page's OCR past its deadline kills tesseract and says so.
func TestPageDeadline(t *testing.T) {
	e := configured(t)
	e.engine.PageTimeout = time.Millisecond
	img, err := png.Decode(bytes.NewReader(readTestdata(t, "title.png")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.engine.Recognize(context.Background(), Gray(img), 0); err == nil || !strings.Contains(err.Error(), "passed its deadline") {
		t.Fatalf("%v, want the deadline's error", err)
	}
}

// A tesseract that outgrows its memory limit fails that page alone, and
// tesseract runs in a network namespace of its own where the machine
// allows one (as root, or with unprivileged user namespaces).
func TestPageLimits(t *testing.T) {
	e := configured(t)
	img, err := png.Decode(bytes.NewReader(readTestdata(t, "title.png")))
	if err != nil {
		t.Fatal(err)
	}
	small := NewEngine(e.engine.Path, e.engine.Version, e.engine.Languages, time.Minute, 8<<20)
	if _, err := small.Recognize(context.Background(), Gray(img), 0); err == nil {
		t.Errorf("tesseract read a page in 8 MiB")
	}
	if _, err := e.engine.Recognize(context.Background(), Gray(img), 0); err != nil {
		t.Errorf("the next page, within the default limit: %v", err)
	}
	if runtime.GOOS == "linux" && e.engine.Networked() {
		testenv.Missing(t, "a network namespace for tesseract", "run as root, or allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1)")
	}
}

// parseTSV reads tesseract's words by block, paragraph and line.
func TestParseTSV(t *testing.T) {
	tsv := "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n" +
		"5\t1\t1\t1\t1\t1\t0\t0\t1\t1\t90\tHello,\n" +
		"5\t1\t1\t1\t1\t2\t0\t0\t1\t1\t80\tworld\n" +
		"5\t1\t1\t1\t2\t1\t0\t0\t1\t1\t70\tnext\n" +
		"5\t1\t2\t1\t1\t1\t0\t0\t1\t1\t60\tblock\n" +
		"5\t1\t2\t1\t1\t2\t0\t0\t1\t1\t-1\t \n"
	p := parseTSV(tsv)
	if p.Text != "Hello, world\nnext\n\nblock" || p.Words != 4 || p.Confidence != 75 {
		t.Fatalf("%+v", p)
	}
}
