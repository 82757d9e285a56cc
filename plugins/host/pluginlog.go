package host

import (
	"context"
	"io"
	"log/slog"
	"strings"

	"github.com/hashicorp/go-hclog"
)

// pluginLogger is the logger go-plugin writes a plugin's stderr and its
// own events through. Each entry becomes one record of sift's log with
// the plugin's text in a field, so the log's handler quotes and escapes it:
// a plugin cannot write a line of sift's log of its own, nor send raw
// control bytes to whatever shows the log.
func pluginLogger(name string, log *slog.Logger) hclog.Logger {
	return hclog.New(&hclog.LoggerOptions{
		Name: "plugin." + name, Level: hclog.Warn, DisableTime: true,
		Output: &entryWriter{log: log, plugin: name},
	})
}

// entryWriter receives one formatted hclog entry per write.
type entryWriter struct {
	log    *slog.Logger
	plugin string
}

func (w *entryWriter) Write(p []byte) (int, error) { return w.LevelWrite(hclog.Warn, p) }

// LevelWrite logs one entry at its level.
func (w *entryWriter) LevelWrite(level hclog.Level, p []byte) (int, error) {
	w.log.LogAttrs(context.Background(), slogLevel(level), "plugin output",
		slog.String("plugin", w.plugin), slog.String("output", strings.TrimRight(string(p), "\n")))
	return len(p), nil
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
