package mcptool

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// StdioTransport is the SDK's newline-delimited JSON transport (an
// mcp.IOTransport) behind a reader that passes it only the lines it can
// take. The SDK's reader ends the session on the first line that is not
// JSON, or not a JSON-RPC message, and joins a line cut short with the
// next: one bad line from a client took every tool away from its agent.
// Here each line is read on its own, and one the SDK would fail on is
// answered on the spot, as JSON-RPC asks (a parse error, -32700, or an
// invalid request, -32600), and dropped; the session goes on.
type StdioTransport struct {
	// In and Out default to stdin and stdout.
	In  io.ReadCloser
	Out io.Writer
	// MaxLineLength bounds one line (default mcp.DefaultMaxLineLength); a
	// longer one is answered as an invalid request and skipped.
	MaxLineLength int
}

// Connect implements mcp.Transport.
func (t *StdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	in, out := t.In, t.Out
	if in == nil {
		in = os.Stdin
	}
	if out == nil {
		out = os.Stdout
	}
	limit := t.MaxLineLength
	if limit <= 0 {
		limit = mcp.DefaultMaxLineLength
	}
	w := &lockedWriter{w: out}
	r := &lineFilter{in: in, lines: bufio.NewReaderSize(in, 64<<10), answer: w, limit: limit}
	// The filter bounds each line, so the SDK need not.
	return (&mcp.IOTransport{Reader: r, Writer: w, MaxLineLength: -1}).Connect(ctx)
}

// lockedWriter writes one message at a time: the SDK writes each of its
// messages in one Write, and the filter's answers go between them.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// Close leaves the writer open, as the SDK's stdio transport does.
func (l *lockedWriter) Close() error { return nil }

// lineFilter hands the SDK's decoder one whole, well-formed JSON-RPC line
// at a time, and answers the others.
type lineFilter struct {
	in      io.Closer
	lines   *bufio.Reader
	answer  io.Writer
	limit   int
	line    []byte // the line being read
	pending []byte // what the SDK has yet to read of the current line
	err     error  // the input's end, once reached
	// noBatches is set once the client asked for a protocol without
	// JSON-RPC batches (2025-06-18 on): the SDK ends the session on one.
	noBatches bool
}

// firstWithoutBatches is the first MCP protocol version without JSON-RPC
// batching; versions are dates, so they compare as strings.
const firstWithoutBatches = "2025-06-18"

func (f *lineFilter) Read(p []byte) (int, error) {
	for len(f.pending) == 0 {
		if f.err != nil {
			return 0, f.err
		}
		line, tooLong, err := f.readLine()
		if err != nil {
			f.err = err
		}
		if tooLong {
			f.reply(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid request: a line longer than %d bytes", f.limit))
			continue
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue // a blank line is no message
		}
		if code, msg := check(line); code != 0 {
			f.reply(line, code, msg)
			continue
		}
		if line[0] == '[' && f.noBatches {
			f.reply(line, jsonrpc.CodeInvalidRequest, "Invalid request: protocol "+firstWithoutBatches+" and later have no JSON-RPC batches: send one message per line")
			continue
		}
		f.noteProtocol(line)
		f.pending = append(line, '\n')
	}
	n := copy(p, f.pending)
	f.pending = f.pending[n:]
	return n, nil
}

// noteProtocol notes the protocol an initialize request asks for.
func (f *lineFilter) noteProtocol(line []byte) {
	var init struct {
		Method string `json:"method"`
		Params struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &init) == nil && init.Method == "initialize" {
		f.noBatches = init.Params.ProtocolVersion >= firstWithoutBatches
	}
}

// readLine reads the next line, without its newline; tooLong says it
// passed the limit, and was read to its end and dropped. err is the
// input's end (or failure), after the last line.
func (f *lineFilter) readLine() (line []byte, tooLong bool, err error) {
	f.line = f.line[:0]
	for {
		chunk, err := f.lines.ReadSlice('\n')
		if !tooLong && len(f.line)+len(chunk) > f.limit+1 { // +1: the newline
			tooLong, f.line = true, f.line[:0]
		}
		if !tooLong {
			f.line = append(f.line, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSuffix(f.line, []byte("\n")), tooLong, err
	}
}

// check says why the SDK could not take line, as a JSON-RPC error code and
// message, or returns 0 when it can: one JSON value, a message or a
// non-empty batch of messages, each as the SDK decodes them.
func check(line []byte) (int, string) {
	if !json.Valid(line) {
		var v json.RawMessage
		err := json.Unmarshal(line, &v)
		if err == nil {
			err = errors.New("not one JSON value")
		}
		return jsonrpc.CodeParseError, "Parse error: " + err.Error()
	}
	if line[0] != '[' {
		if _, err := jsonrpc.DecodeMessage(line); err != nil {
			return jsonrpc.CodeInvalidRequest, "Invalid request: " + err.Error()
		}
		return 0, ""
	}
	var batch []json.RawMessage
	if err := json.Unmarshal(line, &batch); err != nil || len(batch) == 0 {
		return jsonrpc.CodeInvalidRequest, "Invalid request: an empty batch"
	}
	for _, m := range batch {
		if _, err := jsonrpc.DecodeMessage(m); err != nil {
			return jsonrpc.CodeInvalidRequest, "Invalid request: in a batch: " + err.Error()
		}
	}
	return 0, ""
}

// reply answers the line that could not be taken with a JSON-RPC error:
// an invalid request with its id, when it has a string or number one, and
// null otherwise, as JSON-RPC asks when the id cannot be known.
func (f *lineFilter) reply(line []byte, code int, msg string) {
	id := json.RawMessage("null")
	var head struct {
		ID json.RawMessage `json:"id"`
	}
	if code == jsonrpc.CodeInvalidRequest && len(line) > 0 && line[0] == '{' && json.Unmarshal(line, &head) == nil && len(head.ID) > 0 {
		if c := head.ID[0]; c == '"' || c == '-' || c >= '0' && c <= '9' {
			id = head.ID
		}
	}
	type wireError struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	out, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   wireError       `json:"error"`
	}{"2.0", id, wireError{code, msg}})
	if err != nil {
		return
	}
	// A failed write is the SDK's to find: its own next write fails too.
	_, _ = f.answer.Write(append(out, '\n'))
}

// Close closes the input, which ends the SDK's read.
func (f *lineFilter) Close() error { return f.in.Close() }
