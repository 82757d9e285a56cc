package host

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/siftd/sift/internal/testkit/testwait"
	"github.com/siftd/sift/plugins/sdk"
)

// testMemory is the test plugin's memory limit.
const testMemory = 256 << 20

// The test plugin's call deadlines. callTimeout is generous, so that a
// call a test expects to end (in an answer, a crash or the memory limit)
// never races it; hangTimeout cuts off the hung calls a test waits for,
// and is still far longer than a trivial call takes on a loaded machine.
const (
	callTimeout = time.Minute
	hangTimeout = 2 * time.Second
)

func testSpec(t testing.TB, body string) Spec {
	t.Helper()
	t.Setenv(envTestPlugin, "1")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	file, diags := hclsyntax.ParseConfig([]byte(body), "test.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	memory := int64(testMemory)
	if raceEnabled {
		memory = 0
	}
	return Spec{
		Name: "faulty", ContentTypes: []string{"text/x-test"},
		Command: []string{self}, SHA256: testFileSHA256(t, self),
		Pool: 2, Timeout: callTimeout, Memory: memory, MaxMessage: 1 << 20,
		Body: file.Body,
	}
}

func testFileSHA256(t testing.TB, path string) string {
	t.Helper()
	sum, err := FileSHA256(path)
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

func startHost(t *testing.T, spec Spec) *Host {
	t.Helper()
	h, diags := Start(context.Background(), []Spec{spec}, Options{
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Stderr: io.Discard,
	})
	if diags.HasErrors() {
		t.Fatalf("start: %s", diags.Error())
	}
	t.Cleanup(h.Close)
	return h
}

func extract(t *testing.T, h *Host, mode string) (*sdk.ExtractResult, error) {
	t.Helper()
	_, ex, ok := h.Route("text/x-test")
	if !ok {
		t.Fatal("no route for text/x-test")
	}
	return ex.Extract(context.Background(), &sdk.ExtractRequest{
		Body: []byte("hello"), ContentType: "text/x-test", Options: map[string]string{"mode": mode},
	})
}

// waitFull waits for the pool to be back to its full size.
func waitFull(t *testing.T, p *Pool) {
	t.Helper()
	testwait.For(t, "the pool to refill after the fault", func() bool { return p.Size() == p.Capacity() })
}

// errOutOfMemoryOrCrashed is the fault a memory limit causes: ErrOutOfMemory
// or ErrCrashed, by which allocation the kernel refused first.
var errOutOfMemoryOrCrashed = errors.New("out of memory or crashed")

// isFault reports whether err is the fault want, as errors.Is does.
func isFault(err, want error) bool {
	if want == errOutOfMemoryOrCrashed {
		return errors.Is(err, ErrOutOfMemory) || errors.Is(err, ErrCrashed)
	}
	return errors.Is(err, want)
}

func TestPoolSurvivesFaults(t *testing.T) {
	tests := []struct {
		mode    string
		wantErr error
		wantMsg string
		timeout time.Duration // the call deadline, when not callTimeout
	}{
		// The SDK recovers the panic: the call fails, the process lives on.
		{mode: "panic", wantErr: ErrFailed, wantMsg: "plugin panicked in Extract: extractor exploded"},
		{mode: "exit", wantErr: ErrCrashed, wantMsg: "plugin crashed: its process ended during the call and was replaced"},
		{mode: "hang", wantErr: ErrTimeout, wantMsg: "killed and replaced", timeout: hangTimeout},
		{mode: "oversize", wantErr: ErrReplyTooLarge, wantMsg: "larger than max"},
		{mode: "oom", wantErr: ErrOutOfMemory, wantMsg: "plugin out of memory: reading the document needed more than the extractor's memory limit of"},
		// The limit kills the process by whichever allocation fails first:
		// the heap's (out of memory) or a mapping's (a crash).
		{mode: "alloc", wantErr: errOutOfMemoryOrCrashed},
	}
	for _, tc := range tests {
		t.Run(tc.mode, func(t *testing.T) {
			if tc.mode == "alloc" && raceEnabled {
				t.Skip("memory limits cannot apply under the race detector; covered by the non-race pass")
			}
			// One process: the next call must be served by its successor.
			spec := testSpec(t, "")
			spec.Pool = 1
			if tc.timeout != 0 {
				spec.Timeout = tc.timeout
			}
			h := startHost(t, spec)
			pool := h.Pools()[0]
			_, err := extract(t, h, tc.mode)
			if !isFault(err, tc.wantErr) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
			if !strings.Contains(err.Error(), tc.wantMsg) {
				t.Errorf("err = %q, want it to mention %q", err, tc.wantMsg)
			}
			res, err := extract(t, h, "")
			if err != nil || res.Content != "echo: hello" {
				t.Fatalf("next call: %v, %v; want the host to keep serving", res, err)
			}
			waitFull(t, pool)
		})
	}
}

func TestPoolServesOthersDuringHang(t *testing.T) {
	spec := testSpec(t, "")
	spec.Timeout = hangTimeout
	h := startHost(t, spec)
	pool := h.Pools()[0]
	testwait.For(t, "both processes to start", func() bool { return len(pool.idle) == pool.Capacity() })
	hung := make(chan error, 1)
	go func() {
		_, err := extract(t, h, "hang")
		hung <- err
	}()
	testwait.For(t, "the hang to take its process", func() bool { return len(pool.idle) == pool.Capacity()-1 })
	if res, err := extract(t, h, ""); err != nil || res.Content != "echo: hello" {
		t.Fatalf("call beside a hung one: %v, %v", res, err)
	}
	if err := <-hung; !errors.Is(err, ErrTimeout) {
		t.Fatalf("hung call: %v, want ErrTimeout", err)
	}
}

func TestDocErrorKeepsProcess(t *testing.T) {
	h := startHost(t, testSpec(t, ""))
	_, err := extract(t, h, "invalid")
	var de *sdk.DocError
	if !errors.As(err, &de) || de.Class != sdk.ClassInvalid {
		t.Fatalf("err = %v, want an invalid DocError", err)
	}
	if n := h.Pools()[0].Size(); n != 2 {
		t.Fatalf("pool size %d after a bad document, want 2 (no process replaced)", n)
	}
}

// A document's links come back from a plugin process in their order.
func TestLinksCrossTheProcess(t *testing.T) {
	h := startHost(t, testSpec(t, ""))
	res, err := extract(t, h, "links")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(res.Links, " "); got != "https://example.com/a https://example.com/b" {
		t.Fatalf("links %q", res.Links)
	}
}

func TestWrongHashRefused(t *testing.T) {
	spec := testSpec(t, "")
	spec.SHA256 = strings.Repeat("ab", 32)
	_, diags := Start(context.Background(), []Spec{spec}, Options{Stderr: io.Discard})
	if !diags.HasErrors() {
		t.Fatal("a binary with the wrong hash started")
	}
	if msg := diags.Error(); !strings.Contains(msg, "refusing to run it") || !strings.Contains(msg, spec.SHA256) {
		t.Fatalf("diagnostic %q should name the expected hash and refuse", msg)
	}
}

func TestPluginConfigDiagnostics(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"plugin rejects value", `greeting = "rude"`, "greeting must be polite"},
		{"unknown attribute", `greting = "hi"`, `Did you mean "greeting"?`},
		{"wrong type", `greeting = ["a"]`, "string required"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			spec := testSpec(t, tc.body)
			_, diags := Configure(context.Background(), &spec)
			if !diags.HasErrors() {
				t.Fatal("no error")
			}
			var found bool
			for _, d := range diags {
				text := d.Summary + " " + d.Detail
				if strings.Contains(text, tc.want) && d.Subject != nil && d.Subject.Filename == "test.hcl" {
					found = true
				}
			}
			if !found {
				t.Fatalf("diagnostics %v: want %q with a file position", diags, tc.want)
			}
		})
	}
}

func TestBackoff(t *testing.T) {
	tests := []struct {
		streak int32
		want   time.Duration
	}{
		{1, 0}, // an isolated failure is replaced at once
		{2, 50 * time.Millisecond},
		{3, 100 * time.Millisecond},
		{8, 3200 * time.Millisecond},
		{9, maxBackoff},
		{40, maxBackoff},
	}
	for _, tc := range tests {
		if got := backoff(tc.streak); got != tc.want {
			t.Errorf("backoff(%d) = %s, want %s", tc.streak, got, tc.want)
		}
	}
}

func TestIsolationNoneRunsInProcess(t *testing.T) {
	spec := testSpec(t, "")
	spec.Command, spec.SHA256 = nil, ""
	spec.Isolation, spec.Builtin = "none", faultyExtractor{}
	h := startHost(t, spec)
	if len(h.Pools()) != 0 {
		t.Fatalf("isolation none started %d pools", len(h.Pools()))
	}
	res, err := extract(t, h, "")
	if err != nil || res.Content != "echo: hello" {
		t.Fatalf("%v, %v", res, err)
	}
}

// TestKilledFromOutside: a plugin process killed by someone else (the OOM
// killer, an operator) mid-call costs that call a crash error at once, not
// a wait for the deadline, and the pool refills.
func TestKilledFromOutside(t *testing.T) {
	spec := testSpec(t, "")
	spec.Pool = 1
	h := startHost(t, spec)
	pool := h.Pools()[0]
	pid := onlyPid(pool)
	done := make(chan error, 1)
	start := time.Now()
	go func() {
		_, err := extract(t, h, "hang")
		done <- err
	}()
	testwait.For(t, "the hang to take the process", func() bool { return len(pool.idle) == 0 })
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	err := <-done
	// Well before the deadline, on however loaded a machine.
	if !errors.Is(err, ErrCrashed) || time.Since(start) > spec.Timeout/2 {
		t.Fatalf("err = %v after %s, want ErrCrashed at once, not at the %s deadline", err, time.Since(start), spec.Timeout)
	}
	waitFull(t, pool)
	if res, err := extract(t, h, ""); err != nil || res.Content != "echo: hello" {
		t.Fatalf("after the kill: %v, %v", res, err)
	}
}

// TestKilledIdleProcessIsNoticed: a process killed while idle is counted
// out of the pool's size and replaced, with its restart counted, without
// a request to find it dead.
func TestKilledIdleProcessIsNoticed(t *testing.T) {
	spec := testSpec(t, "")
	spec.Pool = 1
	var restarts atomic.Int32
	h, diags := Start(t.Context(), []Spec{spec}, Options{Logger: slog.New(slog.DiscardHandler),
		Observer: restartCounter{&restarts}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	t.Cleanup(h.Close)
	pool := h.Pools()[0]
	pid := onlyPid(pool)
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "the restart of the killed idle process to be counted", func() bool { return restarts.Load() == 1 })
	waitFull(t, pool)
}

// restartCounter is an Observer that counts restarts for "exited".
type restartCounter struct{ n *atomic.Int32 }

func (restartCounter) PluginCall(string, string, time.Duration) {}
func (r restartCounter) PluginRestart(_, reason string) {
	if reason == "exited" {
		r.n.Add(1)
	}
}

// TestCheckOptionsNamesTheExtractor: a caller picks a document, not an
// extractor, so a refused option names the extractor that refused it.
func TestCheckOptionsNamesTheExtractor(t *testing.T) {
	h := startHost(t, testSpec(t, ""))
	err := h.CheckOptions("faulty", map[string]string{"nope": "1"})
	var de *sdk.DocError
	if !errors.As(err, &de) || de.Class != sdk.ClassBadOption || !strings.HasPrefix(de.Message, `extractor "faulty": "nope" is not an option`) {
		t.Fatalf("err = %v, want a bad_option naming the extractor and the option", err)
	}
}

// onlyPid returns the process id of the pool's one process.
func onlyPid(pool *Pool) int {
	pool.mu.Lock()
	defer pool.mu.Unlock()
	var pid int
	for pr := range pool.procs {
		pid = pr.cmd.Process.Pid
	}
	return pid
}
