// Package batch runs asynchronous batch fetches (ARCHITECTURE.md, "Batch"):
// an agent submits a list of targets, walks away, and collects the results
// later.
//
// A job drains serially, one target at a time in index order; one or two
// workers share a round-robin over the live jobs, so a batch holds at most
// that many of the global fetch slots and interactive requests always have
// room. The store keeps jobs and results; the runner keeps in memory only
// what cannot outlive the process (the caller a job runs as, busy-retry
// timers, long-poll watchers). Work a previous process left is failed on
// start-up, never resumed.
package batch

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/errclass"
)

// Target is one URL of a job with its per-target options, opaque to the
// runner: the fetch function reads them.
type Target struct {
	URL     string          `json:"url"`
	Options json.RawMessage `json:"options,omitempty"`
}

// Caller is who submitted a job. The runner keeps it with the job and
// hands it to every fetch, so the caller's gates, pool slots, cache class
// and redaction apply to batch targets as to its own requests. Only Name,
// Key and Class are stored.
type Caller struct {
	Name string
	// Key identifies the caller's key (KeyID of its key_sha256). A job is
	// its caller's by name and key together: a caller renamed or given
	// another key, or one of the same name on another instance sharing
	// the database, owns none of another's jobs.
	Key string
	// Class partitions caches and decides redaction: "restricted" or
	// "open".
	Class string
}

// FetchFunc fetches one target for caller and returns the answer to store
// (JSON). A failure is a *TargetError; an error wrapping ErrRetryLater
// leaves the target pending, to be tried again.
type FetchFunc func(ctx context.Context, caller Caller, t Target) ([]byte, error)

// TargetError is a target's failure as stored and shown to the agent.
type TargetError struct {
	Message string // "blocked: private address 10.0.0.5"
	Hint    string
	// Outcome is the metrics label: its class's Outcome in errclass's
	// table (other for a failure of no class).
	Outcome string
}

func (e *TargetError) Error() string { return e.Message }

// busyRetryAfter is the Retry-After, in seconds, of a batch refused for
// its caps: jobs take minutes, so a client polling every second only adds
// load.
const busyRetryAfter = 30

// Errors of Submit and the readers, each of its class in errclass's table.
var (
	// ErrRetryLater, wrapped by a fetch error, means busy: try again.
	ErrRetryLater = errclass.New(errclass.Busy, "busy: retry later")
	// ErrNoTargets refuses an empty job (400).
	ErrNoTargets = errclass.New(errclass.Invalid, "a batch needs at least one target")
	// ErrTooManyTargets refuses a job over the per-job cap (422).
	ErrTooManyTargets = &errclass.Error{Class: errclass.Invalid, Msg: "too many targets", Status: 422}
	// ErrCallerBusy refuses a caller at its live-job cap (429).
	ErrCallerBusy = &errclass.Error{Class: errclass.Busy, Msg: "busy: the caller already has a live batch job", RetryAfter: busyRetryAfter}
	// ErrBusy refuses any caller while the total live-job cap is reached (429).
	ErrBusy = &errclass.Error{Class: errclass.Busy, Msg: "busy: too many live batch jobs", RetryAfter: busyRetryAfter}
	// ErrBadID refuses an id longer than a job id can be (400), before
	// anything is looked up or kept for it.
	ErrBadID = errclass.New(errclass.Invalid, fmt.Sprintf("a batch job id is at most %d characters", IDLen))
	// ErrNotFound is a job that does not exist or is another caller's (404).
	ErrNotFound = errclass.New(errclass.NotFound, "no such batch job")
	// ErrFinished refuses to cancel a finished job (409).
	ErrFinished = errclass.New(errclass.Conflict, "the batch job has already finished")
	// ErrAlreadyCancelled refuses to cancel a job cancelled before (409).
	ErrAlreadyCancelled = errclass.New(errclass.Conflict, "the batch job was already cancelled")
)

// Limits are a batch's caps and lifetimes: the batch block's, whose
// defaults (config.DefaultBatchLimits) fill the zero fields.
type Limits = config.BatchLimits

// EvictGrace is how long after its last activity a finished job is kept
// even when the stored results pass MaxBytes (as after MaxBytes is
// lowered): only older finished jobs are evicted, oldest first.
const EvictGrace = time.Hour

// Timing of the runner.
const (
	// DefaultRetryEvery is the pause before a busy target is tried again.
	DefaultRetryEvery = 2 * time.Second
	// DefaultRetryFor is how long a target may stay busy before it fails.
	DefaultRetryFor = 10 * time.Minute
	// DefaultTargetTimeout is the deadline of one target, as of a
	// /v1/fetch request.
	DefaultTargetTimeout = 210 * time.Second
	// DefaultSweepEvery is how often expired and over-budget jobs go.
	DefaultSweepEvery = 10 * time.Minute
	// DefaultClaimLease is how long a claim holds without renewal.
	DefaultClaimLease = config.DefaultBatchClaimLease
	// DefaultPollEvery is how often a shared store is looked at for other
	// instances' jobs and changes.
	DefaultPollEvery = time.Second
)

// Hooks receive the runner's events, for metrics. Outcomes are raw class
// names; the receiver folds unknown ones.
type Hooks interface {
	// Job counts a job event: created, reused, done, partial, failed,
	// cancelled, restart.
	Job(outcome string)
	// JobFinished observes a finished job's life from submit to end.
	JobFinished(took time.Duration)
	// Target counts a finished target with its class, duration and the
	// size of its stored answer.
	Target(outcome string, took time.Duration, resultBytes int)
	// Load reports the live jobs and the targets being fetched now.
	Load(liveJobs, inFlight int)
}

// NopHooks ignores every event.
type NopHooks struct{}

// Job implements Hooks.
func (NopHooks) Job(string) {}

// JobFinished implements Hooks.
func (NopHooks) JobFinished(time.Duration) {}

// Target implements Hooks.
func (NopHooks) Target(string, time.Duration, int) {}

// Load implements Hooks.
func (NopHooks) Load(int, int) {}

// IdemKey is the idempotency key of a submission: the SHA-256 of the
// caller and the canonical target list. Two submissions by one caller of
// the same targets in the same order, with the same options, share it.
func IdemKey(caller string, targets []Target) string {
	h := sha256.New()
	h.Write([]byte(caller))
	h.Write([]byte{0})
	canonical, _ := json.Marshal(targets) // URLs and raw options: cannot fail
	h.Write(canonical)
	return hex.EncodeToString(h.Sum(nil))
}

// KeyID identifies a caller by the SHA-256 of its key (the configured
// key_sha256): a hash of that hash, so the database holds nothing that
// could be matched against the configuration's hashes.
func KeyID(keySHA256 []byte) string {
	h := sha256.New()
	h.Write([]byte("sift batch caller\x00"))
	h.Write(keySHA256)
	return hex.EncodeToString(h.Sum(nil))
}

// IDLen is the length of a job id: 32 hex digits.
const IDLen = 32

// newJobID returns a random, opaque job id of IDLen hex digits.
func newJobID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("job id: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}
