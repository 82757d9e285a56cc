// Package warm keeps extractors warm between `sift extract` calls.
//
// Each `sift extract` used to start its extractor's process, and PDFium
// spends about 0.1 s loading in every new process: more than most PDFs take
// to read. A warm server holds the plugin pools of one configuration
// behind a Unix socket in a directory only its user can enter, and exits
// once it has been idle for a while; `sift extract` hands it the file and
// prints what comes back.
//
// The wire is one exchange per connection: a JSON header line and the
// body's bytes from the client, one JSON line back.
package warm

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/siftd/sift/errclass"
	"github.com/siftd/sift/plugins/sdk"
)

// MaxBody bounds the document a client may send.
const MaxBody = 64 << 20

// maxHeader bounds the JSON header line.
const maxHeader = 1 << 20

// maxAnswer bounds the answer line; the plugin's own message cap bounds
// the content well below it.
const maxAnswer = 4 * MaxBody

// requestTimeout bounds how long a client may take to send its request.
const requestTimeout = 30 * time.Second

// header precedes the body on the wire.
type header struct {
	ContentType    string            `json:"content_type"`
	URL            string            `json:"url,omitempty"`
	Options        map[string]string `json:"options,omitempty"`
	MaxOutputBytes int64             `json:"max_output_bytes,omitempty"`
	Size           int64             `json:"size"`
}

// answer is the server's one line back: a result or an error.
type answer struct {
	Result *result    `json:"result,omitempty"`
	Error  *wireError `json:"error,omitempty"`
}

type result struct {
	Content  string            `json:"content"`
	Format   sdk.Format        `json:"format"`
	Title    string            `json:"title,omitempty"`
	Metadata map[string]string `json:"metadata,omitempty"`
	Warnings []string          `json:"warnings,omitempty"`
}

// wireError carries an extraction error; Class is set for document errors,
// which the client turns back into an *sdk.DocError.
type wireError struct {
	// Class is a document error's class (sdk.DocError).
	Class string `json:"class,omitempty"`
	// Failure is the errclass class of any other error (a plugin's crash,
	// timeout, panic), so the client exits as an inline run would.
	Failure string `json:"failure,omitempty"`
	Message string `json:"message"`
}

// ExtractFunc extracts one document; the server calls it concurrently.
type ExtractFunc func(ctx context.Context, req *sdk.ExtractRequest) (*sdk.ExtractResult, error)

// Serve answers connections on ln with extract until ctx ends or no call
// has been made for idle; it closes ln before it returns.
func Serve(ctx context.Context, ln net.Listener, extract ExtractFunc, idle time.Duration) error {
	s := &server{extract: extract, idle: idle, last: time.Now()}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		s.waitIdle(ctx)
		cancel()
		_ = ln.Close()
	}()
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		conn, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("accept: %w", err)
		}
		s.begin()
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer s.end()
			s.handle(ctx, conn)
		}()
	}
}

type server struct {
	extract ExtractFunc
	idle    time.Duration

	mu     sync.Mutex
	active int
	last   time.Time
}

func (s *server) begin() {
	s.mu.Lock()
	s.active++
	s.mu.Unlock()
}

func (s *server) end() {
	s.mu.Lock()
	s.active--
	s.last = time.Now()
	s.mu.Unlock()
}

// waitIdle returns when no call is running and none has ended for idle.
func (s *server) waitIdle(ctx context.Context) {
	tick := time.NewTicker(min(s.idle/4, time.Second))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		s.mu.Lock()
		idle := s.active == 0 && time.Since(s.last) >= s.idle
		s.mu.Unlock()
		if idle {
			return
		}
	}
}

// handle serves one exchange. A client that hangs up cancels its call.
func (s *server) handle(ctx context.Context, conn net.Conn) {
	defer conn.Close()
	r := bufio.NewReader(conn)
	_ = conn.SetReadDeadline(time.Now().Add(requestTimeout))
	req, err := readRequest(r)
	_ = conn.SetReadDeadline(time.Time{})
	if err != nil {
		_ = json.NewEncoder(conn).Encode(answer{Error: &wireError{Message: err.Error()}})
		return
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		// The client sends nothing more; a read returns when it hangs up.
		_, _ = r.ReadByte()
		cancel()
	}()
	res, err := s.extract(ctx, req)
	var ans answer
	if err != nil {
		ans.Error = &wireError{Message: err.Error()}
		if de, ok := errors.AsType[*sdk.DocError](err); ok {
			ans.Error = &wireError{Class: de.Class, Message: de.Message}
		} else if c, ok := errclass.Of(err); ok {
			ans.Error.Failure = string(c)
		}
	} else {
		ans.Result = &result{Content: res.Content, Format: res.Format, Title: res.Title,
			Metadata: res.Metadata, Warnings: res.Warnings}
	}
	_ = json.NewEncoder(conn).Encode(ans)
}

func readRequest(r *bufio.Reader) (*sdk.ExtractRequest, error) {
	line, err := readLine(r, maxHeader)
	if err != nil {
		return nil, fmt.Errorf("read request header: %w", err)
	}
	var h header
	if err := json.Unmarshal(line, &h); err != nil {
		return nil, fmt.Errorf("request header: %w", err)
	}
	if h.Size < 0 || h.Size > MaxBody {
		return nil, fmt.Errorf("request body of %d bytes: at most %d", h.Size, MaxBody)
	}
	body := make([]byte, h.Size)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, fmt.Errorf("read request body: %w", err)
	}
	return &sdk.ExtractRequest{Body: body, ContentType: h.ContentType, URL: h.URL,
		Options: h.Options, MaxOutputBytes: h.MaxOutputBytes}, nil
}

// readLine reads one newline-terminated line of at most limit bytes.
func readLine(r *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > limit {
			return nil, fmt.Errorf("line longer than %d bytes", limit)
		}
		if err == nil {
			return line, nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return nil, err
		}
	}
}

// ErrRunning means another warm server already holds the socket.
var ErrRunning = errors.New("a warm extractor already serves this socket")

// ErrUntrusted means no directory fit to hold a warm socket was found, or
// what was found there is not this user's: the caller extracts inline.
var ErrUntrusted = errors.New("no private directory for a warm extractor")

// ErrUnreachable means the exchange failed before the server answered: the
// caller may run the extraction itself.
var ErrUnreachable = errors.New("warm extractor unreachable")

// Call sends one document over conn and returns the server's answer. It
// closes conn.
func Call(ctx context.Context, conn net.Conn, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { _ = conn.Close() })
	defer stop()
	h := header{ContentType: req.ContentType, URL: req.URL, Options: req.Options,
		MaxOutputBytes: req.MaxOutputBytes, Size: int64(len(req.Body))}
	w := bufio.NewWriter(conn)
	if err := json.NewEncoder(w).Encode(h); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnreachable, err)
	}
	if _, err := w.Write(req.Body); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnreachable, err)
	}
	if err := w.Flush(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnreachable, err)
	}
	line, err := readLine(bufio.NewReader(conn), maxAnswer)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%w: %w", ErrUnreachable, err)
	}
	var ans answer
	if err := json.Unmarshal(line, &ans); err != nil || (ans.Result == nil && ans.Error == nil) {
		return nil, fmt.Errorf("%w: unreadable answer", ErrUnreachable)
	}
	if e := ans.Error; e != nil {
		if e.Class != "" {
			return nil, &sdk.DocError{Class: e.Class, Message: e.Message}
		}
		if e.Failure != "" {
			return nil, errclass.New(errclass.Class(e.Failure), e.Message)
		}
		return nil, errors.New(e.Message)
	}
	r := ans.Result
	return &sdk.ExtractResult{Content: r.Content, Format: r.Format, Title: r.Title,
		Metadata: r.Metadata, Warnings: r.Warnings}, nil
}
