package server

import (
	"bufio"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/siftd/sift/internal/httpapi"
	"github.com/siftd/sift/metrics"
)

// logLine is one request line of sift's log.
type logLine struct {
	Msg      string `json:"msg"`
	ID       string `json:"id"`
	Route    string `json:"route"`
	Caller   string `json:"caller"`
	Mode     string `json:"mode"`
	Status   int    `json:"status"`
	Cached   *bool  `json:"cached"`
	Tokens   *int   `json:"tokens"`
	Warnings *int   `json:"warnings"`
	Host     string `json:"host"`
	Error    string `json:"error"`
}

// requestLines returns the "request" lines logged so far.
func requestLines(t *testing.T, logs *lockedBuffer) []logLine {
	t.Helper()
	var out []logLine
	sc := bufio.NewScanner(strings.NewReader(logs.String()))
	for sc.Scan() {
		var l logLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("log line %q: %v", sc.Text(), err)
		}
		if l.Msg == "request" {
			out = append(out, l)
		}
	}
	return out
}

// TestEveryRequestIsLoggedAsAnswered: one line per request, 401 and 400
// included, with the status the client got, the tokens it got and the
// request id the answer carries.
func TestEveryRequestIsLoggedAsAnswered(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	var logs lockedBuffer
	srv := newTestServer(t, origin, testOptions{Options: Options{Logger: slog.New(slog.NewJSONHandler(&logs, nil))}}, `stage "cache" {}`)

	cases := []struct {
		name, key string
		body      any
		status    int
		caller    string
		mode      string
	}{
		{"no key", "", map[string]any{"url": origin.URL + "/article"}, 401, "anonymous", ""},
		{"bad body", testKey, `{"url":`, 400, "agent", ""},
		{"raw of an image", testKey, map[string]any{"url": origin.URL + "/image", "mode": "raw"}, 415, "agent", "raw"},
		{"clean", testKey, map[string]any{"url": origin.URL + "/article", "max_tokens": 40}, 200, "agent", "clean"},
		{"clean again, cached", testKey, map[string]any{"url": origin.URL + "/article", "max_tokens": 40}, 200, "agent", "clean"},
	}
	var answers []map[string]any
	var ids []string
	for _, tc := range cases {
		resp, body := post(t, srv.URL+"/v1/fetch", tc.key, tc.body)
		if resp.StatusCode != tc.status {
			t.Fatalf("%s: %d %v", tc.name, resp.StatusCode, body)
		}
		answers, ids = append(answers, body), append(ids, resp.Header.Get(httpapi.RequestIDHeader))
	}
	lines := requestLines(t, &logs)
	if len(lines) != len(cases) {
		t.Fatalf("%d request lines for %d requests:\n%s", len(lines), len(cases), logs.String())
	}
	for i, tc := range cases {
		l := lines[i]
		if l.ID == "" || l.ID != ids[i] || l.Route != "/v1/fetch" || l.Status != tc.status || l.Caller != tc.caller || l.Mode != tc.mode {
			t.Errorf("%s: line %+v (header id %q)", tc.name, l, ids[i])
		}
		if tc.status != 200 {
			continue
		}
		sizes := answers[i]["sizes"].(map[string]any)
		source := answers[i]["source"].(map[string]any)
		if l.Tokens == nil || float64(*l.Tokens) != sizes["returned_tokens"] || sizes["returned_tokens"] == sizes["clean_tokens"] {
			t.Errorf("%s: logged tokens %v, answer's sizes %v", tc.name, l.Tokens, sizes)
		}
		if l.Cached == nil || *l.Cached != source["cached"] || l.Warnings == nil || *l.Warnings != len(answers[i]["warnings"].([]any)) {
			t.Errorf("%s: line %+v, answer %v", tc.name, l, answers[i])
		}
	}
	if !*lines[4].Cached {
		t.Error("the second fetch was not logged as cached")
	}
}

func TestRequestIDFromClient(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t, fixtureOrigin(t), testOptions{})
	for _, tc := range []struct{ sent, want string }{
		{"trace-42.a:b", "trace-42.a:b"},
		{"has space", ""},
		{strings.Repeat("x", 65), ""},
		{`"quoted"`, ""},
	} {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/healthz", nil)
		req.Header.Set(httpapi.RequestIDHeader, tc.sent)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		got := resp.Header.Get(httpapi.RequestIDHeader)
		if tc.want != "" && got != tc.want || tc.want == "" && (got == tc.sent || !httpapi.WellFormedRequestID(got)) {
			t.Errorf("sent %q, answered %q", tc.sent, got)
		}
	}
}

// TestMetricsPerCaller: the request, token and busy series carry the
// caller, bounded by the configured callers, and start at zero.
func TestMetricsPerCaller(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	m := metrics.New()
	srv := newTestServer(t, origin, testOptions{Options: Options{Metrics: m}})
	before := scrape(t, srv.URL)
	for _, want := range []string{
		`sift_busy_rejections_total{caller="agent"} 0`,
		`sift_busy_rejections_total{caller="quiet"} 0`,
		`sift_tokens_total{caller="quiet",kind="returned"} 0`,
		`sift_http_requests_total{caller="agent",route="/v1/fetch",status="200"} 0`,
		`sift_digest_fallbacks_total{reason="skipped"} 0`,
		`sift_context_lookups_total{outcome="timeout"} 0`,
		`sift_fetch_errors_total{class="upstream"} 0`,
	} {
		if !strings.Contains(before, want) {
			t.Errorf("at start, no %s", want)
		}
	}
	post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/article"})
	post(t, srv.URL+"/v1/fetch", "wrong", map[string]any{"url": origin.URL + "/article"})
	post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": "http://10.0.0.5/"})
	after := scrape(t, srv.URL)
	for _, want := range []string{
		`sift_http_requests_total{caller="agent",route="/v1/fetch",status="200"} 1`,
		`sift_http_requests_total{caller="anonymous",route="/v1/fetch",status="401"} 1`,
		`sift_guard_refusals_total{caller="agent",rule="private address"} 1`,
		`sift_fetch_errors_total{class="blocked"} 1`,
	} {
		if !strings.Contains(after, want) {
			t.Errorf("no %s in\n%s", want, grepLines(after, "sift_"))
		}
	}
	if !strings.Contains(after, `sift_tokens_total{caller="agent",kind="returned"}`) || strings.Contains(after, `sift_tokens_total{caller="agent",kind="returned"} 0`) {
		t.Errorf("returned tokens of agent not counted:\n%s", grepLines(after, "sift_tokens_total"))
	}
}

func scrape(t *testing.T, base string) string {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

func grepLines(text, prefix string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestDigestSkippedByContentTypes: a digest the stage's content_types
// leave out says so, apart from a chain with no digester at all, and is
// counted as skipped.
func TestDigestSkippedByContentTypes(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	m := metrics.New()
	srv := newTestServer(t, origin, testOptions{extraConfig: digesterBlock("http://127.0.0.1:9/v1"), Options: Options{Metrics: m}},
		`stage "digest" { content_types = ["application/pdf"] }`)
	_, body := post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/article", "mode": "digest"})
	want := "digest skipped: the digest stage's content_types do not include text/html; returning clean content"
	if ws, _ := body["warnings"].([]any); len(ws) != 1 || ws[0] != want {
		t.Fatalf("warnings %v", body["warnings"])
	}
	if after := scrape(t, srv.URL); !strings.Contains(after, `sift_digest_fallbacks_total{reason="skipped"} 1`) {
		t.Fatalf("skip not counted:\n%s", grepLines(after, "sift_digest"))
	}
}
