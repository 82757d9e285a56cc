package host

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/siftd/sift/internal/testkit/syncbuf"
	"github.com/siftd/sift/internal/testkit/testwait"
)

// forgedLines is what a hostile plugin writes to its stderr to forge lines
// of sift's log: a raw line at error level with terminal escapes, and an
// hclog JSON entry whose message and field carry a whole forged record.
const forgedLines = "[ERROR] \x1b[2J\x1b]0;owned\x07screen cleared\n" +
	`{"@level":"error","@message":"innocent\n{\"level\":\"ERROR\",\"msg\":\"forged by a plugin\"}","@timestamp":"2026-01-01T00:00:00.000000Z","k":"v\r\n{\"msg\":\"forged too\"}"}` + "\n"

// syncBuffer is a log destination written by go-plugin's goroutines and
// read by the test.
// syncBuffer is a buffer a process writes while a test reads it.
type syncBuffer = syncbuf.Buffer

// TestPluginStderrIsAFieldOfSiftsLog: whatever a plugin writes to stderr
// reaches sift's log as a field of sift's own records, escaped; it never
// becomes a record of its own.
func TestPluginStderrIsAFieldOfSiftsLog(t *testing.T) {
	for _, ownWriter := range []bool{false, true} {
		name := map[bool]string{false: "into the logger", true: "onto a writer"}[ownWriter]
		t.Run(name, func(t *testing.T) { checkPluginStderr(t, ownWriter) })
	}
}

// checkPluginStderr runs the hostile plugin with its output going to
// sift's logger, or, as sift serve shares stderr between the two, to a
// writer of its own beside the logger's.
func checkPluginStderr(t *testing.T, ownWriter bool) {
	var logBuf syncBuffer
	spec := testSpec(t, "")
	spec.Pool = 1
	opts := Options{Logger: slog.New(slog.NewJSONHandler(&logBuf, nil))}
	if ownWriter {
		opts.Stderr = &logBuf
	}
	h, diags := Start(t.Context(), []Spec{spec}, opts)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	t.Cleanup(h.Close)
	if _, err := extract(t, h, "stderr"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for strings.Count(logBuf.String(), `"msg":"plugin output"`) < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("the plugin's two entries did not reach the log in 10 s:\n%s", logBuf.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	log := logBuf.String()
	if strings.ContainsAny(log, "\x1b\x07\r") {
		t.Errorf("raw control bytes in sift's log: %q", log)
	}
	for _, line := range strings.Split(strings.TrimSuffix(log, "\n"), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Errorf("a line of sift's log is not one of its records: %q", line)
			continue
		}
		if rec["msg"] == "plugin started" {
			continue // sift's own record of the start
		}
		if rec["msg"] != "plugin output" {
			t.Errorf("a record sift did not write: %q", line)
			continue
		}
		if rec["plugin"] != "faulty" || !strings.HasPrefix(fmt.Sprint(rec["module"]), "plugin.faulty") {
			t.Errorf("record %q does not name the plugin", line)
		}
		if strings.Contains(line, "innocent") {
			fields, _ := rec["fields"].(map[string]any)
			if fields["k"] != "v\r\n{\"msg\":\"forged too\"}" {
				t.Errorf("the entry's field is not a field of the record: %q", line)
			}
		}
	}
	if !strings.Contains(log, `forged by a plugin`) || !strings.Contains(log, `screen cleared`) {
		t.Errorf("the plugin's text is lost rather than quoted:\n%s", log)
	}
}

// TestPluginPanicReachesSiftsLog: a panic the SDK recovers is logged at
// error level with its stack, where an operator sees it; go-plugin would
// log a plain stderr line at debug level, below sift's threshold.
func TestPluginPanicReachesSiftsLog(t *testing.T) {
	var logBuf syncBuffer
	spec := testSpec(t, "")
	spec.Pool = 1
	h, diags := Start(t.Context(), []Spec{spec}, Options{Logger: slog.New(slog.NewJSONHandler(&logBuf, nil))})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	t.Cleanup(h.Close)
	if _, err := extract(t, h, "panic"); err == nil {
		t.Fatal("a panicking call succeeded")
	}
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(logBuf.String(), "plugin panicked in Extract") {
		if time.Now().After(deadline) {
			t.Fatalf("the panic did not reach the log in 10 s:\n%s", logBuf.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, line := range strings.Split(strings.TrimSuffix(logBuf.String(), "\n"), "\n") {
		if !strings.Contains(line, "plugin panicked in Extract") {
			continue
		}
		var rec struct {
			Level, Output string
			Fields        struct{ Stack string }
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("record %q: %v", line, err)
		}
		if rec.Level != "ERROR" || rec.Output != "plugin panicked in Extract: extractor exploded" {
			t.Errorf("panic logged as %q at %s, want the message at ERROR", rec.Output, rec.Level)
		}
		if !strings.Contains(rec.Fields.Stack, "testplugin_test.go") {
			t.Errorf("the logged stack does not show where the plugin panicked:\n%s", rec.Fields.Stack)
		}
	}
}

// TestOOMWatch: the lines the Go runtime dies with when the memory limit
// refuses an allocation are recognised, as they stand in a real dump;
// a panic or another fault is not.
func TestOOMWatch(t *testing.T) {
	tests := []struct {
		line string
		oom  bool
	}{
		{"fatal error: runtime: out of memory", true},
		{"fatal error: out of memory allocating heap arena metadata", true},
		{"runtime: out of memory: cannot allocate 4194304-byte block (3997696 in use)", true},
		{"runtime/cgo: pthread_create failed: Resource temporarily unavailable", true},
		{"fatal error: runtime: cannot allocate memory", true},
		{"panic: runtime error: index out of range [3] with length 3", false},
		{"SIGSEGV: segmentation violation", false},
		{`{"@message":"document is out of memory's reach"}`, false},
	}
	for _, tc := range tests {
		var w oomWatch
		_, _ = w.Write([]byte(tc.line))
		if w.seen.Load() != tc.oom {
			t.Errorf("%q: out of memory %v, want %v", tc.line, w.seen.Load(), tc.oom)
		}
	}
}

// TestOutOfMemoryIsOneRecord: a process that dies of its memory limit
// leaves one record saying so in sift's log, not its goroutine dump.
func TestOutOfMemoryIsOneRecord(t *testing.T) {
	var logBuf syncBuffer
	spec := testSpec(t, "")
	spec.Pool = 1
	h, diags := Start(t.Context(), []Spec{spec}, Options{Logger: slog.New(slog.NewJSONHandler(&logBuf, nil))})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	t.Cleanup(h.Close)
	if _, err := extract(t, h, "oom"); !errors.Is(err, ErrOutOfMemory) {
		t.Fatalf("err = %v, want ErrOutOfMemory", err)
	}
	log := logBuf.String()
	if n := strings.Count(log, "the process ran out of memory (its goroutine dump is left out)"); n != 1 {
		t.Errorf("%d records of the death, want 1:\n%s", n, log)
	}
	if strings.Contains(log, "runtime stack") || strings.Contains(log, "runtime.throw") {
		t.Errorf("the dump reached the log:\n%s", log)
	}
}

// exitRecord is one record of sift's log about a plugin process's end.
type exitRecord struct {
	Level  string         `json:"level"`
	Output string         `json:"output"`
	Reason string         `json:"reason"`
	Fields map[string]any `json:"fields"`
}

// exitRecords are the records of sift's log about plugin processes' ends.
func exitRecords(t *testing.T, log string) []exitRecord {
	t.Helper()
	var out []exitRecord
	for line := range strings.SplitSeq(strings.TrimSpace(log), "\n") {
		var rec exitRecord
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("not a record: %q", line)
		}
		if strings.HasPrefix(rec.Output, "plugin process ") {
			out = append(out, rec)
		}
	}
	return out
}

// TestStopByTheHostIsNotAnError: a plugin process sift ends itself (its
// pool closing with a call still running, a call's timeout, a deploy's
// SIGTERM to the whole service before the pools close) leaves no ERROR or
// WARN record of its end; one that dies on its own (killed from outside,
// exiting mid-call) still leaves an ERROR, with its exit status.
func TestStopByTheHostIsNotAnError(t *testing.T) {
	tests := []struct {
		name string
		// stop ends the pool's process: h is the host, pid the process.
		stop func(t *testing.T, h *Host, pid int)
		// level is the one record of the end, or "" for none.
		level, output, reason string
		// silent allows no record at all: a process that exits with
		// status 0 when asked has nothing to report.
		silent bool
	}{
		{"pool closed with a call running", func(t *testing.T, h *Host, _ int) {
			pool := h.Pools()[0]
			go func() { _, _ = extract(t, h, "hang") }()
			testwait.For(t, "the hang to take the process", func() bool { return len(pool.idle) == 0 })
			h.Close()
		}, "INFO", "plugin process stopped by sift", "closed", true},
		{"call timed out", func(t *testing.T, h *Host, _ int) {
			if _, err := extract(t, h, "hang"); !errors.Is(err, ErrTimeout) {
				t.Fatalf("err = %v, want ErrTimeout", err)
			}
			h.Close()
		}, "INFO", "plugin process stopped by sift", "timeout", false},
		{"SIGTERM to the service, then the pools close", func(t *testing.T, h *Host, pid int) {
			// systemd stops a unit so (KillMode=control-group): the
			// signal reaches sift and its plugins at once, and sift
			// drains its requests before it closes the pools.
			if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			if res, err := extract(t, h, ""); err != nil || res.Content != "echo: hello" {
				t.Fatalf("a request drained after the SIGTERM: %v, %v", res, err)
			}
			h.Close()
		}, "", "", "", true},
		{"killed from outside", func(t *testing.T, h *Host, pid int) {
			if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			pool := h.Pools()[0]
			testwait.For(t, "the pool to replace the killed process", func() bool {
				pool.mu.Lock()
				defer pool.mu.Unlock()
				for pr := range pool.procs {
					if pr.cmd.Process.Pid == pid {
						return false
					}
				}
				return true
			})
			h.Close()
		}, "ERROR", "plugin process exited", "", false},
		{"exited mid-call", func(t *testing.T, h *Host, _ int) {
			if _, err := extract(t, h, "exit"); !errors.Is(err, ErrCrashed) {
				t.Fatalf("err = %v, want ErrCrashed", err)
			}
			h.Close()
		}, "ERROR", "plugin process exited", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var logBuf syncBuffer
			spec := testSpec(t, "")
			spec.Pool, spec.Timeout = 1, hangTimeout
			h, diags := Start(t.Context(), []Spec{spec}, Options{Logger: slog.New(slog.NewJSONHandler(&logBuf, nil))})
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			t.Cleanup(h.Close)
			pool := h.Pools()[0]
			pid := onlyPid(pool)
			tc.stop(t, h, pid)
			// Close has waited for every process's end to be logged.
			var ends []exitRecord
			for _, rec := range exitRecords(t, logBuf.String()) {
				if fmt.Sprint(rec.Fields["id"]) == fmt.Sprint(pid) {
					ends = append(ends, rec)
				}
			}
			if tc.silent && len(ends) == 0 {
				return
			}
			if tc.level == "" {
				if len(ends) > 0 {
					t.Fatalf("the end of process %d was logged: %+v\n%s", pid, ends, logBuf.String())
				}
				return
			}
			if len(ends) != 1 {
				t.Fatalf("%d records of the end of process %d, want 1:\n%s", len(ends), pid, logBuf.String())
			}
			got := ends[0]
			if got.Level != tc.level || got.Output != tc.output || got.Reason != tc.reason {
				t.Errorf("end logged as %s %q (reason %q), want %s %q (reason %q)", got.Level, got.Output, got.Reason, tc.level, tc.output, tc.reason)
			}
			if tc.level == "ERROR" && got.Fields["error"] == nil {
				t.Errorf("a crash logged without its exit status: %+v", got)
			}
		})
	}
}
