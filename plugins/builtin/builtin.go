// Package builtin lists the extractors that ship with sift: those compiled
// into sift, which still run as subprocesses (`sift plugin NAME`) unless
// isolation = "none", and the html extractor, which ships as its own
// binary, sift-html (cmd/sift-html says why).
package builtin

import (
	"github.com/siftd/sift/plugins/csv"
	"github.com/siftd/sift/plugins/epub"
	"github.com/siftd/sift/plugins/feed"
	"github.com/siftd/sift/plugins/host"
	"github.com/siftd/sift/plugins/json"
	"github.com/siftd/sift/plugins/llmdigest"
	"github.com/siftd/sift/plugins/notebook"
	"github.com/siftd/sift/plugins/ocr"
	"github.com/siftd/sift/plugins/office"
	"github.com/siftd/sift/plugins/pdf"
	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/plugins/text"
)

// Extractors returns the built-in extractors by name.
func Extractors() host.Builtins {
	return host.Builtins{
		"delimited": csv.New,
		"feeds":     feed.New,
		"json":      json.New,
		"notebook":  notebook.New,
		"pdf":       pdf.New,
		"text":      text.New,
		"epub":      epub.New,
		"office":    office.New,
		"ocr":       ocr.NewExtractor,
	}
}

// Companions returns the built-in extractors that ship as binaries of
// their own. sift routes to them without starting them, so the media types
// are stated here; a test holds them equal to what the extractor announces.
func Companions() host.Companions {
	return host.Companions{"html": {Binary: "sift-html", ContentTypes: []string{"text/html", "application/xhtml+xml"}}}
}

// Named reports whether a built-in extractor, companion or digester is
// called name: a block of that name configures it.
func Named(name string) bool {
	_, ex := Extractors()[name]
	_, co := Companions()[name]
	_, dg := Digesters()[name]
	return ex || co || dg
}

// Digesters returns the built-in digesters by name.
func Digesters() host.DigesterBuiltins {
	return host.DigesterBuiltins{"llm": func() sdk.Digester { return llmdigest.New() }}
}

// Serve runs the built-in called name as a plugin process and reports
// whether such a built-in exists. It does not return when it does.
func Serve(name string) bool {
	if newEx, ok := Extractors()[name]; ok {
		sdk.Serve(sdk.ServeConfig{Extractor: newEx()})
		return true
	}
	if newDg, ok := Digesters()[name]; ok {
		sdk.Serve(sdk.ServeConfig{Digester: newDg()})
		return true
	}
	return false
}
