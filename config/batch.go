package config

import (
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
	MaxBytes      int64
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
	DefaultBatchClaimLease    = 30 * time.Second
)

type rawBatch struct {
	Disabled      *bool          `hcl:"disabled,optional"`
	TargetsPerJob hcl.Expression `hcl:"targets_per_job,optional"`
	JobsPerCaller hcl.Expression `hcl:"jobs_per_caller,optional"`
	JobsTotal     hcl.Expression `hcl:"jobs_total,optional"`
	Workers       hcl.Expression `hcl:"workers,optional"`
	TTL           hcl.Expression `hcl:"ttl,optional"`
	MaxBytes      hcl.Expression `hcl:"max_bytes,optional"`
	ClaimLease    hcl.Expression `hcl:"claim_lease,optional"`
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
	b.ClaimLease, diags = optDuration(rb.ClaimLease, DefaultBatchClaimLease, diags)
	return b, diags
}
