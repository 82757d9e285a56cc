package honcho_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/siftd/sift/honcho"
	"github.com/siftd/sift/honcho/honchotest"
)

func newClient(t *testing.T, url, key string, timeout time.Duration) *honcho.Client {
	t.Helper()
	c, err := honcho.New(url, key, timeout)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestSearchHits(t *testing.T) {
	fake := honchotest.New(t)
	fake.Key = "secret"
	at := time.Date(2026, 8, 12, 14, 3, 22, 123456000, time.UTC)
	fake.Messages = []map[string]any{
		honchotest.Message("m1", "alice", "We agreed to cap the Q3 budget at 40k.", at),
		honchotest.Message("m2", "bob", "Budget review moves to October.", at),
		honchotest.Message("m3", "carol", "Unrelated.", at),
	}
	c := newClient(t, fake.URL+"/", "secret", time.Second)
	msgs, err := c.Search(context.Background(), "team-a", "budget planning", 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 2 || msgs[0].PeerID != "alice" || msgs[1].ID != "m2" || !msgs[0].CreatedAt.Equal(at) ||
		msgs[0].WorkspaceID != "team-a" || msgs[0].TokenCount != 17 {
		t.Fatalf("messages %+v", msgs)
	}
	got := fake.Searches()
	if len(got) != 1 || got[0] != (honchotest.Request{Workspace: "team-a", Query: "budget planning", Limit: 2, Auth: "Bearer secret"}) {
		t.Fatalf("searches %+v", got)
	}
}

func TestSearchErrors(t *testing.T) {
	tests := []struct {
		name   string
		setup  func(*honchotest.Server)
		limit  int
		key    string
		status int
		detail string
	}{
		{"server error", func(f *honchotest.Server) { f.Status = 500 }, 5, "", 500, "An unexpected error occurred"},
		{"unauthorised", func(f *honchotest.Server) { f.Key = "k" }, 5, "wrong", 401, "No access token provided"},
		{"validation", func(*honchotest.Server) {}, 0, "", 422, "Input should be greater than or equal to 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := honchotest.New(t)
			tt.setup(fake)
			_, err := newClient(t, fake.URL, tt.key, time.Second).Search(context.Background(), "w", "q", tt.limit)
			var se *honcho.StatusError
			if !errors.As(err, &se) || se.Status != tt.status || se.Detail != tt.detail {
				t.Fatalf("err %v, want HTTP %d %q", err, tt.status, tt.detail)
			}
		})
	}
}

func TestSearchEmptyAndTimeout(t *testing.T) {
	fake := honchotest.New(t)
	msgs, err := newClient(t, fake.URL, "", time.Second).Search(context.Background(), "w", "nothing known", 5)
	if err != nil || msgs == nil || len(msgs) != 0 {
		t.Fatalf("empty search: %v %v", msgs, err)
	}
	slow := honchotest.New(t)
	slow.Delay = time.Minute // far past the client's timeout, however loaded the machine
	start := time.Now()
	_, err = newClient(t, slow.URL, "", 200*time.Millisecond).Search(context.Background(), "w", "q", 5)
	if err == nil || time.Since(start) > 20*time.Second {
		t.Fatalf("slow Honcho: err %v after %v", err, time.Since(start))
	}
}

func TestSearchRefusesWhatIsNotAnArray(t *testing.T) {
	for name, body := range map[string]string{
		"items envelope": `{"items": []}`,
		"truncated":      `[{"id": "m1"`,
	} {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Write([]byte(body))
			}))
			defer srv.Close()
			if _, err := newClient(t, srv.URL, "", time.Second).Search(context.Background(), "w", "q", 5); err == nil {
				t.Fatal("a malformed answer was accepted")
			}
		})
	}
}

func TestSearchNeverFollowsRedirects(t *testing.T) {
	fake := honchotest.New(t)
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, fake.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer redirect.Close()
	_, err := newClient(t, redirect.URL, "", time.Second).Search(context.Background(), "w", "q", 5)
	var se *honcho.StatusError
	if !errors.As(err, &se) || se.Status != http.StatusTemporaryRedirect || len(fake.Searches()) != 0 {
		t.Fatalf("redirect followed or misreported: %v", err)
	}
}

func TestNewRejectsBadURL(t *testing.T) {
	for _, u := range []string{"", "ftp://x", "honcho:8000"} {
		if _, err := honcho.New(u, "", time.Second); err == nil {
			t.Errorf("New(%q) accepted", u)
		}
	}
}
