package errclass

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestReadmeTable fails when the table of error classes in docs/api.md
// and table disagree; its message is the table as it should read.
func TestReadmeTable(t *testing.T) {
	raw, err := os.ReadFile(docFile)
	if err != nil {
		t.Fatal(err)
	}
	got := readmeTable(t, string(raw))
	if want := markdown(); got != want {
		t.Errorf("%s's error table differs from errclass's table; it should read:\n\n%s", docFile, want)
	}
}

// docFile is the document holding the error table, under its Errors
// heading.
const docFile = "../docs/api.md"

// readmeTable is the table after the line introducing it.
func readmeTable(t *testing.T, readme string) string {
	const intro = "Every error's text starts with its class"
	_, rest, found := strings.Cut(readme, intro)
	if !found {
		t.Fatalf("%s has no %q", docFile, intro)
	}
	var rows []string
	for _, line := range strings.Split(rest, "\n")[1:] {
		if strings.HasPrefix(line, "|") {
			rows = append(rows, line)
		} else if len(rows) > 0 {
			break
		}
	}
	return strings.Join(rows, "\n") + "\n"
}

// markdown renders table as docs/api.md shows it.
func markdown() string {
	var b strings.Builder
	b.WriteString("| class | status | Firecrawl | retry? | exit | when |\n|---|---|---|---|---|---|\n")
	for _, r := range table {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %d | %s |\n", r.Class, statuses(r), firecrawl(r), retry(r), r.Exit, r.When)
	}
	return b.String()
}

func statuses(r Row) string {
	if r.Status == 0 {
		return "—"
	}
	s := []string{strconv.Itoa(r.Status)}
	for _, a := range r.Also {
		s = append(s, strconv.Itoa(a))
	}
	return strings.Join(s, "/")
}

func firecrawl(r Row) string {
	if r.FirecrawlStatus == 0 {
		return "—"
	}
	s := []string{strconv.Itoa(r.FirecrawlStatus)}
	for _, a := range r.FirecrawlAlso {
		s = append(s, strconv.Itoa(a))
	}
	if r.FirecrawlCode == "" {
		return strings.Join(s, "/")
	}
	codes := []string{"`" + r.FirecrawlCode + "`"}
	for _, c := range r.FirecrawlCodes {
		codes = append(codes, "`"+c+"`")
	}
	return strings.Join(s, "/") + " " + strings.Join(codes, "/")
}

func retry(r Row) string {
	switch {
	case r.RetryAfter > 0:
		return "yes, after `Retry-After`"
	case r.Retry:
		return "yes"
	}
	return "no"
}

// TestTableRules holds the table to the conventions agents rely on: 4xx
// when a retry cannot help, 5xx or 429 when it may; one exit code per
// class, 10-29 for no retry and 30-39 for a retry; Firecrawl statuses its
// contract lists.
func TestTableRules(t *testing.T) {
	exits := map[int]Class{}
	firecrawlStatuses := map[int]bool{400: true, 401: true, 403: true, 404: true, 408: true, 409: true, 429: true, 500: true}
	for _, r := range table {
		if prev, dup := exits[r.Exit]; dup {
			t.Errorf("%s and %s share exit code %d", prev, r.Class, r.Exit)
		}
		exits[r.Exit] = r.Class
		if r.Status == 0 {
			if r.Exit != 4 && r.Exit != 5 {
				t.Errorf("%s: a CLI-only class exits 4 or 5, not %d", r.Class, r.Exit)
			}
			continue
		}
		if r.Retry && r.Status < 429 || !r.Retry && r.Status >= 500 && r.Status != 501 {
			t.Errorf("%s: status %d but retry %v", r.Class, r.Status, r.Retry)
		}
		if lo, hi := 10, 29; r.Retry {
			lo, hi = 30, 39
			if r.Exit < lo || r.Exit > hi {
				t.Errorf("%s: retry %v wants an exit code in %d-%d, not %d", r.Class, r.Retry, lo, hi, r.Exit)
			}
		} else if r.Exit < lo || r.Exit > hi {
			t.Errorf("%s: retry %v wants an exit code in %d-%d, not %d", r.Class, r.Retry, lo, hi, r.Exit)
		}
		if !firecrawlStatuses[r.FirecrawlStatus] {
			t.Errorf("%s: Firecrawl status %d is not in its contract", r.Class, r.FirecrawlStatus)
		}
		if r.Outcome == "" || r.When == "" || r.Outcome == OutcomeOther {
			t.Errorf("%s: no metric outcome of its own, or no description", r.Class)
		}
		// Requeueing a batch target is a retry; recovering from the
		// archive is for a failure on the origin's side of sift.
		if r.Requeue && !r.Retry || r.Recover && (!r.Retry || r.Status < 500) {
			t.Errorf("%s: requeue %v, recover %v with retry %v and status %d", r.Class, r.Requeue, r.Recover, r.Retry, r.Status)
		}
	}
}

type classed struct{ c Class }

func (e classed) Error() string     { return string(e.c) }
func (e classed) ErrorClass() Class { return e.c }

func TestOf(t *testing.T) {
	timeoutSentinel := New(Timeout, "plugin timed out")
	tests := []struct {
		name string
		err  error
		want Class
		ok   bool
	}{
		{"sentinel wrapped", fmt.Errorf("%w: EOF", New(Upstream, "upstream")), Upstream, true},
		{"typed error", fmt.Errorf("stage guard: %w", classed{Blocked}), Blocked, true},
		{"deadline", fmt.Errorf("stage fetch: %w", context.DeadlineExceeded), Timeout, true},
		{"table order decides", fmt.Errorf("%w: %w", New(Upstream, "upstream"), classed{Blocked}), Blocked, true},
		{"joined", errors.Join(errors.New("x"), fmt.Errorf("%w after 30s", timeoutSentinel)), Timeout, true},
		{"unknown", errors.New("surprise"), Internal, false},
		{"nil", nil, Internal, false},
	}
	for _, tc := range tests {
		got, ok := Of(tc.err)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: Of = %s, %v; want %s, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
	if !errors.Is(fmt.Errorf("x: %w", timeoutSentinel), timeoutSentinel) {
		t.Error("a sentinel is no longer matched by errors.Is")
	}
}

func TestDocument(t *testing.T) {
	tests := []struct {
		class  Class
		status int
		code   string
	}{
		{Invalid, 422, "BAD_REQUEST"},
		{Unsupported, 415, "UNSUPPORTED"},
		{TooLarge, 413, "TOO_LARGE"},
		{BadOption, 400, "BAD_OPTION"},
		{NoText, 422, "NO_TEXT"},
		{"encrypted", 422, "ENCRYPTED"},
	}
	for _, tc := range tests {
		r := Document(tc.class)
		if r.Class != tc.class || r.Status != tc.status || r.FirecrawlCode != tc.code {
			t.Errorf("Document(%s) = %s %d %s, want %d %s", tc.class, r.Class, r.Status, r.FirecrawlCode, tc.status, tc.code)
		}
	}
}

func TestFromMessage(t *testing.T) {
	for msg, want := range map[string]Class{
		"blocked: private address 10.0.0.5": Blocked,
		"busy: the gate is full":            Busy,
		"sift answered 418":                 "",
		"stage fetch: upstream: EOF":        "",
	} {
		got, ok := FromMessage(msg)
		if got != want && !(want == "" && !ok) {
			t.Errorf("FromMessage(%q) = %q, %v; want %q", msg, got, ok, want)
		}
	}
}

func TestResolveRefines(t *testing.T) {
	tooMany := &Error{Class: Invalid, Msg: "too many targets", Status: 422}
	if r, _ := Resolve(fmt.Errorf("%w: 40, at most 32", tooMany)); r.Status != 422 {
		t.Errorf("status %d, want the error's 422", r.Status)
	}
	if r, _ := Resolve(&Error{Class: Invalid, Status: 503}); r.Status != 400 {
		t.Errorf("status %d: a status the class does not allow must not be taken", r.Status)
	}
	if r, _ := Resolve(&Error{Class: Busy, RetryAfter: 30}); r.RetryAfter != 30 {
		t.Errorf("Retry-After %d, want 30", r.RetryAfter)
	}
	if r, _ := Resolve(New(Busy, "busy")); r.RetryAfter != 1 {
		t.Errorf("Retry-After %d, want the table's 1", r.RetryAfter)
	}
}
