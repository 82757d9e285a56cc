package stages

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// TestFlightWait: a follower meets the leader's failure when it would meet
// it too, and tries on its own after the leader's cancellation or busy
// gate; its own context ends its wait.
func TestFlightWait(t *testing.T) {
	upstream := stageError("fetch", errors.New("upstream: 502"))
	tests := []struct {
		name string
		led  error
		want error
	}{
		{"leader stored", nil, nil},
		{"leader's stage failed", upstream, upstream},
		{"leader was busy", stageError("extract", fmt.Errorf("%w: all slots taken", ErrBusy)), nil},
		{"leader was cancelled", stageError("fetch", context.Canceled), nil},
		{"leader ran out of time", stageError("fetch", context.DeadlineExceeded), nil},
	}
	for _, tc := range tests {
		var fs flights
		f, lead := fs.join("k")
		if _, again := fs.join("k"); !lead || again {
			t.Fatalf("%s: first join leads %v, second leads %v", tc.name, lead, again)
		}
		fs.land("k", f, tc.led)
		if err := f.wait(context.Background()); !errors.Is(err, tc.want) || (tc.want == nil && err != nil) {
			t.Errorf("%s: follower got %v, want %v", tc.name, err, tc.want)
		}
		if _, lead := fs.join("k"); !lead {
			t.Errorf("%s: a landed flight is still joined", tc.name)
		}
	}
	var fs flights
	f, _ := fs.join("k")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := f.wait(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled follower got %v", err)
	}
}
