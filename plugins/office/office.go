// Package office is the built-in extractor for office documents: Word
// (DOCX, ODT), spreadsheets (XLSX, ODS) and presentations (PPTX, ODP),
// read as markdown that keeps their structure: headings, lists, tables,
// links, emphasis, one section per sheet, one per slide with its notes.
//
// Each format is read by a streaming reader of its own over archive/zip
// and encoding/xml tokens (README.md says why no library, with the
// measurements), held to bounds a hostile package cannot pass (zipdoc),
// so memory follows the output, not the document. The binary formats of
// Office 97-2003 (.doc, .xls, .ppt) are answered unsupported, by name.
package office

import (
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"slices"
	"strings"

	"github.com/siftd/sift/plugins/markdown"
	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/plugins/zipdoc"
)

// Defaults of the office block.
const (
	DefaultMaxRows    = 10_000
	DefaultMaxColumns = 256
	DefaultMaxOutput  = 1 << 20
)

// Bounds of the structure read, beyond the block's.
const (
	// maxDepth bounds the nesting of a part's XML elements.
	maxDepth = 256
	// maxTableDepth bounds tables within tables; deeper ones are skipped.
	maxTableDepth = 8
	// maxSpan bounds the columns one cell spans.
	maxSpan = 64
	// maxNotes bounds the footnotes read.
	maxNotes = 10_000
)

// MemoryPerBody is the memory a process needs per byte of the largest
// body (sdk.Info.MemoryPerBody).
const MemoryPerBody = 10

// nsRel is the namespace of OOXML's relationship ids (r:id).
const nsRel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"

// Media types read.
const (
	typeDOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
	typeXLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
	typePPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation"
	typeODT  = "application/vnd.oasis.opendocument.text"
	typeODS  = "application/vnd.oasis.opendocument.spreadsheet"
	typeODP  = "application/vnd.oasis.opendocument.presentation"
	typeDOC  = "application/msword"
	typeXLS  = "application/vnd.ms-excel"
	typePPT  = "application/vnd.ms-powerpoint"
)

// format is one kind of document and its reader.
type format struct {
	name string
	read func(*reader) error
}

// formats maps the media types handled (macro-enabled and template
// variants too) to their readers.
var formats = map[string]format{
	typeDOCX: {"DOCX", readDOCX},
	"application/vnd.openxmlformats-officedocument.wordprocessingml.template": {"DOTX", readDOCX},
	"application/vnd.ms-word.document.macroenabled.12":                        {"DOCM", readDOCX},
	typeXLSX: {"XLSX", readXLSX},
	"application/vnd.ms-excel.sheet.macroenabled.12":                       {"XLSM", readXLSX},
	"application/vnd.openxmlformats-officedocument.spreadsheetml.template": {"XLTX", readXLSX},
	typePPTX: {"PPTX", readPPTX},
	"application/vnd.openxmlformats-officedocument.presentationml.slideshow": {"PPSX", readPPTX},
	"application/vnd.ms-powerpoint.presentation.macroenabled.12":             {"PPTM", readPPTX},
	typeODT: {"ODT", readODT},
	typeODS: {"ODS", readODS},
	typeODP: {"ODP", readODP},
}

// config is the office block.
type config struct {
	MaxRows    int `json:"max_rows"`
	MaxColumns int `json:"max_columns"`
}

// Extractor reads office documents.
type Extractor struct {
	cfg config
}

// New returns the office extractor.
func New() sdk.Extractor {
	return &Extractor{cfg: config{MaxRows: DefaultMaxRows, MaxColumns: DefaultMaxColumns}}
}

// Info names the media types handled and the container rules that
// recognise them when they are served as application/octet-stream.
func (*Extractor) Info(context.Context) (sdk.Info, error) {
	types := []string{typeDOC, typeXLS, typePPT}
	for t := range formats {
		types = append(types, t)
	}
	slices.Sort(types)
	ooxml := func(mt, ext, mainPart string) sdk.ContainerRule {
		return sdk.ContainerRule{MediaType: mt, Extensions: []string{ext}, ZipEntries: []string{"[Content_Types].xml", mainPart}}
	}
	odf := func(mt, ext string) sdk.ContainerRule {
		return sdk.ContainerRule{MediaType: mt, Extensions: []string{ext}, ZipMimetype: mt}
	}
	ole := func(mt, ext string) sdk.ContainerRule {
		return sdk.ContainerRule{MediaType: mt, Extensions: []string{ext}, Magic: oleMagic, MagicWithin: 1}
	}
	return sdk.Info{Name: "office", Version: "1.0.0", ContentTypes: types,
		Capabilities: []string{sdk.CapabilityCostly},
		// The body, its copy in the gRPC request, and what one part
		// inflates to while it is read: a shared string table is held
		// whole (README.md has the measurement).
		MemoryPerBody: MemoryPerBody,
		Containers: []sdk.ContainerRule{
			ooxml(typeDOCX, "docx", "word/document.xml"),
			ooxml(typeXLSX, "xlsx", "xl/workbook.xml"),
			ooxml(typePPTX, "pptx", "ppt/presentation.xml"),
			odf(typeODT, "odt"), odf(typeODS, "ods"), odf(typeODP, "odp"),
			ole(typeDOC, "doc"), ole(typeXLS, "xls"), ole(typePPT, "ppt"),
		}}, nil
}

// Schema lists the office block's attributes.
func (*Extractor) Schema(context.Context) (sdk.Schema, error) {
	return sdk.Schema{Attributes: []sdk.Attribute{
		{Name: "max_rows", Type: sdk.TypeInteger, Description: fmt.Sprintf("rows read of one sheet or table (default %d)", DefaultMaxRows)},
		{Name: "max_columns", Type: sdk.TypeInteger, Description: fmt.Sprintf("columns read of one sheet (default %d)", DefaultMaxColumns)},
	}}, nil
}

// Configure reads the block.
func (e *Extractor) Configure(_ context.Context, raw json.RawMessage) (sdk.Diagnostics, error) {
	cfg := config{MaxRows: DefaultMaxRows, MaxColumns: DefaultMaxColumns}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &cfg); err != nil {
			return nil, fmt.Errorf("decode config: %w", err)
		}
	}
	var diags sdk.Diagnostics
	if cfg.MaxRows < 1 {
		diags = append(diags, sdk.Diagnostic{Severity: sdk.SeverityError, Summary: "Invalid max_rows", Detail: "max_rows must be at least 1.", Attribute: "max_rows"})
	}
	if cfg.MaxColumns < 1 || cfg.MaxColumns > 16384 {
		diags = append(diags, sdk.Diagnostic{Severity: sdk.SeverityError, Summary: "Invalid max_columns",
			Detail: "max_columns must be between 1 and 16384, a sheet's width.", Attribute: "max_columns"})
	}
	if len(diags) == 0 {
		e.cfg = cfg
	}
	return diags, nil
}

// Extract reads one document as markdown.
func (e *Extractor) Extract(ctx context.Context, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	mt := mediaType(req.ContentType)
	if legacy, ok := legacyFormat(mt, req.Body); ok {
		return nil, legacy
	}
	a, err := zipdoc.Open(req.Body, zipdoc.DefaultLimits)
	if err != nil {
		return nil, err
	}
	f, ok := formats[mt]
	if !ok {
		if f, ok = detect(a); !ok {
			return nil, sdk.Unsupported("%s is no office document this extractor reads (DOCX, XLSX, PPTX, ODT, ODS, ODP)", orNone(mt))
		}
	}
	maxOut := req.MaxOutputBytes
	if maxOut <= 0 {
		maxOut = DefaultMaxOutput
	}
	r := &reader{ctx: ctx, zip: a, w: markdown.NewWriter(maxOut), maxOut: maxOut, links: sdk.NewLinks(req.URL), cfg: e.cfg, format: f.name}
	if err := f.read(r); err != nil {
		return nil, err
	}
	return r.result()
}

// reader is one document being read: its package, the markdown written,
// the links met, and what was cut.
type reader struct {
	ctx    context.Context
	zip    *zipdoc.Archive
	w      *markdown.Writer
	maxOut int64
	links  *sdk.Links
	cfg    config
	format string
	meta   map[string]string
	// where names what is being read, for the warning of a cut.
	where string
	// slide counts a presentation's slides written.
	slide    int
	warnings []string
	cut      map[string]bool
}

// warnOnce adds a warning once per key.
func (r *reader) warnOnce(key, msg string) {
	if r.cut == nil {
		r.cut = map[string]bool{}
	}
	if !r.cut[key] {
		r.cut[key] = true
		r.warnings = append(r.warnings, msg)
	}
}

// cutRows warns that what's rows past the bound were left out.
func (r *reader) cutRows(what string, n int) {
	r.warnOnce("rows:"+what, fmt.Sprintf("%s cut at %d rows (max_rows): the rows after it are left out", what, n))
}

func (r *reader) result() (*sdk.ExtractResult, error) {
	if err := r.ctx.Err(); err != nil {
		return nil, err
	}
	content := r.w.String()
	res := &sdk.ExtractResult{Content: content, Format: sdk.FormatMarkdown, Metadata: r.meta, Links: r.links.List()}
	if res.Metadata == nil {
		res.Metadata = map[string]string{}
	}
	res.Metadata["format"] = r.format
	res.Title = res.Metadata["title"]
	if r.w.Full() {
		where := ""
		if r.where != "" {
			where = " in " + r.where
		}
		res.Warnings = append(res.Warnings, fmt.Sprintf("output cut at %d bytes%s: the rest of the document is left out", r.w.Len(), where))
	}
	if r.links.Dropped > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("links cut at %d: %d more left out", sdk.MaxLinks, r.links.Dropped))
	}
	res.Warnings = append(res.Warnings, r.warnings...)
	return res, nil
}

// detect tells a package's format from its parts, for a document given
// without a media type of its own (sift extract of a file).
func detect(a *zipdoc.Archive) (format, bool) {
	switch {
	case a.Has("[Content_Types].xml") && a.Has("word/document.xml"):
		return formats[typeDOCX], true
	case a.Has("[Content_Types].xml") && a.Has("xl/workbook.xml"):
		return formats[typeXLSX], true
	case a.Has("[Content_Types].xml") && a.Has("ppt/presentation.xml"):
		return formats[typePPTX], true
	}
	if b, err := a.ReadAll("mimetype"); err == nil && len(b) < 256 {
		f, ok := formats[strings.TrimSpace(string(b))]
		return f, ok
	}
	return format{}, false
}

func mediaType(contentType string) string {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return strings.ToLower(strings.TrimSpace(contentType))
	}
	return mt
}

func orNone(s string) string {
	if s == "" {
		return "a document without a media type"
	}
	return s
}

var _ sdk.Extractor = (*Extractor)(nil)
