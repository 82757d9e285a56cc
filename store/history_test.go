package store

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestSwapPageSnapshot: the first swap of a key returns nothing, each
// later one the snapshot it replaces; keys are apart; content over the
// bound keeps its hash only.
func TestSwapPageSnapshot(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		s := open(t)
		ctx := context.Background()
		at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
		prev, err := s.SwapPageSnapshot(ctx, PageSnapshot{Key: "a", Hash: "h1", Content: "one", Status: 200, ScrapedAt: at})
		if err != nil || prev != nil {
			t.Fatalf("first swap: %+v, %v", prev, err)
		}
		prev, err = s.SwapPageSnapshot(ctx, PageSnapshot{Key: "a", Hash: "h2", Content: "two", Status: 200, ScrapedAt: at.Add(time.Hour)})
		if err != nil || prev == nil || prev.Hash != "h1" || prev.Content != "one" || !prev.ScrapedAt.Equal(at) {
			t.Fatalf("second swap: %+v, %v", prev, err)
		}
		if prev, err = s.SwapPageSnapshot(ctx, PageSnapshot{Key: "b", Hash: "h9", ScrapedAt: at}); err != nil || prev != nil {
			t.Fatalf("another key: %+v, %v", prev, err)
		}
		big := strings.Repeat("x", MaxSnapshotContent+1)
		if _, err = s.SwapPageSnapshot(ctx, PageSnapshot{Key: "a", Hash: "h3", Content: big, ScrapedAt: at}); err != nil {
			t.Fatal(err)
		}
		prev, err = s.SwapPageSnapshot(ctx, PageSnapshot{Key: "a", Hash: "h4", ScrapedAt: at})
		if err != nil || prev.Hash != "h3" || prev.Content != "" {
			t.Fatalf("over the bound: hash %q, %d bytes kept, %v", prev.Hash, len(prev.Content), err)
		}
	})
}
