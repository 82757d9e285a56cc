package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/siftd/sift/internal/testkit/testenv"
)

// mcpDeadline bounds one MCP session's checks on a loaded machine.
const mcpDeadline = 3 * time.Minute

// mcpOrigin serves the loopback pages the MCP checks read: HTML, JSON, a
// PDF, and pages held until the test releases them, so a batch's progress
// is in the test's hands.
type mcpOrigin struct {
	*httptest.Server
	mu      sync.Mutex
	holds   map[string]chan struct{}
	arrival map[string]chan struct{}
}

func newMCPOrigin(t *testing.T) *mcpOrigin {
	t.Helper()
	pdf, err := os.ReadFile(filepath.Join("..", "..", "plugins", "pdf", "testdata", "pdfjs-TAMReview.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	o := &mcpOrigin{holds: map[string]chan struct{}{}, arrival: map[string]chan struct{}{}}
	o.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/data.json":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"items": [{"name": "alpha", "port": 8080}, {"name": "beta", "port": 9090}], "noise": "x"}`)
			return
		case r.URL.Path == "/doc.pdf":
			w.Header().Set("Content-Type", "application/pdf")
			w.Write(pdf)
			return
		case strings.HasPrefix(r.URL.Path, "/hold/"):
			o.arrived(r.URL.Path)
			select {
			case <-o.hold(r.URL.Path):
			case <-r.Context().Done():
				return
			}
		}
		name := strings.TrimSuffix(filepath.Base(r.URL.Path), ".html")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<html><head><title>Page %s</title></head><body><nav><a href="/">Home</a> <a href="/about">About</a></nav><article><h1>Page %s</h1>%s</article><footer>Copyright</footer></body></html>`,
			name, name, strings.Repeat("<p>Fixture text for the MCP check, served on loopback only. </p>", 10))
	}))
	t.Cleanup(func() { o.releaseAll(); o.Close() })
	return o
}

func (o *mcpOrigin) hold(path string) chan struct{} {
	o.mu.Lock()
	defer o.mu.Unlock()
	ch, ok := o.holds[path]
	if !ok {
		ch = make(chan struct{})
		o.holds[path] = ch
	}
	return ch
}

// arrivalOf is closed once a request for the held path has arrived.
func (o *mcpOrigin) arrivalOf(path string) chan struct{} {
	o.mu.Lock()
	defer o.mu.Unlock()
	ch, ok := o.arrival[path]
	if !ok {
		ch = make(chan struct{})
		o.arrival[path] = ch
	}
	return ch
}

func (o *mcpOrigin) arrived(path string) {
	ch := o.arrivalOf(path)
	o.mu.Lock()
	defer o.mu.Unlock()
	select {
	case <-ch:
	default:
		close(ch)
	}
}

func (o *mcpOrigin) release(path string) {
	ch := o.hold(path)
	o.mu.Lock()
	defer o.mu.Unlock()
	select {
	case <-ch:
	default:
		close(ch)
	}
}

func (o *mcpOrigin) releaseAll() {
	o.mu.Lock()
	paths := make([]string, 0, len(o.holds))
	for p := range o.holds {
		paths = append(paths, p)
	}
	o.mu.Unlock()
	for _, p := range paths {
		o.release(p)
	}
}

// bearer adds a key to every request of the MCP client.
type bearer struct{ key string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.key)
	return http.DefaultTransport.RoundTrip(r)
}

// TestMCPGoClient drives sift's MCP tools with the Go SDK's client over
// both transports: `sift mcp` on stdio against a running sift, and
// streamable HTTP at /mcp on that sift.
func TestMCPGoClient(t *testing.T) {
	origin := newMCPOrigin(t)
	// A fetch of a host the caller's batch holds waits in line; a short
	// wait keeps the test short.
	addr, _ := startSiftCmd(t, origin.Server, searxngBlock(t)+"\ngates {\n  wait = \"1s\"\n}\n")
	transports := []struct {
		name string
		make func() mcp.Transport
	}{
		{"stdio", func() mcp.Transport {
			cmd := exec.Command(siftBin, "mcp")
			cmd.Env = append(os.Environ(), "SIFT_URL=http://"+addr, "SIFT_KEY=test-key")
			cmd.Stderr = os.Stderr
			return &mcp.CommandTransport{Command: cmd}
		}},
		{"http", func() mcp.Transport {
			return &mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp", HTTPClient: &http.Client{Transport: bearer{"test-key"}}}
		}},
	}
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			checkMCPTools(t, tr.name, origin, tr.make())
		})
	}
}

// mcpSession is a connected client with the tools it listed.
type mcpSession struct {
	t        *testing.T
	ctx      context.Context
	cs       *mcp.ClientSession
	schemas  map[string]*jsonschema.Resolved
	progress chan *mcp.ProgressNotificationParams
}

func checkMCPTools(t *testing.T, name string, origin *mcpOrigin, transport mcp.Transport) {
	ctx, cancel := context.WithTimeout(context.Background(), mcpDeadline)
	defer cancel()
	s := &mcpSession{t: t, ctx: ctx, schemas: map[string]*jsonschema.Resolved{}, progress: make(chan *mcp.ProgressNotificationParams, 64)}
	client := mcp.NewClient(&mcp.Implementation{Name: "sift-test", Version: "0"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			s.progress <- req.Params
		},
	})
	cs, err := client.Connect(ctx, transport, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer cs.Close()
	s.cs = cs

	s.listTools()

	page := origin.URL + "/" + name + "/a.html"
	out := s.callOK("fetch", map[string]any{"url": page})
	if c := out["content"].(string); !strings.Contains(c, "# Page a") || !strings.Contains(c, "Fixture text") {
		t.Errorf("fetch HTML content = %q", c)
	}
	if out["untrusted"] != true {
		t.Errorf("fetch untrusted = %v", out["untrusted"])
	}

	again := s.callOK("fetch", map[string]any{"url": page, "fresh": true})
	if src, _ := again["source"].(map[string]any); src["cached"] != false {
		t.Errorf("fetch with fresh: source %v, want a copy not from the cache", again["source"])
	}

	out = s.callOK("fetch", map[string]any{"url": origin.URL + "/data.json", "jq": ".items[] | .name"})
	if c := out["content"].(string); !strings.Contains(c, "alpha") || strings.Contains(c, "noise") || strings.Contains(c, "8080") {
		t.Errorf("fetch JSON with jq content = %q", c)
	}

	out = s.callOK("fetch", map[string]any{"url": origin.URL + "/doc.pdf", "pages": "1"})
	whole := s.callOK("fetch", map[string]any{"url": origin.URL + "/doc.pdf"})
	if c := out["content"].(string); strings.TrimSpace(c) == "" || len(c) >= len(whole["content"].(string)) {
		t.Errorf("fetch PDF page 1: %d bytes, the whole PDF %d", len(c), len(whole["content"].(string)))
	}

	focused := s.callOK("fetch", map[string]any{"url": origin.URL + "/doc.pdf", "question": "what does the review find", "max_tokens": 200})
	parts, _ := focused["parts"].(map[string]any)
	sizes, _ := focused["sizes"].(map[string]any)
	if parts == nil || parts["kept"].(float64) >= parts["total"].(float64) || sizes["returned_tokens"].(float64) > 260 {
		t.Errorf("fetch with max_tokens 200: parts %v, sizes %v", parts, sizes)
	}

	text := s.callErr("fetch", map[string]any{"url": "http://169.254.169.254/latest/meta-data/"})
	if !strings.HasPrefix(text, "blocked: ") {
		t.Errorf("fetch of a metadata address: %q, want a blocked error", text)
	}

	out = s.callOK("search", map[string]any{"query": "reverse proxy nginx", "k": 3})
	if results := out["results"].([]any); len(results) == 0 || len(results) > 3 {
		t.Errorf("search: %d results, want 1 to 3", len(results))
	}

	s.checkBatch(name, origin)
}

func (s *mcpSession) listTools() {
	t := s.t
	res, err := s.cs.ListTools(s.ctx, nil)
	if err != nil {
		t.Fatalf("list tools: %v", err)
	}
	want := []string{"fetch", "search", "batch_submit", "batch_status", "batch_result", "batch_cancel"}
	for _, tool := range res.Tools {
		if tool.Description == "" || tool.InputSchema == nil || tool.OutputSchema == nil {
			t.Errorf("tool %s lacks a description or a schema", tool.Name)
			continue
		}
		raw, _ := json.Marshal(tool.OutputSchema)
		var schema jsonschema.Schema
		if err := json.Unmarshal(raw, &schema); err != nil {
			t.Fatalf("tool %s: output schema: %v", tool.Name, err)
		}
		resolved, err := schema.Resolve(nil)
		if err != nil {
			t.Fatalf("tool %s: resolve output schema: %v", tool.Name, err)
		}
		s.schemas[tool.Name] = resolved
	}
	for _, name := range want {
		if s.schemas[name] == nil {
			t.Errorf("tool %s missing from the list", name)
		}
	}
}

// call calls a tool and checks a success's structuredContent against the
// tool's declared output schema.
func (s *mcpSession) call(name string, args map[string]any) *mcp.CallToolResult {
	return s.callWith(&mcp.CallToolParams{Name: name, Arguments: args})
}

func (s *mcpSession) callWith(params *mcp.CallToolParams) *mcp.CallToolResult {
	t := s.t
	t.Helper()
	t.Logf("call %s %v", params.Name, params.Arguments)
	res, err := s.cs.CallTool(s.ctx, params)
	if err != nil {
		t.Fatalf("call %s: %v", params.Name, err)
	}
	if len(res.Content) == 0 {
		t.Fatalf("call %s: no text content", params.Name)
	}
	if res.IsError {
		return res
	}
	raw, _ := json.Marshal(res.StructuredContent)
	var instance any
	if err := json.Unmarshal(raw, &instance); err != nil {
		t.Fatalf("call %s: structuredContent: %v", params.Name, err)
	}
	if err := s.schemas[params.Name].Validate(instance); err != nil {
		t.Errorf("call %s: structuredContent does not match the output schema: %v\n%s", params.Name, err, raw)
	}
	return res
}

func (s *mcpSession) callOK(name string, args map[string]any) map[string]any {
	t := s.t
	t.Helper()
	res := s.call(name, args)
	if res.IsError {
		t.Fatalf("call %s %v: tool error %s", name, args, text(res))
	}
	if name == "fetch" && !strings.Contains(text(res), "<<<UNTRUSTED ") {
		t.Errorf("fetch text content does not fence the page: %q", text(res))
	}
	raw, _ := json.Marshal(res.StructuredContent)
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func (s *mcpSession) callErr(name string, args map[string]any) string {
	s.t.Helper()
	res := s.call(name, args)
	if !res.IsError {
		s.t.Fatalf("call %s %v: succeeded, want a tool error", name, args)
	}
	return text(res)
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// checkBatch submits three held pages, long-polls while releasing them
// one by one (each step a progress notification), reads one result, and
// cancels a second job.
func (s *mcpSession) checkBatch(name string, origin *mcpOrigin) {
	t := s.t
	var urls []string
	var targets []any
	for _, p := range []string{"x", "y", "z"} {
		u := origin.URL + "/hold/" + name + "/" + p + ".html"
		urls = append(urls, u)
		targets = append(targets, map[string]any{"url": u})
	}
	sub := s.callOK("batch_submit", map[string]any{"targets": targets})
	job := sub["job_id"].(string)
	if sub["targets"] != 3.0 {
		t.Errorf("batch_submit targets = %v", sub["targets"])
	}
	done := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, err := s.cs.CallTool(s.ctx, &mcp.CallToolParams{Name: "batch_status", Arguments: map[string]any{"job_id": job, "wait": 30, "results": true},
			Meta: mcp.Meta{"progressToken": "batch-" + name}})
		if err != nil {
			res = &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}
		}
		done <- res
	}()
	// While the first page is held, the batch holds this caller's slot
	// for the host: a fetch of it waits in line, is busy once the gates'
	// wait runs out, and says when to retry.
	select {
	case <-origin.arrivalOf(strings.TrimPrefix(urls[0], origin.URL)):
	case <-s.ctx.Done():
		t.Fatal("the batch's first page was never fetched")
	}
	busy := s.callErr("fetch", map[string]any{"url": origin.URL + "/" + name + "/b.html"})
	if want := "busy: waited 1s for this caller's fetches of this host to finish; retry after 1 s"; busy != want {
		t.Errorf("fetch while the batch holds the host: %q, want %q", busy, want)
	}
	origin.release(strings.TrimPrefix(urls[0], origin.URL))
	// Notifications grow from 0 (the job started) to 1 (the released page).
	for last := -1.0; last < 1; {
		select {
		case p := <-s.progress:
			if p.ProgressToken != "batch-"+name || p.Total != 3 || p.Progress <= last || p.Progress > 1 {
				t.Fatalf("progress = %+v after %v, want token batch-%s, growing to 1 of 3", p, last, name)
			}
			last = p.Progress
		case <-s.ctx.Done():
			t.Fatal("no progress notification for the first page done")
		}
	}
	origin.release(strings.TrimPrefix(urls[1], origin.URL))
	origin.release(strings.TrimPrefix(urls[2], origin.URL))
	var res *mcp.CallToolResult
	select {
	case res = <-done:
	case <-s.ctx.Done():
		t.Fatal("batch_status did not answer")
	}
	if res.IsError {
		t.Fatalf("batch_status: %s", text(res))
	}
	raw, _ := json.Marshal(res.StructuredContent)
	var status struct {
		Status  string `json:"status"`
		Targets []struct {
			Status string         `json:"status"`
			Result map[string]any `json:"result"`
		} `json:"targets"`
	}
	var instance any
	_ = json.Unmarshal(raw, &instance)
	if err := s.schemas["batch_status"].Validate(instance); err != nil {
		t.Errorf("batch_status structuredContent does not match the schema: %v", err)
	}
	if err := json.Unmarshal(raw, &status); err != nil || status.Status != "done" || len(status.Targets) != 3 || status.Targets[2].Result == nil {
		t.Fatalf("batch_status after the long-poll = %s (%v)", raw, err)
	}

	one := s.callOK("batch_result", map[string]any{"job_id": job, "idx": 1})
	if r, _ := one["result"].(map[string]any); r == nil || !strings.Contains(r["content"].(string), "# Page y") {
		t.Errorf("batch_result idx 1 = %v", one)
	}
	if msg := s.callErr("batch_cancel", map[string]any{"job_id": job}); !strings.HasPrefix(msg, "conflict: ") {
		t.Errorf("cancel of a finished job: %q", msg)
	}

	held := origin.URL + "/hold/" + name + "/cancel.html"
	second := s.callOK("batch_submit", map[string]any{"targets": []any{map[string]any{"url": held}}})
	cancelled := s.callOK("batch_cancel", map[string]any{"job_id": second["job_id"]})
	if cancelled["status"] != "cancelled" {
		t.Errorf("batch_cancel = %v", cancelled)
	}
	origin.release(strings.TrimPrefix(held, origin.URL))
	final := s.callOK("batch_status", map[string]any{"job_id": second["job_id"], "wait": 30})
	if final["status"] != "cancelled" {
		t.Errorf("a cancelled job's status = %v", final["status"])
	}
}

// TestMCPHTTPAuth: /mcp refuses a missing or wrong key as /v1/fetch does,
// and a blocked URL gets the same words through the tool as through the
// API.
func TestMCPHTTPAuth(t *testing.T) {
	origin := newMCPOrigin(t)
	addr, _ := startSiftCmd(t, origin.Server, "")
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`
	for _, key := range []string{"", "wrong-key"} {
		req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/mcp", strings.NewReader(initialize))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("POST /mcp with key %q: %d, want 401", key, resp.StatusCode)
		}
	}

	blocked := "http://10.0.0.5/"
	req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/v1/fetch", strings.NewReader(`{"url": "`+blocked+`"}`))
	req.Header.Set("Authorization", "Bearer test-key")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var apiErr struct {
		Error string `json:"error"`
	}
	json.NewDecoder(resp.Body).Decode(&apiErr)
	resp.Body.Close()

	ctx, cancel := context.WithTimeout(context.Background(), mcpDeadline)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "sift-test", Version: "0"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp", HTTPClient: &http.Client{Transport: bearer{"test-key"}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "fetch", Arguments: map[string]any{"url": blocked}})
	if err != nil {
		t.Fatal(err)
	}
	// The tool says what /v1/fetch says, and the hint /v1/fetch gives
	// beside it.
	if !res.IsError || !strings.HasPrefix(text(res), apiErr.Error+" (hint: ") || !strings.HasPrefix(apiErr.Error, "blocked: ") {
		t.Errorf("blocked fetch: tool %q (error %v), /v1/fetch %q", text(res), res.IsError, apiErr.Error)
	}
}

// TestMCPTypeScriptClient runs the real MCP TypeScript SDK client
// (testdata/mcp-ts/check.mjs) over both transports: `sift mcp` on stdio
// and /mcp on a running sift.
func TestMCPTypeScriptClient(t *testing.T) {
	sdkDir := testenv.NodeProject(t, os.DirFS(filepath.Join("testdata", "mcp-ts")))
	origin := newMCPOrigin(t)
	addr, _ := startSiftCmd(t, origin.Server, searxngBlock(t))
	for _, transport := range []string{"stdio", "http"} {
		t.Run(transport, func(t *testing.T) {
			pages := []string{}
			for _, p := range []string{"a", "b", "c"} {
				pages = append(pages, origin.URL+"/ts-"+transport+"/"+p+".html")
			}
			check := exec.Command("node", filepath.Join(sdkDir, "check.mjs"))
			check.Env = append(os.Environ(), "TRANSPORT="+transport, "SIFT_BIN="+siftBin, "SIFT_URL=http://"+addr, "SIFT_KEY=test-key",
				"PAGE_URLS="+strings.Join(pages, ","), "JSON_URL="+origin.URL+"/data.json", "PDF_URL="+origin.URL+"/doc.pdf",
				"QUERY=reverse proxy nginx")
			var out bytes.Buffer
			check.Stdout, check.Stderr = &out, &out
			err := check.Run()
			t.Logf("check.mjs:\n%s", out.String())
			if err != nil || !strings.Contains(out.String(), " 0 failed") {
				t.Fatalf("the MCP TypeScript SDK checks failed: %v", err)
			}
		})
	}
}

// TestMCPHTTPSessionsAndOrigins: the red team's cases against the real
// sift serve behind a proxy's name. A session is its key's alone:
// another key's request on it is a 404, and the owner's session goes on;
// a foreign Origin is a 403; the public URL's Host, as a reverse proxy
// that keeps the Host header sends it, is taken.
func TestMCPHTTPSessionsAndOrigins(t *testing.T) {
	origin := newMCPOrigin(t)
	bob := sha256.Sum256([]byte("bob-key"))
	addr, _ := startSiftCmd(t, origin.Server, fmt.Sprintf("public_url = \"https://sift.example.com\"\ncaller \"bob\" {\n  key_sha256 = %q\n}\n", hex.EncodeToString(bob[:])))
	ctx, cancel := context.WithTimeout(context.Background(), mcpDeadline)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "alice", Version: "0"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp", HTTPClient: &http.Client{Transport: bearer{"test-key"}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	post := func(key, session string, header map[string]string, body string) int {
		req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/mcp", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		for k, v := range header {
			if k == "Host" {
				req.Host = v
			} else {
				req.Header.Set(k, v)
			}
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	toolsList := `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`
	for _, tc := range []struct {
		name, key, session string
		header             map[string]string
		body               string
		want               int
	}{
		{"bob on alice's session", "bob-key", cs.ID(), nil, toolsList, http.StatusNotFound},
		{"a foreign Origin", "test-key", "", map[string]string{"Origin": "https://attacker.example"}, initialize, http.StatusForbidden},
		{"the public URL's Host", "test-key", "", map[string]string{"Host": "sift.example.com"}, initialize, http.StatusOK},
		{"another Host on loopback", "test-key", "", map[string]string{"Host": "rebind.attacker.example"}, initialize, http.StatusForbidden},
	} {
		if got := post(tc.key, tc.session, tc.header, tc.body); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Errorf("alice's session after bob's try: %v", err)
	}
}
