package httpapi

import (
	"testing"
	"time"
)

// TestClientDuration: a count is compared with the limit before it is
// multiplied, so the largest counts come out at the limit, never wrapped.
func TestClientDuration(t *testing.T) {
	t.Parallel()
	const limit = 30 * time.Second
	tests := []struct {
		n    int64
		unit time.Duration
		want time.Duration
		over bool
	}{
		{0, time.Second, 0, false},
		{-1, time.Second, 0, false},
		{-1 << 62, time.Millisecond, 0, false},
		{1, time.Second, time.Second, false},
		{30, time.Second, limit, false},
		{31, time.Second, limit, true},
		{30_001, time.Millisecond, limit, true},
		{1 << 62, time.Millisecond, limit, true},
		{1 << 62, time.Second, limit, true},
		{1<<63 - 1, time.Nanosecond, limit, true},
	}
	for _, tc := range tests {
		if got, over := ClientDuration(tc.n, tc.unit, limit); got != tc.want || over != tc.over {
			t.Errorf("ClientDuration(%d, %s) = %s, %v; want %s, %v", tc.n, tc.unit, got, over, tc.want, tc.over)
		}
	}
}
