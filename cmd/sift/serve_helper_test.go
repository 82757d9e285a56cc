package main

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"testing"

	"github.com/siftd/sift/internal/testkit/syncbuf"
	"github.com/siftd/sift/internal/testkit/testwait"
)

// served is a `sift serve` a test started: its process, address and
// what it logged.
type served struct {
	*exec.Cmd
	Addr string
	Logs *syncBuffer
	// exited is closed once the process has exited, with its error in
	// waitErr.
	exited  chan struct{}
	waitErr error
}

// startSift runs `sift serve --config cfg`, listening on addr, with env
// added to the environment, and waits until it answers /healthz; a sift
// that exits before is the test's failure, with what it logged. The
// process is killed when the test ends.
func startSift(t testing.TB, cfg, addr string, env ...string) *served {
	t.Helper()
	s := &served{Cmd: exec.Command(siftBin, "serve", "--config", cfg), Addr: addr, Logs: &syncBuffer{}, exited: make(chan struct{})}
	s.Cmd.Stderr = s.Logs
	if len(env) > 0 {
		s.Cmd.Env = append(os.Environ(), env...)
	}
	if err := s.Cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { s.waitErr = s.Cmd.Wait(); close(s.exited) }()
	t.Cleanup(func() { _ = s.Cmd.Process.Kill(); <-s.exited })
	s.WaitHealthy(t)
	return s
}

// WaitHealthy waits until s answers /healthz with 200.
func (s *served) WaitHealthy(t testing.TB) {
	t.Helper()
	testwait.For(t, fmt.Sprintf("sift on %s to become healthy", s.Addr), func() bool {
		select {
		case <-s.exited:
			t.Fatalf("sift serve exited:\n%s", s.Logs.String())
		default:
		}
		resp, err := http.Get("http://" + s.Addr + "/healthz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
}

// Wait waits for the process to exit and returns its exit error; the
// process is waited for once, by startSift, so Wait may be called from
// any test.
func (s *served) Wait() error {
	<-s.exited
	return s.waitErr
}

// syncBuffer is a buffer a process writes while a test reads it.
type syncBuffer = syncbuf.Buffer
