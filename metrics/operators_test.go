package metrics

import (
	"strings"
	"testing"
	"time"
)

// TestGuardRefusalsStartAtZero: every rule's series exists for every
// caller before the first refusal, so increase() counts the first one
// (an absent series' first sample is no increase); an unknown rule is
// folded into other.
func TestGuardRefusalsStartAtZero(t *testing.T) {
	m := New()
	m.SetCallers([]string{"agents", "ops"})
	text := scrape(t, m)
	if len(GuardRules) < 20 {
		t.Fatalf("GuardRules has %d rules", len(GuardRules))
	}
	for _, c := range []string{"agents", "ops"} {
		for _, r := range GuardRules {
			if want := `sift_guard_refusals_total{caller="` + c + `",rule="` + r + `"} 0`; !strings.Contains(text, want) {
				t.Errorf("/metrics lacks %s", want)
			}
		}
	}
	m.GuardRefusal("private address", "agents")
	m.GuardRefusal("made up at 10.0.0.5", "agents")
	text = scrape(t, m)
	for _, want := range []string{
		`sift_guard_refusals_total{caller="agents",rule="private address"} 1`,
		`sift_guard_refusals_total{caller="agents",rule="other"} 1`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

// TestRemovedCallerKeepsItsName: a request of a caller that a reload
// removed, still in flight on the old configuration, counts under its
// name, which /metrics promises; only a name never configured is other.
func TestRemovedCallerKeepsItsName(t *testing.T) {
	m := New()
	m.SetCallers([]string{"old", "kept"})
	m.SetCallers([]string{"kept", "new"}) // the reload
	m.Request("/v1/fetch", "old", 200, time.Millisecond)
	m.Tokens("old", 100, 10)
	m.Request("/v1/fetch", "never", 200, time.Millisecond)
	text := scrape(t, m)
	for _, want := range []string{
		`sift_http_requests_total{caller="old",route="/v1/fetch",status="200"} 1`,
		`sift_tokens_total{caller="old",kind="raw"} 100`,
		`sift_http_requests_total{caller="other",route="/v1/fetch",status="200"} 1`,
		`sift_http_requests_total{caller="new",route="/v1/fetch",status="200"} 0`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}
