package testwait

import (
	"sync/atomic"
	"testing"
	"time"
)

func TestUntil(t *testing.T) {
	var n atomic.Int32
	if !Until(time.Minute, func() bool { return n.Add(1) == 3 }) {
		t.Fatal("a condition that came to hold was reported as never holding")
	}
	if n.Load() != 3 {
		t.Fatalf("checked %d times, want 3: once it holds, stop", n.Load())
	}
	if Until(20*time.Millisecond, func() bool { return false }) {
		t.Fatal("a condition that never holds was reported as holding")
	}
}
