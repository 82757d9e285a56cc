package host

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"golang.org/x/sys/unix"
)

// TestPinHoldsAgainstASwap: while another process swaps the pinned binary
// with an unpinned one in the plugin's directory as fast as it can, no
// start runs the unpinned one: what is hashed is what runs.
func TestPinHoldsAgainstASwap(t *testing.T) {
	const starts = 40
	spec := testSpec(t, "")
	dir := t.TempDir()
	bin := filepath.Join(dir, "plugin")
	copyFile(t, spec.Command[0], bin, nil)
	spec.Command, spec.SHA256, spec.Pool = []string{bin}, testFileSHA256(t, bin), 1
	// The unpinned binary, the same plugin with bytes added, leaves a line
	// in marker for every run.
	marker := filepath.Join(dir, "ran")
	t.Setenv(envUnpinnedMarker, marker)
	spec.Env = append(spec.Env, envUnpinnedMarker)
	other := filepath.Join(dir, "other")
	copyFile(t, spec.Command[0], other, []byte(unpinnedTrailer))

	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() {
		for ctx.Err() == nil {
			// Atomic: the plugin's path never goes missing.
			if err := unix.Renameat2(unix.AT_FDCWD, bin, unix.AT_FDCWD, other, unix.RENAME_EXCHANGE); err != nil {
				t.Errorf("swap: %v", err)
				return
			}
		}
	})
	l := &launcher{spec: &spec, log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	ran := 0
	for range starts {
		p, err := l.start(context.Background())
		if err == nil {
			ran++
			p.close()
		}
	}
	stop()
	wg.Wait()
	got, _ := os.ReadFile(marker)
	unpinned := bytes.Count(got, []byte("ran\n"))
	t.Logf("%d starts: %d ran the pinned plugin, %d ran the unpinned binary", starts, ran, unpinned)
	if unpinned != 0 {
		t.Fatalf("the unpinned binary ran %d times in %d starts", unpinned, starts)
	}
	if ran == 0 {
		t.Fatal("the pinned plugin never started")
	}
}
