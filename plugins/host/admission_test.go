package host

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/stages"
)

// admitted starts the faulty plugin as real subprocesses behind admission:
// three slots, one per caller.
func admitted(t *testing.T) stages.Extractor {
	t.Helper()
	spec := testSpec(t, "")
	spec.Pool, spec.PerCaller = 3, 1
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
	ctx := stages.WithCaller(context.Background(), caller)
	return ex.Extract(ctx, &sdk.ExtractRequest{Body: []byte(body), ContentType: "text/x-test", Options: map[string]string{"mode": mode}})
}

// Each fault costs its own request an error while another caller's good
// document, sent at the same time, is served.
func TestAdmissionFaultsCostOneRequest(t *testing.T) {
	ex := admitted(t)
	faults := []struct {
		mode string
		want error
	}{
		{"panic", ErrCrashed},
		{"hang", ErrTimeout},
	}
	if !raceEnabled { // the race detector's shadow memory cannot live under RLIMIT_DATA
		faults = append(faults, struct {
			mode string
			want error
		}{"alloc", ErrCrashed})
	}
	for _, f := range faults {
		t.Run(f.mode, func(t *testing.T) {
			var wg sync.WaitGroup
			var badErr, goodErr error
			var good *sdk.ExtractResult
			wg.Go(func() { _, badErr = extractAs(ex, "mallory", f.mode, "hostile "+f.mode) })
			wg.Go(func() { good, goodErr = extractAs(ex, "alice", "", "a good document") })
			wg.Wait()
			if !errors.Is(badErr, f.want) {
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
	ex := admitted(t)
	var wg sync.WaitGroup
	answers := make([]string, 2)
	for i, caller := range []string{"alice", "bob"} {
		wg.Go(func() {
			res, err := extractAs(ex, caller, "slow", "the same paper")
			if err != nil {
				t.Error(err)
				return
			}
			answers[i] = res.Content
		})
	}
	wg.Wait()
	if answers[0] == "" || answers[0] != answers[1] {
		t.Fatalf("answers %q: want one extraction shared", answers)
	}
	again, _ := extractAs(ex, "alice", "slow", "the same paper")
	if again.Content == answers[0] {
		t.Fatal("a later request reused a finished extraction")
	}
}

// A caller over its share is busy at once while another caller is served;
// batch work has a share of its own.
func TestAdmissionPerCallerShare(t *testing.T) {
	ex := admitted(t)
	started := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		close(started)
		if _, err := extractAs(ex, "alice", "slow", "first"); err != nil {
			t.Error(err)
		}
	})
	<-started
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
	wg.Wait()
}

func waitInUse(t *testing.T, a *admission, n int) {
	t.Helper()
	for range 1000 {
		a.mu.Lock()
		got := a.inUse
		a.mu.Unlock()
		if got == n {
			return
		}
		sleepBriefly()
	}
	t.Fatalf("in use never reached %d", n)
}

func sleepBriefly() { time.Sleep(2 * time.Millisecond) }
