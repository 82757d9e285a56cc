// Package testllm starts the real model servers of ../shared/tools/llm (a
// llama.cpp engine with a tiny real model, and a sentence encoder) on
// loopback for tests.
package testllm

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// Server is a running llama.cpp engine.
type Server struct {
	// BaseURL is the OpenAI-compatible base, e.g. http://127.0.0.1:PORT/v1.
	BaseURL string
	pids    []int
}

// Stop kills the engine (and its companion embedding server).
func (s *Server) Stop() {
	for _, pid := range s.pids {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// Start runs start.sh into workDir (npm packages are installed there once)
// with the given environment (CTX=…, BUSY=503, …); the servers stop when
// the test ends.
func Start(t testing.TB, workDir string, env ...string) *Server {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	start := filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "tools", "llm", "start.sh")
	port := FreePort(t)
	cmd := exec.Command("bash", start, workDir)
	cmd.Env = append(os.Environ(), append(env, fmt.Sprintf("LLM_PORT=%d", port), fmt.Sprintf("EMBED_PORT=%d", FreePort(t)))...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("start the llama.cpp engine (%s): %v\n%s", start, err, out)
	}
	s := &Server{BaseURL: fmt.Sprintf("http://127.0.0.1:%d/v1", port)}
	for _, f := range strings.Fields(string(out)) {
		var pid int
		fmt.Sscan(f, &pid)
		s.pids = append(s.pids, pid)
	}
	t.Cleanup(s.Stop)
	return s
}

// FreePort returns a loopback port nothing listens on.
func FreePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
