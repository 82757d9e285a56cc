package config

import (
	"fmt"
	"time"

	"github.com/hashicorp/hcl/v2"
)

// Batch configures asynchronous batch fetches (ARCHITECTURE.md, "Batch").
// Without a batch block, batch runs with DefaultBatchLimits.
type Batch struct {
	Disabled bool
	BatchLimits
	// ClaimLease is how long a worker's claim on a target holds without
	// renewal; on a shared PostgreSQL, a dead instance's target is
	// retried elsewhere this long after it died.
	ClaimLease time.Duration
}

// BatchLimits are a batch's caps and lifetimes, as the batch block sets
// them; the batch runner enforces them as they are.
type BatchLimits struct {
	TargetsPerJob int
	JobsPerCaller int
	JobsTotal     int
	Workers       int
	// TTL is how long a job outlives its last lease bump.
	TTL time.Duration
	// MaxBytes bounds the stored results of all callers, CallerBytes one
	// caller's and ResultBytes one result's. A result is stored only if it
	// fits all three; else its target fails too_large. Nothing is evicted
	// to make room.
	MaxBytes    int64
	CallerBytes int64
	ResultBytes int64
}

// DefaultBatchLimits is the one table of the batch block's defaults.
// CallerBytes and ResultBytes are derived (WithDefaults): a quarter of
// MaxBytes, and the lesser of MaxBatchResultBytes and CallerBytes.
func DefaultBatchLimits() BatchLimits {
	return BatchLimits{
		TargetsPerJob: 32,
		JobsPerCaller: 1,
		JobsTotal:     8,
		Workers:       1,
		TTL:           24 * time.Hour,
		MaxBytes:      64 << 20,
	}
}

// WithDefaults fills every zero field from DefaultBatchLimits, deriving
// the byte shares from MaxBytes.
func (l BatchLimits) WithDefaults() BatchLimits {
	d := DefaultBatchLimits()
	l.TargetsPerJob = or(l.TargetsPerJob, d.TargetsPerJob)
	l.JobsPerCaller = or(l.JobsPerCaller, d.JobsPerCaller)
	l.JobsTotal = or(l.JobsTotal, d.JobsTotal)
	l.Workers = or(l.Workers, d.Workers)
	l.TTL = or(l.TTL, d.TTL)
	l.MaxBytes = or(l.MaxBytes, d.MaxBytes)
	l.CallerBytes = or(l.CallerBytes, l.MaxBytes/4)
	l.ResultBytes = or(l.ResultBytes, min(MaxBatchResultBytes, l.CallerBytes))
	return l
}

func or[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

const (
	// MaxBatchResultBytes is the most max_result_bytes may be: one result
	// must fit in one page of a batch read.
	MaxBatchResultBytes = 8 << 20
	// DefaultBatchClaimLease is claim_lease's default.
	DefaultBatchClaimLease = 30 * time.Second
)

type rawBatch struct {
	Disabled      *bool          `hcl:"disabled,optional" type:"bool" doc:"turn the batch API off: its routes answer 503 (default false)"`
	TargetsPerJob hcl.Expression `hcl:"targets_per_job,optional" type:"number" doc:"URLs in one job at most (1–1000, default 32)"`
	JobsPerCaller hcl.Expression `hcl:"jobs_per_caller,optional" type:"number" doc:"live (queued or running) jobs of one caller at most (1–100, default 1)"`
	JobsTotal     hcl.Expression `hcl:"jobs_total,optional" type:"number" doc:"live jobs of all callers at most (1–1000, default 8)"`
	Workers       hcl.Expression `hcl:"workers,optional" type:"number" doc:"targets fetched at once by this instance (1–2, default 1)"`
	TTL           hcl.Expression `hcl:"ttl,optional" type:"duration" doc:"how long a job is kept after its last activity (default \"24h\")"`
	MaxBytes      hcl.Expression `hcl:"max_bytes,optional" type:"size" doc:"stored results of all callers at most (default \"64MiB\")"`
	CallerBytes   hcl.Expression `hcl:"max_caller_bytes,optional" type:"size" doc:"stored results of one caller at most (default \"16MiB\"); a result that does not fit fails too_large"`
	ResultBytes   hcl.Expression `hcl:"max_result_bytes,optional" type:"size" doc:"one stored result at most (at most and default \"8MiB\")"`
	ClaimLease    hcl.Expression `hcl:"claim_lease,optional" type:"duration" doc:"how long a worker's claim on a target holds without renewal (default \"30s\"); on a shared PostgreSQL a dead instance's target is retried elsewhere after it"`
}

func (r *rawFile) batch(diags hcl.Diagnostics) (Batch, hcl.Diagnostics) {
	rb := r.Batch
	if rb == nil {
		rb = &rawBatch{}
	}
	b := Batch{Disabled: rb.Disabled != nil && *rb.Disabled}
	d := DefaultBatchLimits()
	b.TargetsPerJob, diags = optInt(rb.TargetsPerJob, d.TargetsPerJob, 1, 1000, diags)
	b.JobsPerCaller, diags = optInt(rb.JobsPerCaller, d.JobsPerCaller, 1, 100, diags)
	b.JobsTotal, diags = optInt(rb.JobsTotal, d.JobsTotal, 1, 1000, diags)
	// At most two workers: the batch must never hold more than two of the
	// global fetch slots, so interactive requests always have room.
	b.Workers, diags = optInt(rb.Workers, d.Workers, 1, 2, diags)
	b.TTL, diags = optDuration(rb.TTL, d.TTL, diags)
	b.MaxBytes, diags = optSize(rb.MaxBytes, d.MaxBytes, diags)
	b.CallerBytes, diags = optSize(rb.CallerBytes, b.MaxBytes/4, diags)
	b.ResultBytes, diags = optSize(rb.ResultBytes, min(MaxBatchResultBytes, b.CallerBytes), diags)
	diags = b.checkBytes(rb, diags)
	b.ClaimLease, diags = optDuration(rb.ClaimLease, DefaultBatchClaimLease, diags)
	return b, diags
}

// checkBytes refuses byte bounds that cannot hold together: a result
// larger than a page, than a caller's share, or a share larger than all.
func (b *Batch) checkBytes(rb *rawBatch, diags hcl.Diagnostics) hcl.Diagnostics {
	switch {
	case b.ResultBytes > MaxBatchResultBytes:
		return append(diags, attrError(rb.ResultBytes.Range().Ptr(), "Invalid max_result_bytes",
			fmt.Sprintf("max_result_bytes is at most %d bytes (8MiB): one result must fit in one page of a batch read.", MaxBatchResultBytes)))
	case b.ResultBytes > b.CallerBytes:
		return append(diags, attrError(rb.ResultBytes.Range().Ptr(), "Invalid max_result_bytes",
			"max_result_bytes must not exceed max_caller_bytes."))
	case b.CallerBytes > b.MaxBytes:
		return append(diags, attrError(rb.CallerBytes.Range().Ptr(), "Invalid max_caller_bytes",
			"max_caller_bytes must not exceed max_bytes."))
	}
	return diags
}
