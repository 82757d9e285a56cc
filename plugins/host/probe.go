package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"

	"github.com/siftd/sift/plugins/sdk"
)

// Probe starts one process of an extractor spec as its pool would (its
// memory limit and CPUs applied), configures it with cfg (Configure's
// answer) and has it extract sample, a small document of contentType. It
// returns the process's peak resident memory (0 where the platform cannot
// say) and an error when the process does not start, or dies, within its
// limit: what a pool would meet on its first document. self is the binary
// re-executed for a compiled-in built-in (os.Executable when "").
func Probe(ctx context.Context, s *Spec, cfg json.RawMessage, self string, sample []byte, contentType string) (int64, error) {
	if s.Digester {
		return 0, errors.New("probe: digesters are not probed")
	}
	if self == "" {
		exe, err := os.Executable()
		if err != nil {
			return 0, fmt.Errorf("probe: %w", err)
		}
		self = exe
	}
	sockets, err := socketDir()
	if err != nil {
		return 0, fmt.Errorf("probe: %w", err)
	}
	defer os.RemoveAll(sockets)
	// The pool's own cache directory: what the probe compiles (PDFium's
	// WebAssembly) serve then finds ready, and the other way round.
	cache, _ := cacheDir(s.Name)
	l := &launcher{spec: s, self: self, config: cfg, sockets: sockets, cache: cache, log: slog.New(slog.DiscardHandler)}
	pr, err := l.start(ctx)
	if err != nil {
		return 0, err
	}
	defer pr.close()
	_, err = pr.ex.Extract(ctx, &sdk.ExtractRequest{Body: sample, ContentType: contentType, URL: "http://probe.invalid/"})
	var de *sdk.DocError
	peak := peakMemory(pr)
	switch {
	case pr.exited():
		return peak, errors.New("its process exited while extracting a small sample document")
	case err != nil && !errors.As(err, &de):
		return peak, fmt.Errorf("a small sample document failed: %w", err)
	}
	return peak, nil
}

// peakMemory is the process's peak resident memory, or 0.
func peakMemory(p *proc) int64 {
	rc := p.client.ReattachConfig()
	if rc == nil {
		return 0
	}
	return processPeak(rc.Pid)
}
