package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// rpcAnswer is a JSON-RPC response as it came, its id kept raw so that a
// null id is told from none.
type rpcAnswer struct {
	ID     json.RawMessage `json:"id"`
	Result struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	} `json:"result"`
	Error *struct {
		Code int `json:"code"`
	} `json:"error"`
}

// TestMCPStdioSurvivesMalformedLines: `sift mcp` answers a line that is
// not JSON with a parse error (-32700, id null) and one that is JSON but
// no JSON-RPC message with an invalid request (-32600), and keeps the
// session: the next request is answered.
func TestMCPStdioSurvivesMalformedLines(t *testing.T) {
	tests := []struct {
		name, line string
		code       int
		id         string // the error's id, as JSON
	}{
		{"not JSON", "this is not json", -32700, "null"},
		{"cut short", `{"jsonrpc":"2.0","id":7,"method":"tools/list"`, -32700, "null"},
		{"two values", `{"jsonrpc":"2.0","id":7,"method":"tools/list"} {}`, -32700, "null"},
		{"invalid UTF-8 outside a string", "\xff\xfe", -32700, "null"},
		{"JSON, no message", `{"hello":"world"}`, -32600, "null"},
		{"a number", `42`, -32600, "null"},
		{"an empty batch", `[]`, -32600, "null"},
		{"a batch of no messages", `[1, 2]`, -32600, "null"},
		{"a wrong version with an id", `{"jsonrpc":"1.0","id":9,"method":"tools/list"}`, -32600, "9"},
		{"a method that is no string", `{"jsonrpc":"2.0","id":"x","method":5}`, -32600, `"x"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(siftBin, "mcp")
			// No sift is needed to list the tools.
			cmd.Env = append(os.Environ(), "SIFT_URL=http://127.0.0.1:9", "SIFT_KEY=k")
			cmd.Stderr = os.Stderr
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			t.Cleanup(func() {
				_ = cmd.Process.Kill()
				<-exited
			})
			answers := make(chan rpcAnswer)
			go func() {
				defer close(answers)
				sc := bufio.NewScanner(stdout)
				sc.Buffer(nil, 1<<20)
				for sc.Scan() {
					var a rpcAnswer
					if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
						t.Errorf("sift mcp wrote a line that is not JSON: %q", sc.Text())
						continue
					}
					answers <- a
				}
			}()
			next := func(what string) rpcAnswer {
				t.Helper()
				select {
				case a, ok := <-answers:
					if !ok {
						t.Fatalf("sift mcp closed stdout before %s (exit: %v)", what, waitExit(exited))
					}
					return a
				case <-time.After(mcpDeadline):
					t.Fatalf("no %s within %s", what, mcpDeadline)
				}
				return rpcAnswer{}
			}
			send := func(line string) {
				t.Helper()
				if _, err := io.WriteString(stdin, line+"\n"); err != nil {
					t.Fatalf("write %q: %v", line, err)
				}
			}

			send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
			if a := next("the initialize answer"); string(a.ID) != "1" || a.Error != nil {
				t.Fatalf("initialize: id %s, error %+v", a.ID, a.Error)
			}
			send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			send(tc.line)
			a := next("the error")
			if a.Error == nil || a.Error.Code != tc.code || string(a.ID) != tc.id {
				t.Fatalf("answer to %q: id %s, error %+v; want code %d, id %s", tc.line, a.ID, a.Error, tc.code, tc.id)
			}
			send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
			a = next("the tools/list answer")
			var names []string
			for _, tool := range a.Result.Tools {
				names = append(names, tool.Name)
			}
			if string(a.ID) != "2" || a.Error != nil || !strings.Contains(strings.Join(names, ","), "fetch") {
				t.Fatalf("tools/list after %q: id %s, error %+v, tools %v", tc.line, a.ID, a.Error, names)
			}
			stdin.Close()
			if err := waitExit(exited); err != nil {
				t.Fatalf("sift mcp exited with %v once stdin closed", err)
			}
		})
	}
}

// waitExit is how the process ended, within the MCP deadline.
func waitExit(exited chan error) error {
	select {
	case err := <-exited:
		exited <- err // for the cleanup's wait
		return err
	case <-time.After(mcpDeadline):
		return fmt.Errorf("still running after %s", mcpDeadline)
	}
}
