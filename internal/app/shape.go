package app

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/siftd/sift/config"
)

// shape fingerprints what the chain's output depends on: each stage block
// and each plugin block as written (kind or name, content types, command,
// pin and the block's source text). Cache keys carry it, so a stage's
// settings changed on the same data directory (an extract filter, a
// max_output, another extractor) start the cache afresh instead of
// restoring what the old chain made. Callers, the listener and the other
// blocks play no part: changing them keeps the cache.
func shape(cfg *config.Config) string {
	h := sha256.New()
	for _, st := range chainBlocks(cfg) {
		fmt.Fprintf(h, "stage %q %q\n", st.Kind, st.ContentTypes)
		writeSource(h, cfg, st.Body)
	}
	for _, blocks := range [][]config.Plugin{cfg.Extractors, cfg.Digesters} {
		for _, p := range blocks {
			fmt.Fprintf(h, "plugin %q %q %q %q\n", p.Name, p.Command, p.SHA256, p.ContentTypes)
			writeSource(h, cfg, p.Body)
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// writeSource writes the text of body as the file has it.
func writeSource(h hash.Hash, cfg *config.Config, body hcl.Body) {
	sb, ok := body.(*hclsyntax.Body)
	if !ok {
		return
	}
	r := sb.SrcRange
	if f := cfg.Files[r.Filename]; f != nil && r.End.Byte <= len(f.Bytes) && r.Start.Byte <= r.End.Byte {
		h.Write(f.Bytes[r.Start.Byte:r.End.Byte])
	}
}
