package search

import (
	"context"
	"strings"
	"testing"
	"time"
)

// Hidden text in a backend's answer never reaches the agent, and the
// outcome warns that some was removed.
func TestSearcherStripsInvisible(t *testing.T) {
	srv := fakeBackend(t, "/search", "searxng-hidden.json", 200, 0, nil)
	searx := &SearXNG{BaseURL: srv.URL, Client: loopbackClient(t, srv)}
	out, err := (&Searcher{Backends: []Backend{searx}, Deadline: 5 * time.Second}).Search(context.Background(), "q", 10)
	if err != nil {
		t.Fatal(err)
	}
	r := out.Results[0]
	if r.Title != "Plain title" || r.Snippet != "Read me. Zerowidth [2Jhere." || out.Answers[0] != "answer" {
		t.Errorf("title %q, snippet %q, answers %q", r.Title, r.Snippet, out.Answers)
	}
	if w := strings.Join(out.Warnings, "|"); !strings.Contains(w, "removed 9 invisible or control characters") {
		t.Errorf("warnings %q", out.Warnings)
	}
}
