package config

import (
	"fmt"
	"time"

	"github.com/hashicorp/hcl/v2"
)

// Batch configures asynchronous batch fetches (ARCHITECTURE.md, "Batch").
// Without a batch block, batch runs with these defaults.
type Batch struct {
	Disabled      bool
	TargetsPerJob int
	JobsPerCaller int
	JobsTotal     int
	Workers       int
	TTL           time.Duration
	// MaxBytes bounds the stored results of all callers, MaxCallerBytes
	// one caller's and MaxResultBytes one result's; a result that does
	// not fit fails its target too_large.
	MaxBytes       int64
	MaxCallerBytes int64
	MaxResultBytes int64
	// ClaimLease is how long a worker's claim on a target holds without
	// renewal; on a shared PostgreSQL, a dead instance's target is
	// retried elsewhere this long after it died.
	ClaimLease time.Duration
}

// Defaults of the batch block.
const (
	DefaultBatchTargetsPerJob = 32
	DefaultBatchJobsPerCaller = 1
	DefaultBatchJobsTotal     = 8
	DefaultBatchWorkers       = 1
	DefaultBatchTTL           = 24 * time.Hour
	DefaultBatchMaxBytes      = 64 << 20
	// MaxBatchResultBytes is the most max_result_bytes may be: one result
	// must fit in one page of a batch read.
	MaxBatchResultBytes    = 8 << 20
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
	b.TargetsPerJob, diags = optInt(rb.TargetsPerJob, DefaultBatchTargetsPerJob, 1, 1000, diags)
	b.JobsPerCaller, diags = optInt(rb.JobsPerCaller, DefaultBatchJobsPerCaller, 1, 100, diags)
	b.JobsTotal, diags = optInt(rb.JobsTotal, DefaultBatchJobsTotal, 1, 1000, diags)
	// At most two workers: the batch must never hold more than two of the
	// global fetch slots, so interactive requests always have room.
	b.Workers, diags = optInt(rb.Workers, DefaultBatchWorkers, 1, 2, diags)
	b.TTL, diags = optDuration(rb.TTL, DefaultBatchTTL, diags)
	b.MaxBytes, diags = optSize(rb.MaxBytes, DefaultBatchMaxBytes, diags)
	b.MaxCallerBytes, diags = optSize(rb.CallerBytes, b.MaxBytes/4, diags)
	b.MaxResultBytes, diags = optSize(rb.ResultBytes, min(MaxBatchResultBytes, b.MaxCallerBytes), diags)
	diags = b.checkBytes(rb, diags)
	b.ClaimLease, diags = optDuration(rb.ClaimLease, DefaultBatchClaimLease, diags)
	return b, diags
}

// checkBytes refuses byte bounds that cannot hold together: a result
// larger than a page, than a caller's share, or a share larger than all.
func (b *Batch) checkBytes(rb *rawBatch, diags hcl.Diagnostics) hcl.Diagnostics {
	switch {
	case b.MaxResultBytes > MaxBatchResultBytes:
		return append(diags, attrError(rb.ResultBytes.Range().Ptr(), "Invalid max_result_bytes",
			fmt.Sprintf("max_result_bytes is at most %d bytes (8MiB): one result must fit in one page of a batch read.", MaxBatchResultBytes)))
	case b.MaxResultBytes > b.MaxCallerBytes:
		return append(diags, attrError(rb.ResultBytes.Range().Ptr(), "Invalid max_result_bytes",
			"max_result_bytes must not exceed max_caller_bytes."))
	case b.MaxCallerBytes > b.MaxBytes:
		return append(diags, attrError(rb.CallerBytes.Range().Ptr(), "Invalid max_caller_bytes",
			"max_caller_bytes must not exceed max_bytes."))
	}
	return diags
}
