package host

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/siftd/sift/plugins/sdk"
)

// copyFile copies src to dst, mode 0755, adding extra bytes at the end.
func copyFile(t *testing.T, src, dst string, extra []byte) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if _, err := out.Write(extra); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestBrokenPoolFailsAtOnce: a pool whose binary no longer matches its pin
// cannot restart its crashed process; calls then fail at once with
// ErrUnavailable instead of waiting for a process that never comes, and
// the pool says why.
func TestBrokenPoolFailsAtOnce(t *testing.T) {
	spec := testSpec(t, "")
	bin := filepath.Join(t.TempDir(), "plugin")
	copyFile(t, spec.Command[0], bin, nil)
	spec.Command, spec.SHA256, spec.Pool = []string{bin}, testFileSHA256(t, bin), 1
	h := startHost(t, spec)
	pool := h.Pools()[0]

	// Another binary takes the pinned one's place.
	swapped := bin + ".new"
	copyFile(t, spec.Command[0], swapped, []byte("not the pinned binary"))
	if err := os.Rename(swapped, bin); err != nil {
		t.Fatal(err)
	}
	if _, err := extract(t, h, "exit"); !errors.Is(err, ErrCrashed) {
		t.Fatalf("crash: %v", err)
	}

	_, ex, _ := h.Route("text/x-test")
	for i := range 3 {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		start := time.Now()
		_, err := ex.Extract(ctx, &sdk.ExtractRequest{Body: []byte("x"), ContentType: "text/x-test"})
		cancel()
		if !errors.Is(err, ErrUnavailable) {
			t.Fatalf("call %d: err = %v after %s, want %v", i, err, time.Since(start), ErrUnavailable)
		}
		// The first call may wait for the first restart to fail; the
		// others must not wait at all, and none for a call's timeout.
		if took := time.Since(start); took >= spec.Timeout {
			t.Errorf("call %d failed only after %s", i, took)
		}
	}
	if err := pool.Failing(); err == nil {
		t.Error("the pool does not say it is failing")
	}
}

// TestQueuedCallWaitsNoLongerThanItsTimeout: a call waiting for a process
// gives up after the call timeout, however long the caller would wait.
func TestQueuedCallWaitsNoLongerThanItsTimeout(t *testing.T) {
	spec := testSpec(t, "")
	spec.Pool = 1
	// Short enough that the queued call's wait ends well inside the test's
	// own 30 s; the hanging call, started first, is cut off first, and its
	// replacement process takes longer to start than the queued call's
	// timer has left.
	spec.Timeout = 2 * time.Second
	h := startHost(t, spec)
	busy := make(chan error, 1)
	go func() { _, err := extract(t, h, "hang"); busy <- err }()
	// Wait until the hanging call holds the only process.
	pool := h.Pools()[0]
	deadline := time.Now().Add(10 * time.Second)
	for len(pool.idle) > 0 {
		if time.Now().After(deadline) {
			t.Fatal("the hanging call never took the process")
		}
		time.Sleep(5 * time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	start := time.Now()
	_, ex, _ := h.Route("text/x-test")
	_, err := ex.Extract(ctx, &sdk.ExtractRequest{Body: []byte("x"), ContentType: "text/x-test"})
	if !errors.Is(err, ErrTimeout) || time.Since(start) > 10*time.Second {
		t.Errorf("queued call: %v after %s, want %v within the call timeout", err, time.Since(start), ErrTimeout)
	}
	<-busy
}
