package warm

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/siftd/sift/errclass"
	"github.com/siftd/sift/internal/testkit/testwait"
	"github.com/siftd/sift/plugins/sdk"
)

// serve starts a warm server on a socket in a directory of the test's own.
// done yields Serve's error once the server has returned and released the
// socket's lock, so that a next server may take the socket.
func serve(t *testing.T, extract ExtractFunc, idle time.Duration) (socket string, done <-chan error) {
	t.Helper()
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	dir, err := Dir()
	if err != nil {
		t.Fatal(err)
	}
	socket = filepath.Join(dir, "test.sock")
	ln, release, err := Listen(socket)
	if err != nil {
		t.Fatal(err)
	}
	ch := make(chan error, 1)
	go func() {
		err := Serve(context.Background(), ln, extract, idle)
		release()
		ch <- err
	}()
	return socket, ch
}

func call(t *testing.T, socket string, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	t.Helper()
	conn, err := net.Dial("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	return Call(context.Background(), conn, req)
}

func TestCallCarriesResultsAndErrors(t *testing.T) {
	socket, _ := serve(t, func(_ context.Context, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
		switch string(req.Body) {
		case "scan":
			return nil, &sdk.DocError{Class: "no_text", Message: "needs OCR"}
		case "crash":
			return nil, errors.New("plugin crashed: EOF")
		case "timeout":
			return nil, fmt.Errorf("%w after 30s", errclass.New(errclass.Timeout, "plugin timed out"))
		}
		return &sdk.ExtractResult{Content: fmt.Sprintf("%s|%s|%s|%d", req.Body, req.ContentType, req.Options["pages"], req.MaxOutputBytes),
			Format: sdk.FormatMarkdown, Title: "T", Metadata: map[string]string{"pages": "3"}, Warnings: []string{"cut"}}, nil
	}, time.Minute)

	body := strings.Repeat("x", 3<<20) // more than any one buffer
	res, err := call(t, socket, &sdk.ExtractRequest{Body: []byte(body), ContentType: "application/pdf",
		Options: map[string]string{"pages": "1-2"}, MaxOutputBytes: 7})
	if err != nil {
		t.Fatal(err)
	}
	if want := body + "|application/pdf|1-2|7"; res.Content != want || res.Title != "T" ||
		res.Metadata["pages"] != "3" || len(res.Warnings) != 1 || res.Format != sdk.FormatMarkdown {
		t.Fatalf("result %+v", res)
	}

	_, err = call(t, socket, &sdk.ExtractRequest{Body: []byte("scan")})
	if de, ok := errors.AsType[*sdk.DocError](err); !ok || de.Class != "no_text" || de.Message != "needs OCR" {
		t.Fatalf("document error came back as %#v", err)
	}
	_, err = call(t, socket, &sdk.ExtractRequest{Body: []byte("crash")})
	if err == nil || err.Error() != "plugin crashed: EOF" || errors.Is(err, ErrUnreachable) {
		t.Fatalf("extraction error came back as %#v", err)
	}
	// A failure keeps its class, which sets the client's exit code.
	_, err = call(t, socket, &sdk.ExtractRequest{Body: []byte("timeout")})
	if c, ok := errclass.Of(err); !ok || c != errclass.Timeout || err.Error() != "plugin timed out after 30s" {
		t.Fatalf("a timeout came back as %#v", err)
	}
}

func TestBadRequestsAreRefused(t *testing.T) {
	socket, _ := serve(t, func(context.Context, *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
		t.Error("a bad request reached the extractor")
		return nil, nil
	}, time.Minute)
	for name, raw := range map[string]string{
		"malformed header": "{nope\n",
		"oversized body":   fmt.Sprintf(`{"size": %d}`+"\n", MaxBody+1),
		"endless header":   strings.Repeat("x", maxHeader+64<<10),
	} {
		conn, err := net.Dial("unix", socket)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = conn.Write([]byte(raw))
		buf := make([]byte, 512)
		_ = conn.SetReadDeadline(time.Now().Add(testwait.Deadline))
		n, _ := conn.Read(buf)
		conn.Close()
		if !strings.Contains(string(buf[:n]), `"error"`) {
			t.Errorf("%s: answered %q", name, buf[:n])
		}
	}
}

func TestHangUpCancelsTheCall(t *testing.T) {
	extracting, cancelled := make(chan struct{}), make(chan struct{})
	socket, _ := serve(t, func(ctx context.Context, _ *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
		close(extracting) // the client hangs up only once the call is under way
		<-ctx.Done()
		close(cancelled)
		return nil, ctx.Err()
	}, time.Minute)
	conn, err := net.Dial("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-extracting; cancel() }()
	if _, err := Call(ctx, conn, &sdk.ExtractRequest{Body: []byte("slow")}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled call returned %v", err)
	}
	select {
	case <-cancelled:
	case <-time.After(testwait.Deadline):
		t.Fatal("the server went on extracting for a client that hung up")
	}
}

func TestIdleServerExitsAndFreesTheSocket(t *testing.T) {
	// Idle long enough that the call below always reaches the server first.
	socket, done := serve(t, func(context.Context, *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
		return &sdk.ExtractResult{Content: "ok"}, nil
	}, time.Second)
	if _, err := call(t, socket, &sdk.ExtractRequest{}); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(testwait.Deadline):
		t.Fatal("an idle server kept running")
	}
	if _, err := os.Stat(socket); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("socket left behind: %v", err)
	}
	// The next server takes the socket over.
	ln, release, err := Listen(socket)
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	release()
}

func TestOneServerPerSocket(t *testing.T) {
	socket, _ := serve(t, func(context.Context, *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
		return &sdk.ExtractResult{Content: "ok"}, nil
	}, time.Minute)
	if _, _, err := Listen(socket); !errors.Is(err, ErrRunning) {
		t.Fatalf("a second server on a held socket: %v", err)
	}
}

func TestDirMustBePrivate(t *testing.T) {
	base := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", base)
	t.Setenv("TMPDIR", base) // no fallback elsewhere
	dir, err := Dir()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Dir(); err == nil || !strings.Contains(err.Error(), "not a directory private to this user") {
		t.Fatalf("a directory others can enter was accepted: %v", err)
	}
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(base, dir); err != nil {
		t.Fatal(err)
	}
	if _, err := Dir(); err == nil {
		t.Fatal("a symlink was accepted as the socket directory")
	}
}
