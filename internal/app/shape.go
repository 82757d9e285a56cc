package app

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/plugins/sdk/hclconfig"
)

// shape fingerprints what the chain's output depends on: each stage's
// kind, content types and settings (a cache stage's lifetimes and budgets
// aside), and each plugin block's command, pin, content types and
// settings of its own. Cache keys carry it, so a setting changed on the
// same data directory (an extract filter, a max_output, another
// extractor, a pdf block's max_pages) starts the cache afresh instead of
// restoring what the old chain made. How a plugin runs (its pool,
// timeout, memory, cpus, isolation, per_caller, env), a block holding
// nothing else, the file's comments and layout, callers, the listener and
// the other blocks play no part: changing them keeps the cache.
func shape(cfg *config.Config) string {
	h := sha256.New()
	for _, st := range chainBlocks(cfg) {
		fmt.Fprintf(h, "stage %q %q\n", st.Kind, st.ContentTypes)
		if st.Kind != "cache" { // how long and how much it keeps, not what
			writeSettings(h, cfg, st.Body, nil)
		}
	}
	for _, blocks := range [][]config.Plugin{cfg.Extractors, cfg.Digesters} {
		for _, p := range blocks {
			var own bytes.Buffer
			writeSettings(&own, cfg, p.Body, hclconfig.SiftAttributes)
			if own.Len() == 0 && len(p.Command) == 0 && p.SHA256 == "" && len(p.ContentTypes) == 0 {
				continue // tunes how a built-in runs: as if there were no block
			}
			fmt.Fprintf(h, "plugin %q %q %q %q\n", p.Name, p.Command, p.SHA256, p.ContentTypes)
			h.Write(own.Bytes())
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// writeSettings writes body's attributes but those named in skip, sorted
// by name, each with its expression as the file writes it, then its nested
// blocks the same way; the file's comments and layout between them do not
// count.
func writeSettings(h io.Writer, cfg *config.Config, body hcl.Body, skip []string) {
	sb, ok := body.(*hclsyntax.Body)
	if !ok {
		return
	}
	for _, name := range slices.Sorted(maps.Keys(sb.Attributes)) {
		if slices.Contains(skip, name) {
			continue
		}
		fmt.Fprintf(h, "%s = ", name)
		h.Write(source(cfg, sb.Attributes[name].Expr.Range()))
		h.Write([]byte{'\n'})
	}
	for _, b := range sb.Blocks {
		fmt.Fprintf(h, "%s %q {\n", b.Type, b.Labels)
		writeSettings(h, cfg, b.Body, nil)
		h.Write([]byte("}\n"))
	}
}

// source is the text of r as the file has it.
func source(cfg *config.Config, r hcl.Range) []byte {
	if f := cfg.Files[r.Filename]; f != nil && r.End.Byte <= len(f.Bytes) && r.Start.Byte <= r.End.Byte {
		return f.Bytes[r.Start.Byte:r.End.Byte]
	}
	return nil
}
