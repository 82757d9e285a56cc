package service

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/internal/testkit/testwait"
)

// TestGatesFIFO: waiters are admitted in the order they arrived, a waiter
// whose context ends leaves the line, and a released slot goes to the
// head of the line, never to a newcomer.
func TestGatesFIFO(t *testing.T) {
	t.Parallel()
	g := NewGates(config.Gates{Wait: time.Minute, Queue: 8}, GateSizes{}, nil)
	ctx := context.Background()
	release, busy := g.Acquire(ctx, "a", "h", true)
	if busy != nil {
		t.Fatal(busy)
	}
	var mu sync.Mutex
	var order []int
	var wg sync.WaitGroup
	gone, cancel := context.WithCancel(ctx)
	for i := range 4 {
		c := ctx
		if i == 1 {
			c = gone
		}
		wg.Go(func() {
			rel, busy := g.Acquire(c, "a", "h", true)
			if busy != nil {
				if i != 1 {
					t.Errorf("waiter %d refused: %v", i, busy.Message)
				}
				return
			}
			mu.Lock()
			order = append(order, i)
			mu.Unlock()
			rel()
		})
		// Each waiter is in line before the next arrives.
		testwait.Until(testwait.Deadline, func() bool { return g.Waiting("a", "h") == i+1 })
	}
	cancel()
	testwait.Until(testwait.Deadline, func() bool { return g.Waiting("a", "h") == 3 })
	if _, busy := g.Acquire(ctx, "b", "h", false); busy != nil {
		t.Errorf("another caller's gate is not this one: %v", busy.Message)
	}
	release()
	wg.Wait()
	if fmt.Sprint(order) != "[0 2 3]" {
		t.Errorf("admitted in order %v, want [0 2 3]", order)
	}
	if _, busy := g.Acquire(ctx, "a", "h", false); busy != nil {
		t.Errorf("the gate is not free after the line drained: %v", busy.Message)
	}
}

// TestGateSendsAwayPastTheRequestsDeadline: once a hold has been
// measured, a request whose own deadline ends before its predicted turn is
// refused at once, not when its deadline passes.
func TestGateSendsAwayPastTheRequestsDeadline(t *testing.T) {
	t.Parallel()
	g := NewGates(config.Gates{Wait: time.Minute, Queue: 8}, GateSizes{}, nil)
	ctx := context.Background()
	first, busy := g.Acquire(ctx, "a", "h", true)
	if busy != nil {
		t.Fatal(busy)
	}
	second := make(chan func(), 1)
	go func() {
		rel, busy := g.Acquire(ctx, "a", "h", true)
		if busy != nil {
			t.Error(busy)
		}
		second <- rel
	}()
	testwait.Until(testwait.Deadline, func() bool { return g.Waiting("a", "h") == 1 })
	time.Sleep(300 * time.Millisecond) // the hold the gate learns
	first()
	release := <-second
	defer release()
	short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	_, busy = g.Acquire(short, "a", "h", true)
	if busy == nil || short.Err() != nil || busy.RetryAfter < 1 || !strings.Contains(busy.Message, "would take about") {
		t.Fatalf("refused %v, deadline passed: %v", busy, short.Err())
	}
}
