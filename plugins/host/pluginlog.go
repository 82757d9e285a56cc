package host

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/hashicorp/go-hclog"
)

// pluginLogger is the logger go-plugin writes a plugin's stderr and its
// own events through. Each entry becomes one record of sift's log: its
// message in the output field and its key-value pairs in the fields
// group, so the log's handler quotes and escapes them: a plugin cannot
// write a line of sift's log of its own, nor send raw control bytes to
// whatever shows the log, and a log reader queries its fields as JSON.
//
// Once oom has seen the process's runtime die for want of memory, one
// record says so and the goroutine dump after it (hundreds of lines that
// say nothing of the document) is left out. The end of a process sift
// stopped itself (stop is marked) is an INFO record, "plugin process
// stopped by sift", with the reason; go-plugin logs any exit status but 0
// as an error, and a process killed on its pool's close or a call's
// timeout is no crash. A process that ended on its own stays an ERROR.
func pluginLogger(name string, log *slog.Logger, oom *oomWatch, stop *stopMark) hclog.Logger {
	return hclog.New(&hclog.LoggerOptions{
		Name: "plugin." + name, Level: hclog.Warn, DisableTime: true, JSONFormat: true,
		Output: &entryWriter{log: log, plugin: name, oom: oom, stop: stop},
	})
}

// entryWriter receives one formatted hclog entry per write.
type entryWriter struct {
	log    *slog.Logger
	plugin string
	oom    *oomWatch
	stop   *stopMark
}

// processExited is go-plugin's message when a plugin process has ended,
// logged by its client (module "plugin.NAME", not the plugin's stderr).
const processExited = "plugin process exited"

// stopMark records that sift itself is ending a process, and why, before
// it does.
type stopMark struct {
	why atomic.Pointer[string]
}

// mark records why sift ends the process; the first reason stands.
func (m *stopMark) mark(why string) {
	if m != nil {
		m.why.CompareAndSwap(nil, &why)
	}
}

// reason is why sift ended the process, or "" when it did not.
func (m *stopMark) reason() string {
	if m == nil {
		return ""
	}
	if why := m.why.Load(); why != nil {
		return *why
	}
	return ""
}

// oomWatch reads a plugin's raw stderr (go-plugin's ClientConfig.Stderr,
// written each line before the line is logged) for the Go runtime's
// words when it dies of its memory limit.
type oomWatch struct {
	seen, logged atomic.Bool
}

// outOfMemory are the first lines with which the Go runtime dies when an
// allocation fails under RLIMIT_DATA: the heap's, a heap arena's metadata,
// or a new thread's stack. A process the limit kills by a fault elsewhere
// (a SIGSEGV on a failed mapping) says nothing of memory and stays a crash.
var outOfMemory = [][]byte{
	[]byte("fatal error: runtime: out of memory"),
	[]byte("fatal error: out of memory"),
	[]byte("runtime: out of memory:"),
	[]byte("fatal error: runtime: cannot allocate memory"),
	[]byte("runtime: cannot allocate memory"),
	[]byte("runtime/cgo: pthread_create failed: Resource temporarily unavailable"),
	[]byte("runtime: failed to create new OS thread"),
}

func (w *oomWatch) Write(p []byte) (int, error) {
	line := bytes.TrimSpace(p)
	for _, prefix := range outOfMemory {
		if bytes.HasPrefix(line, prefix) {
			w.seen.Store(true)
		}
	}
	return len(p), nil
}

func (w *entryWriter) Write(p []byte) (int, error) { return w.LevelWrite(hclog.Warn, p) }

// LevelWrite logs one entry at its level: an hclog JSON entry as its
// message, module and fields; anything else as its text.
func (w *entryWriter) LevelWrite(level hclog.Level, p []byte) (int, error) {
	if w.oom != nil && w.oom.seen.Load() {
		if !w.oom.logged.Swap(true) {
			w.log.LogAttrs(context.Background(), slog.LevelError, "plugin output", slog.String("plugin", w.plugin),
				slog.String("output", "the process ran out of memory (its goroutine dump is left out)"))
		}
		return len(p), nil
	}
	attrs := []slog.Attr{slog.String("plugin", w.plugin)}
	var entry map[string]any
	if err := json.Unmarshal(p, &entry); err == nil {
		msg, _ := entry["@message"].(string)
		module, _ := entry["@module"].(string)
		why := ""
		if msg == processExited && module == "plugin."+w.plugin && byKill(entry["error"]) {
			why = w.stop.reason()
		}
		if why != "" {
			level = hclog.Info
			attrs = append(attrs, slog.String("output", "plugin process stopped by sift"), slog.String("reason", why),
				slog.String("module", module))
		} else {
			attrs = append(attrs, slog.String("output", msg), slog.String("module", module))
		}
		if fields := entryFields(entry); len(fields) > 0 {
			attrs = append(attrs, slog.Attr{Key: "fields", Value: slog.GroupValue(fields...)})
		}
	} else {
		attrs = append(attrs, slog.String("output", strings.TrimRight(string(p), "\n")))
	}
	w.log.LogAttrs(context.Background(), slogLevel(level), "plugin output", attrs...)
	return len(p), nil
}

// byKill reports whether an exit's status (go-plugin's error field, absent
// for status 0) is one sift's stop leaves: none, or the SIGKILL sift sends.
// A process that exits with a status of its own (a panic's 2) as sift
// stops it ended on its own.
func byKill(status any) bool {
	return status == nil || status == "signal: killed"
}

// entryFields are an hclog entry's own key-value pairs, in key order,
// without hclog's @-keys and the plugin's own timestamp (the record has
// sift's).
func entryFields(entry map[string]any) []slog.Attr {
	keys := make([]string, 0, len(entry))
	for k := range entry {
		if !strings.HasPrefix(k, "@") && k != "timestamp" {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	out := make([]slog.Attr, len(keys))
	for i, k := range keys {
		out[i] = slog.Any(k, entry[k])
	}
	return out
}

func slogLevel(l hclog.Level) slog.Level {
	switch {
	case l >= hclog.Error:
		return slog.LevelError
	case l >= hclog.Warn:
		return slog.LevelWarn
	case l >= hclog.Info:
		return slog.LevelInfo
	}
	return slog.LevelDebug
}

// outputLogger is where plugin output goes: sift's own log, or, when the
// caller named a writer, JSON records on it (none for io.Discard).
func outputLogger(log *slog.Logger, w io.Writer) *slog.Logger {
	switch w {
	case nil:
		return log
	case io.Discard:
		return slog.New(slog.DiscardHandler)
	}
	return slog.New(slog.NewJSONHandler(w, nil))
}
