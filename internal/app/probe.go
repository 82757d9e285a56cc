package app

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dustin/go-humanize"
	"github.com/hashicorp/hcl/v2"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/plugins/host"
)

// probeNear is the share of its memory limit a plugin may take on a small
// sample before validate warns that real documents will need more.
const probeNear = 0.8

// probeMemory starts one process of an extractor the file has a block for,
// under its memory limit, and has it read a small sample document, as its
// pool's first document would be: a process that dies is an error on the
// block (a pool of them would answer every document "plugin crashed"),
// one that comes near its limit a warning. Built-ins without a block run
// with the shipped limits and are not probed.
func probeMemory(ctx context.Context, s *host.Spec, cfg json.RawMessage) hcl.Diagnostics {
	if s.Digester || s.Isolation != config.IsolationSubprocess || s.Memory <= 0 || s.DefRange.Filename == "" || len(s.ContentTypes) == 0 {
		return nil
	}
	contentType, sample := probeSample(s.ContentTypes)
	peak, err := host.Probe(ctx, s, cfg, "", sample, contentType)
	limit := humanize.IBytes(uint64(s.Memory))
	if s.Memory%(1<<20) == 0 {
		limit = fmt.Sprintf("%dMiB", s.Memory>>20) // as the file spells it
	}
	if err != nil {
		detail := fmt.Sprintf("extractor %q with memory = %q: %v", s.Name, limit, err)
		if peak > 0 {
			detail += fmt.Sprintf(" (peak %s)", humanize.IBytes(uint64(peak)))
		}
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Extractor does not run within its memory",
			Detail:  detail + ". Its pool would answer every document 502 plugin crashed: raise memory (the shipped html block has 512MiB, pdf 768MiB).",
			Subject: s.DefRange.Ptr()}}
	}
	if peak > int64(probeNear*float64(s.Memory)) {
		return hcl.Diagnostics{{Severity: hcl.DiagWarning, Summary: "Extractor near its memory limit",
			Detail: fmt.Sprintf("extractor %q took %s of its memory = %q on a small sample document; larger documents will need more, and a process that reaches the limit is killed.",
				s.Name, humanize.IBytes(uint64(peak)), limit),
			Subject: s.DefRange.Ptr()}}
	}
	return nil
}

// probeSample is a small document of the first of types the probe can
// make one of: a one-page PDF, an HTML page, else a line of text.
func probeSample(types []string) (string, []byte) {
	for _, t := range types {
		switch {
		case t == "application/pdf":
			return t, []byte(samplePDF)
		case t == "text/html" || t == "application/xhtml+xml":
			return t, []byte("<!doctype html><html><head><title>sift probe</title></head><body><article><h1>sift probe</h1><p>A small page.</p></article></body></html>")
		case t == "application/json" || strings.HasSuffix(t, "+json"):
			return t, []byte(`{"probe": "sift"}`)
		}
	}
	t := types[0]
	if strings.Contains(t, "*") {
		t = "text/plain"
	}
	return t, []byte("sift probe: a line of text.\n")
}

// samplePDF is a one-page PDF with one drawn rectangle.
const samplePDF = `%PDF-1.4
1 0 obj
<< /Type /Catalog /Pages 2 0 R >>
endobj
2 0 obj
<< /Type /Pages /Kids [3 0 R] /Count 1 >>
endobj
3 0 obj
<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>
endobj
4 0 obj
<< /Length 28 >>
stream
0 0 1 RG 20 20 160 160 re S
endstream
endobj
xref
0 5
0000000000 65535 f 
0000000009 00000 n 
0000000058 00000 n 
0000000115 00000 n 
0000000202 00000 n 
trailer
<< /Size 5 /Root 1 0 R >>
startxref
279
%%EOF
`
