package ocr

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/draw"
	_ "image/gif" // first frame
	_ "image/jpeg"
	_ "image/png"
	"strconv"
	"sync"

	_ "golang.org/x/image/bmp"
	_ "golang.org/x/image/tiff"
	_ "golang.org/x/image/webp"

	"github.com/siftd/sift/plugins/sdk"
)

// DefaultMaxPixels bounds an image's pixels (width × height) by default:
// 50 megapixels, more than a page scanned at 600 dpi. A decompression bomb
// (50,000 × 50,000 pixels in a few kilobytes) is refused by its header,
// before anything is decoded.
const DefaultMaxPixels = 50_000_000

// DefaultMaxOutput bounds the text of one image.
const DefaultMaxOutput = 1 << 20

// ClassNoText is an image in which OCR found no text, or which was not
// read by OCR.
const ClassNoText = "no_text"

// formats are the image formats read, by the name image.DecodeConfig
// gives, with their media type and the magic at their start.
var formats = []struct {
	name, mediaType, magic string
	within                 int
	ext                    []string
}{
	{"png", "image/png", "\x89PNG\r\n\x1a\n", 8, []string{"png"}},
	{"jpeg", "image/jpeg", "\xff\xd8\xff", 3, []string{"jpg", "jpeg"}},
	{"gif", "image/gif", "GIF8", 4, []string{"gif"}},
	{"webp", "image/webp", "WEBPVP8", 16, []string{"webp"}},
	{"tiff", "image/tiff", "II*\x00", 4, []string{"tif", "tiff"}},
	{"tiff", "image/tiff", "MM\x00*", 4, []string{"tif", "tiff"}},
	{"bmp", "image/bmp", "BM", 2, []string{"bmp"}},
}

type imageConfig struct {
	Languages   []string `json:"languages"`
	PageTimeout string   `json:"page_timeout"`
	PageMemory  string   `json:"page_memory"`
	MaxPixels   int64    `json:"max_pixels"`
}

// Extractor is the ocr extractor: images, read by tesseract.
type Extractor struct {
	mu        sync.Mutex
	engine    *Engine
	maxPixels int64
}

// NewExtractor returns the ocr extractor.
func NewExtractor() sdk.Extractor { return &Extractor{maxPixels: DefaultMaxPixels} }

// Info names the image types read.
func (*Extractor) Info(context.Context) (sdk.Info, error) {
	info := sdk.Info{Name: "ocr", Version: "1.0.0", Capabilities: []string{sdk.CapabilityCostly}}
	seen := map[string]bool{}
	for _, f := range formats {
		if !seen[f.mediaType] {
			info.ContentTypes = append(info.ContentTypes, f.mediaType)
			seen[f.mediaType] = true
		}
		// BMP's "BM" is too weak a magic to claim octet-stream bodies by.
		if f.name != "bmp" {
			info.Containers = append(info.Containers, sdk.ContainerRule{MediaType: f.mediaType, Extensions: f.ext, Magic: f.magic, MagicWithin: f.within})
		}
	}
	info.ContentTypes = append(info.ContentTypes, "image/x-ms-bmp")
	return info, nil
}

// Schema lists the block's OCR attributes and the ocr option.
func (*Extractor) Schema(context.Context) (sdk.Schema, error) {
	return sdk.Schema{
		Attributes: append(Attributes(""), sdk.Attribute{Name: "max_pixels", Type: sdk.TypeInteger,
			Description: fmt.Sprintf("an image's width × height at most, refused before decoding (default %d)", DefaultMaxPixels)}),
		Options: []sdk.Option{ModeOption},
	}, nil
}

// Configure finds tesseract and checks the block.
func (e *Extractor) Configure(ctx context.Context, raw json.RawMessage) (sdk.Diagnostics, error) {
	var cfg imageConfig
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &cfg); err != nil {
			return nil, fmt.Errorf("decode config: %w", err)
		}
	}
	engine, diags := Config{Languages: cfg.Languages, PageTimeout: cfg.PageTimeout, PageMemory: cfg.PageMemory}.Start(ctx, "")
	if cfg.MaxPixels < 0 {
		diags = append(diags, sdk.Diagnostic{Severity: sdk.SeverityError, Summary: "Invalid max_pixels", Detail: "max_pixels must be at least 1.", Attribute: "max_pixels"})
	}
	if diags.HasErrors() {
		return diags, nil
	}
	if engine != nil && engine.Networked() {
		diags = append(diags, sdk.Diagnostic{Severity: sdk.SeverityWarning, Summary: "OCR without a network namespace",
			Detail: "This machine lets sift make no network namespace (a systemd unit's RestrictNamespaces, or unprivileged user namespaces turned off), " +
				"so tesseract runs with the machine's network; it still reads only the grey image sift writes to its stdin."})
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.engine = engine
	if cfg.MaxPixels > 0 {
		e.maxPixels = cfg.MaxPixels
	}
	return diags, nil
}

// Extract reads an image's text by OCR, with its dimensions and its EXIF
// title and description.
func (e *Extractor) Extract(ctx context.Context, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	e.mu.Lock()
	engine, maxPixels := e.engine, e.maxPixels
	e.mu.Unlock()
	cfg, format, err := image.DecodeConfig(bytes.NewReader(req.Body))
	if err != nil {
		return nil, sdk.Invalid("malformed image: %v", err)
	}
	if px := int64(cfg.Width) * int64(cfg.Height); cfg.Width <= 0 || cfg.Height <= 0 || px > maxPixels {
		return nil, sdk.TooLarge("the image is %d × %d pixels, over max_pixels (%d): not decoded", cfg.Width, cfg.Height, maxPixels)
	}
	res := &sdk.ExtractResult{Format: sdk.FormatMarkdown, Metadata: map[string]string{
		"width": strconv.Itoa(cfg.Width), "height": strconv.Itoa(cfg.Height), "format": format,
	}}
	title, description := exifFields(exifBlock(format, req.Body))
	if title != "" {
		res.Title, res.Metadata["title"] = title, title
	}
	if description != "" {
		res.Metadata["description"] = description
	}
	if RequestMode(req.Options) == Never {
		return nil, &sdk.DocError{Class: ClassNoText, Message: "an image's text is read only by OCR, which this request turned off (ocr: never)"}
	}
	if engine == nil {
		return nil, &sdk.DocError{Class: sdk.ClassUnsupported, Message: "reading an image needs OCR: " + ErrMissing.Error()}
	}
	img, _, err := image.Decode(bytes.NewReader(req.Body))
	if err != nil {
		return nil, sdk.Invalid("malformed image: %v", err)
	}
	page, err := engine.Recognize(ctx, Gray(img), 0)
	if err != nil {
		return nil, fmt.Errorf("ocr: %w", err)
	}
	if page.Text == "" {
		return nil, &sdk.DocError{Class: ClassNoText, Message: "OCR found no text in the image"}
	}
	res.Metadata["ocr_confidence"] = strconv.FormatFloat(page.Confidence, 'f', 1, 64)
	res.Warnings = append(res.Warnings, engine.Warning("the image was", page.Confidence, page.Words))
	var warning string
	if res.Content, warning = sdk.CapOutput(page.Text, req.MaxOutputBytes, DefaultMaxOutput); warning != "" {
		res.Warnings = append(res.Warnings, warning)
	}
	return res, nil
}

// Gray is img in grey, as tesseract is sent it; a transparent pixel is
// taken as white, the page behind it.
func Gray(img image.Image) *image.Gray {
	if g, ok := img.(*image.Gray); ok {
		return g
	}
	b := img.Bounds()
	out := image.NewGray(image.Rect(0, 0, b.Dx(), b.Dy()))
	white := image.NewUniform(image.White)
	draw.Draw(out, out.Bounds(), white, image.Point{}, draw.Src)
	draw.Draw(out, out.Bounds(), img, b.Min, draw.Over)
	return out
}

var _ sdk.Extractor = (*Extractor)(nil)
