package mcptool

import (
	"bufio"
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

const (
	initLine  = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`
	readyLine = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	listLine  = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
)

// TestStdioTransportAnswersWhatTheSDKCannotRead: over the stdio transport,
// each line the SDK's reader would end the session on is answered with a
// JSON-RPC error and dropped, and the lines around it are served: the
// answers are the lines' ids in order.
// batchesRefused names the case whose session asks for 2025-06-18, which
// has no batches: the SDK would end the session on one.
const batchesRefused = "a batch under 2025-06-18 is answered, and the session goes on"

func TestStdioTransportAnswersWhatTheSDKCannotRead(t *testing.T) {
	t.Parallel()
	long := `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"pad":"` + strings.Repeat("x", 300) + `"}}`
	tests := []struct {
		name   string
		input  string   // after initialize and its notification
		closes bool     // the input ends after it
		want   []string // in the order sent, but those the SDK answers (all but the errors) in any order
	}{
		{"not JSON, then a request", "garbage\n" + listLine + "\n", false, []string{"-32700 null", "2"}},
		{"a line cut short is not joined with the next", `{"jsonrpc":"2.0","id":5,` + "\n" + listLine + "\n", false, []string{"-32700 null", "2"}},
		{"a line over the limit", long + "\n" + listLine + "\n", false, []string{"-32600 null", "2"}},
		{"blank lines and CRLF", "\n  \r\n" + strings.Replace(listLine, `"id":2`, `"id":4`, 1) + "\r\n" + listLine + "\n", false, []string{"4", "2"}},
		{"a batch of messages still served", "[" + listLine + "," + strings.Replace(listLine, `"id":2`, `"id":6`, 1) + "]\n", false, []string{"[2 6]"}},
		{"an invalid request keeps its id", `{"jsonrpc":"2.0","id":"abc","method":[]}` + "\n" + listLine + "\n", false, []string{`-32600 "abc"`, "2"}},
		{"the last line without a newline", "[]", true, []string{"-32600 null"}},
		{batchesRefused, "[" + listLine + "]\n" + listLine + "\n", false, []string{"-32600 null", "2"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			srv := Stdio("test", &answer{Status: 200, Body: []byte(`{}`)})
			done := make(chan error, 1)
			go func() {
				done <- srv.Run(t.Context(), &StdioTransport{In: inR, Out: outW, MaxLineLength: 200})
				outW.Close()
			}()
			lines := make(chan string)
			go func() {
				defer close(lines)
				sc := bufio.NewScanner(outR)
				for sc.Scan() {
					lines <- sc.Text()
				}
			}()
			var got []string
			next := func(want []string) {
				t.Helper()
				for len(got) < len(want) {
					select {
					case line, ok := <-lines:
						if !ok {
							t.Fatalf("the session ended after %q, want %q", got, want)
						}
						got = append(got, idOf(t, line))
					case <-time.After(time.Minute):
						t.Fatalf("answers %q after a minute, want %q", got, want)
					}
				}
			}
			init := initLine
			if tc.name == batchesRefused {
				init = strings.Replace(initLine, "2025-03-26", "2025-06-18", 1)
			}
			go func() { _, _ = io.WriteString(inW, init+"\n") }()
			next([]string{"1"})
			go func() {
				_, _ = io.WriteString(inW, readyLine+"\n"+tc.input)
				if tc.closes {
					inW.Close() // the last line ends with the input
				}
			}()
			want := append([]string{"1"}, tc.want...)
			next(want)
			inW.Close()
			select {
			case err := <-done:
				if err != nil && !strings.Contains(err.Error(), "EOF") {
					t.Errorf("the session ended with %v", err)
				}
			case <-time.After(time.Minute):
				t.Fatal("the session did not end a minute after its input did")
			}
			if line, ok := <-lines; ok {
				t.Errorf("an answer more: %q", line)
			}
			if !tc.closes {
				// The SDK answers requests concurrently: its answers may
				// pass each other, never the filter's errors.
				sortAnswers(got)
				sortAnswers(want)
			}
			if strings.Join(got, " | ") != strings.Join(want, " | ") {
				t.Fatalf("answers %q, want %q", got, want)
			}
		})
	}
}

// sortAnswers sorts the SDK's answers between the filter's errors.
func sortAnswers(a []string) {
	start := 0
	for i := 0; i <= len(a); i++ {
		if i == len(a) || strings.HasPrefix(a[i], "-326") || strings.HasPrefix(a[i], "-327") {
			slices.Sort(a[start:i])
			start = i + 1
		}
	}
}

// idOf is an answer's id, after its error code when it is an error; a
// batch's ids in brackets.
func idOf(t *testing.T, line string) string {
	t.Helper()
	type answer struct {
		ID    json.RawMessage `json:"id"`
		Error *struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	if strings.HasPrefix(line, "[") {
		var batch []answer
		if err := json.Unmarshal([]byte(line), &batch); err != nil {
			t.Fatalf("%v: %q", err, line)
		}
		var ids []string
		for _, a := range batch {
			ids = append(ids, string(a.ID))
		}
		return "[" + strings.Join(ids, " ") + "]"
	}
	var a answer
	if err := json.Unmarshal([]byte(line), &a); err != nil {
		t.Fatalf("%v: %q", err, line)
	}
	if a.Error != nil {
		return strconv.Itoa(a.Error.Code) + " " + string(a.ID)
	}
	return string(a.ID)
}
