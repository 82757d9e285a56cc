package host

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/siftd/sift/internal/testkit/testwait"
	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/stages"
)

// admitted starts the faulty plugin as real subprocesses behind admission:
// three slots, one per caller, each call cut off after timeout.
func admitted(t *testing.T, timeout time.Duration) stages.Extractor {
	t.Helper()
	spec := testSpec(t, "")
	spec.Pool, spec.PerCaller, spec.Timeout = 3, 1, timeout
	h := startHost(t, spec)
	_, ex, ok := h.Route("text/x-test")
	if !ok {
		t.Fatal("no route")
	}
	if _, isAdmission := ex.(*admission); !isAdmission {
		t.Fatalf("per_caller set, but the route is a %T", ex)
	}
	return ex
}

func extractAs(ex stages.Extractor, caller, mode, body string) (*sdk.ExtractResult, error) {
	return extractWith(context.Background(), ex, caller, map[string]string{"mode": mode}, body)
}

// extractGated sends a "gate" call: it lasts until openGate(gate).
func extractGated(ctx context.Context, ex stages.Extractor, caller, gate, body string) (*sdk.ExtractResult, error) {
	return extractWith(ctx, ex, caller, map[string]string{"mode": "gate", "gate": gate}, body)
}

func extractWith(ctx context.Context, ex stages.Extractor, caller string, options map[string]string, body string) (*sdk.ExtractResult, error) {
	return stages.ExtractFor(ctx, ex, caller, &sdk.ExtractRequest{Body: []byte(body), ContentType: "text/x-test", Options: options})
}

// Each fault costs its own request an error while another caller's good
// document, sent at the same time, is served.
func TestAdmissionFaultsCostOneRequest(t *testing.T) {
	faults := []struct {
		mode    string
		want    error
		timeout time.Duration
	}{
		{"panic", ErrFailed, callTimeout},
		{"hang", ErrTimeout, hangTimeout},
		{"alloc", errOutOfMemoryOrCrashed, callTimeout},
	}
	for _, f := range faults {
		t.Run(f.mode, func(t *testing.T) {
			if f.mode == "alloc" && raceEnabled {
				t.Skip("the race detector's shadow memory cannot live under RLIMIT_DATA; covered by the non-race pass")
			}
			ex := admitted(t, f.timeout)
			var wg sync.WaitGroup
			var badErr, goodErr error
			var good *sdk.ExtractResult
			wg.Go(func() { _, badErr = extractAs(ex, "mallory", f.mode, "hostile "+f.mode) })
			wg.Go(func() { good, goodErr = extractAs(ex, "alice", "", "a good document") })
			wg.Wait()
			if !isFault(badErr, f.want) {
				t.Fatalf("%s: %v, want %v", f.mode, badErr, f.want)
			}
			if goodErr != nil || good.Content != "echo: a good document" {
				t.Fatalf("the concurrent good document: %v %v", good, goodErr)
			}
		})
	}
}

// Two callers asking for the same document at once share one extraction.
func TestAdmissionSharesOneExtraction(t *testing.T) {
	ex := admitted(t, callTimeout)
	gate := filepath.Join(t.TempDir(), "gate")
	answers := make([]string, 2)
	var wg sync.WaitGroup
	ask := func(ctx context.Context, i int, caller string) {
		wg.Go(func() {
			res, err := extractGated(ctx, ex, caller, gate, "the same paper")
			if err != nil {
				t.Error(err)
				return
			}
			answers[i] = res.Content
		})
	}
	ask(context.Background(), 0, "alice")
	defer wg.Wait()
	defer openGate(t, gate) // on a failure before the gate opens below
	waitInUse(t, ex.(*admission), 1)
	// Bob asks while alice's extraction is held at the gate; it opens once
	// bob is inside Extract, waiting (or, were sharing broken, extracting).
	bob := newDoneWatch()
	ask(bob, 1, "bob")
	testwait.For(t, "bob's request to reach the extractor", bob.watched)
	openGate(t, gate)
	wg.Wait()
	if answers[0] == "" || answers[0] != answers[1] {
		t.Fatalf("answers %q: want one extraction shared", answers)
	}
	again, err := extractGated(context.Background(), ex, "alice", gate, "the same paper")
	if err != nil || again.Content == answers[0] {
		t.Fatalf("a later request: %v, %v; want a fresh extraction, not a finished one reused", again, err)
	}
}

// A caller over its share is busy at once while another caller is served;
// batch work has a share of its own.
func TestAdmissionPerCallerShare(t *testing.T) {
	ex := admitted(t, callTimeout)
	gate := filepath.Join(t.TempDir(), "gate")
	var wg sync.WaitGroup
	wg.Go(func() {
		if _, err := extractGated(context.Background(), ex, "alice", gate, "first"); err != nil {
			t.Error(err)
		}
	})
	defer wg.Wait()
	defer openGate(t, gate)
	waitInUse(t, ex.(*admission), 1)
	if _, err := extractAs(ex, "alice", "", "second"); !errors.Is(err, stages.ErrBusy) {
		t.Fatalf("alice's second document: %v, want busy", err)
	}
	if res, err := extractAs(ex, "bob", "", "bob's"); err != nil || res.Content != "echo: bob's" {
		t.Fatalf("bob: %v %v", res, err)
	}
	if res, err := extractAs(ex, "alice/batch", "", "batch"); err != nil || res.Content != "echo: batch" {
		t.Fatalf("alice's batch: %v %v", res, err)
	}
}

func waitInUse(t *testing.T, a *admission, n int) {
	t.Helper()
	testwait.For(t, fmt.Sprintf("%d slot(s) in use", n), func() bool {
		a.mu.Lock()
		defer a.mu.Unlock()
		return a.inUse == n
	})
}

// openGate lets the "gate" calls waiting on path finish.
func openGate(t *testing.T, path string) {
	t.Helper()
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
}

// doneWatch is a context that tells when its Done channel was asked for:
// whoever asks is about to wait on it.
type doneWatch struct {
	context.Context
	once  sync.Once
	asked chan struct{}
}

func newDoneWatch() *doneWatch {
	return &doneWatch{Context: context.Background(), asked: make(chan struct{})}
}

func (w *doneWatch) Done() <-chan struct{} {
	w.once.Do(func() { close(w.asked) })
	return w.Context.Done()
}

func (w *doneWatch) watched() bool {
	select {
	case <-w.asked:
		return true
	default:
		return false
	}
}
