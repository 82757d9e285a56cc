package host

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/stages"
)

// BenchmarkCallOverhead compares one extraction call through a plugin
// subprocess (gRPC over a unix socket, body sent and echoed back) with the
// same call in process, for three payload sizes.
func BenchmarkCallOverhead(b *testing.B) {
	spec := testSpec(b, "")
	spec.Pool, spec.MaxMessage, spec.Timeout = 1, 8<<20, 30*time.Second
	h, diags := Start(context.Background(), []Spec{spec}, Options{Stderr: io.Discard})
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	defer h.Close()
	_, pooled, _ := h.Route("text/x-test")
	for _, size := range []int{10 << 10, 200 << 10, 2 << 20} {
		req := &sdk.ExtractRequest{Body: bytes.Repeat([]byte("a"), size), ContentType: "text/x-test"}
		for _, mode := range []struct {
			name string
			ex   stages.Extractor
		}{{"inprocess", faultyExtractor{}}, {"subprocess", pooled}} {
			b.Run(fmt.Sprintf("%s/%dKB", mode.name, size>>10), func(b *testing.B) {
				b.SetBytes(int64(size))
				for b.Loop() {
					if _, err := mode.ex.Extract(context.Background(), req); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
