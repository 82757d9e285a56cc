// Package testwait lets a test wait for a condition instead of sleeping a
// fixed time and hoping. The deadline is generous: on a loaded machine a
// condition that holds in milliseconds may take seconds, and a test that
// fails only then says nothing about the code under test.
package testwait

import (
	"testing"
	"time"
)

// Deadline is how long For waits before it fails the test.
const Deadline = time.Minute

// tick is the pause between two checks of the condition.
const tick = 5 * time.Millisecond

// For checks cond until it holds, and fails the test, naming what it
// waited for, if it does not within Deadline.
func For(t testing.TB, what string, cond func() bool) {
	t.Helper()
	if !Until(Deadline, cond) {
		t.Fatalf("waited %s for %s", Deadline, what)
	}
}

// Until checks cond until it holds or d has passed, and reports whether it
// held. For a test that must go on (or clean up) either way.
func Until(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(tick)
	}
	return true
}
