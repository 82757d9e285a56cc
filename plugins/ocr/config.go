package ocr

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/siftd/sift/plugins/sdk"
)

// Config is the OCR part of a block: the ocr block's languages,
// page_timeout and page_memory, and the pdf block's, named with an ocr_
// prefix.
type Config struct {
	Languages   []string
	PageTimeout string
	PageMemory  string
}

// Attributes are the block attributes of Config, each name after prefix.
func Attributes(prefix string) []sdk.Attribute {
	return []sdk.Attribute{
		{Name: prefix + "languages", Type: sdk.TypeStringList, Description: `tesseract's languages to read, together (default ["eng"]); each needs its Debian pack, tesseract-ocr-LANG`},
		{Name: prefix + "page_timeout", Type: sdk.TypeString, Description: `one page's OCR at most, past which its tesseract process is killed (default "60s")`},
		{Name: prefix + "page_memory", Type: sdk.TypeString, Description: `the memory of one page's tesseract process at most (default "1GiB")`},
	}
}

// Start finds the engine and checks c against it. Without tesseract the
// engine is nil and a warning says what to install: sift runs, and reads
// no scan. A language that is not installed, or a malformed bound, is an
// error naming the attribute (prefix and its name).
func (c Config) Start(ctx context.Context, prefix string) (*Engine, sdk.Diagnostics) {
	var diags sdk.Diagnostics
	timeout := DefaultPageTimeout
	if c.PageTimeout != "" {
		d, err := time.ParseDuration(c.PageTimeout)
		if err != nil || d <= 0 {
			diags = append(diags, sdk.Diagnostic{Severity: sdk.SeverityError, Summary: "Invalid " + prefix + "page_timeout",
				Detail: fmt.Sprintf("%q is not a positive duration such as \"60s\".", c.PageTimeout), Attribute: prefix + "page_timeout"})
		}
		timeout = d
	}
	memory := int64(DefaultPageMemory)
	if c.PageMemory != "" {
		n, err := ParseSize(c.PageMemory)
		if err != nil || n < 64<<20 {
			diags = append(diags, sdk.Diagnostic{Severity: sdk.SeverityError, Summary: "Invalid " + prefix + "page_memory",
				Detail: fmt.Sprintf("%q is not a size of at least 64MiB, such as \"1GiB\".", c.PageMemory), Attribute: prefix + "page_memory"})
		}
		memory = n
	}
	langs := c.Languages
	if len(langs) == 0 {
		langs = DefaultLanguages
	}
	path, version, installed, err := Find(ctx)
	if errors.Is(err, ErrMissing) {
		return nil, append(diags, sdk.Diagnostic{Severity: sdk.SeverityWarning, Summary: "OCR engine missing",
			Detail: "Scans and images cannot be read: " + err.Error() + "."})
	}
	if err != nil {
		return nil, append(diags, sdk.Diagnostic{Severity: sdk.SeverityWarning, Summary: "OCR engine broken",
			Detail: "Scans and images cannot be read: " + err.Error() + "."})
	}
	if missing := MissingLanguages(langs, installed); len(missing) > 0 {
		var packs []string
		for _, l := range missing {
			packs = append(packs, "tesseract-ocr-"+strings.ReplaceAll(strings.ToLower(l), "_", "-"))
		}
		diags = append(diags, sdk.Diagnostic{Severity: sdk.SeverityError, Summary: "OCR language not installed",
			Detail: fmt.Sprintf("tesseract has no %s (installed: %s): install Debian's %s.", strings.Join(missing, ", "),
				strings.Join(installed, ", "), strings.Join(packs, ", ")), Attribute: prefix + "languages"})
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return NewEngine(path, version, langs, timeout, memory), diags
}

// ParseSize reads a size such as "512MiB", "1GiB" or "1048576".
func ParseSize(s string) (int64, error) {
	s = strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1000}, {"MB", 1000 * 1000}, {"GB", 1000 * 1000 * 1000}, {"B", 1}} {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("size %q: want a whole number of B, KiB, MiB or GiB", s)
	}
	return n * mult, nil
}

// Mode is a request's ocr option: auto reads by OCR what has no text,
// always reads every page by OCR, never reads none.
type Mode string

// The modes of the ocr option.
const (
	Auto   Mode = "auto"
	Always Mode = "always"
	Never  Mode = "never"
)

// ModeOption is the per-request ocr option, as the pdf and ocr
// extractors declare it.
var ModeOption = sdk.Option{Name: "ocr", Type: sdk.TypeString, Values: []string{string(Auto), string(Always), string(Never)},
	Description: "auto (default): read by OCR the pages without a text layer; always: every page; never: none"}

// RequestMode is the request's ocr option, auto when it sets none.
func RequestMode(opts map[string]string) Mode {
	if m := Mode(opts["ocr"]); m == Always || m == Never {
		return m
	}
	return Auto
}

// Warning is what a result read by OCR says of it: which pages, by which
// engine and languages, and tesseract's mean word confidence.
func (e *Engine) Warning(what string, confidence float64, words int) string {
	return fmt.Sprintf("%s read by OCR (tesseract %s, %s): mean word confidence %.0f%% over %d words; OCR text may hold misread words",
		what, e.Version, strings.Join(e.Languages, "+"), confidence, words)
}
