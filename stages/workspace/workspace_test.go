package workspace

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/siftd/sift/stages"
)

func TestKeyTerms(t *testing.T) {
	tests := []struct {
		name                   string
		title, digest, content string
		want                   []string
	}{
		{
			name:    "digest first, title words weigh more",
			title:   "Drip irrigation",
			digest:  "Drip irrigation saves water. Irrigation lines clog; flush the lines monthly and check emitters.",
			content: "ignored when there is a digest",
			want:    []string{"irrigation", "drip", "lines", "saves", "water", "clog"},
		},
		{
			name:    "title and headings without a digest",
			title:   "Postgres vacuum tuning",
			content: "# Postgres vacuum tuning\n\nIntro text that is not read.\n\n## Autovacuum thresholds\n\n## Freezing and wraparound\n",
			want:    []string{"postgres", "vacuum", "tuning", "autovacuum", "thresholds", "freezing"},
		},
		{
			name:    "the text stands in when headings are too few",
			title:   "Notes",
			content: "Kubernetes operators reconcile custom resources. Operators watch resources.",
			want:    []string{"notes", "operators", "resources", "kubernetes", "reconcile", "custom"},
		},
		{
			name:    "function words, short words and numbers never count",
			title:   "The and of 2026 it is",
			content: "a an the 42 of to in",
			want:    []string{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := keyTerms(tt.title, tt.digest, tt.content)
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("keyTerms = %q, want %q", got, tt.want)
			}
		})
	}
}

// sourceFunc is a ContextSource made of a function.
type sourceFunc func(ctx context.Context, workspace, query string) ([]stages.ContextHit, error)

func (f sourceFunc) Search(ctx context.Context, workspace, query string) ([]stages.ContextHit, error) {
	return f(ctx, workspace, query)
}

type timeoutError struct{}

func (timeoutError) Error() string   { return "i/o timeout" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }

type statusError int

func (e statusError) Error() string   { return fmt.Sprintf("HTTP %d", int(e)) }
func (e statusError) HTTPStatus() int { return int(e) }

func article() *stages.Doc {
	return &stages.Doc{
		Request:    stages.Request{Workspace: "team-b", Context: true},
		Extraction: &stages.Extraction{Title: "Drip irrigation", Content: "# Drip irrigation\n\n## Emitters\n\n## Filters\n"},
	}
}

func TestRun(t *testing.T) {
	long := strings.Repeat("word ", 400)
	at := time.Date(2026, 8, 12, 14, 3, 22, 0, time.UTC)
	tests := []struct {
		name     string
		source   stages.ContextSource
		off      bool
		wantHits int
		wantWarn string
	}{
		{name: "hits, each trimmed", source: sourceFunc(func(_ context.Context, ws, q string) ([]stages.ContextHit, error) {
			if ws != "team-b" || q != "drip irrigation emitters filters" {
				return nil, fmt.Errorf("searched %q for %q", ws, q)
			}
			return []stages.ContextHit{{Kind: "message", Peer: "alice", Content: long, CreatedAt: at}, {Kind: "message", Content: "short"}}, nil
		}), wantHits: 2},
		{name: "not asked", off: true, source: sourceFunc(func(context.Context, string, string) ([]stages.ContextHit, error) {
			return nil, errors.New("called without context: true")
		})},
		{name: "not configured", wantWarn: "context not configured"},
		{name: "timeout", wantWarn: "context unavailable: timeout", source: sourceFunc(func(context.Context, string, string) ([]stages.ContextHit, error) {
			return nil, fmt.Errorf("honcho: search: %w", timeoutError{})
		})},
		{name: "error status", wantWarn: "context unavailable: the context source answered an error", source: sourceFunc(func(context.Context, string, string) ([]stages.ContextHit, error) {
			return nil, fmt.Errorf("honcho: %w", statusError(500))
		})},
		{name: "unreachable", wantWarn: "context unavailable: the context source is unreachable", source: sourceFunc(func(context.Context, string, string) ([]stages.ContextHit, error) {
			return nil, errors.New("dial tcp 127.0.0.1:1: connection refused")
		})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := article()
			doc.Request.Context = !tt.off
			if err := (&Stage{source: tt.source}).Run(context.Background(), doc); err != nil {
				t.Fatalf("context failed the fetch: %v", err)
			}
			if len(doc.Context) != tt.wantHits {
				t.Fatalf("hits %+v, want %d", doc.Context, tt.wantHits)
			}
			var warns []string
			if tt.wantWarn != "" {
				warns = []string{tt.wantWarn}
			}
			if !reflect.DeepEqual(doc.Warnings, warns) {
				t.Fatalf("warnings %q, want %q", doc.Warnings, warns)
			}
			for _, h := range doc.Context {
				if len(h.Content) > MaxHitBytes {
					t.Fatalf("hit of %d bytes", len(h.Content))
				}
			}
			if tt.wantHits > 0 && (!strings.HasSuffix(doc.Context[0].Content, "…") || doc.Context[0].Peer != "alice" || !doc.Context[0].CreatedAt.Equal(at)) {
				t.Fatalf("first hit %+v", doc.Context[0])
			}
		})
	}
}
