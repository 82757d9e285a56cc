package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
)

// The store's building blocks, reachable by this package's tests alone:
// sift itself goes through SubmitJob and RecoverAfterRestart.

// CreateJob stores a job and its targets, all pending, without caps.
func (s *Store) CreateJob(ctx context.Context, job *BatchJob, targets []BatchTarget) error {
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		return createJob(tx, job, targets)
	})
}

// ReusableJob returns the caller's job for idemKey whose lease is newer
// than since and which is working or has results, if there is one.
func (s *Store) ReusableJob(ctx context.Context, caller, idemKey string, since time.Time) (*BatchJob, bool, error) {
	job, err := reusable(s.db.WithContext(ctx), caller, idemKey, since)
	switch {
	case errors.Is(err, gorm.ErrRecordNotFound):
		return nil, false, nil
	case err != nil:
		return nil, false, fmt.Errorf("find reusable batch job: %w", err)
	}
	return job, true, nil
}

// LiveCounts counts the live (queued or running) jobs of caller and of all
// callers.
func (s *Store) LiveCounts(ctx context.Context, caller string) (ofCaller, total int64, err error) {
	return liveJobs(s.db.WithContext(ctx), caller)
}

// FailJob ends a live job as failed with reason, and every unfinished
// target with it.
func (s *Store) FailJob(ctx context.Context, id, reason string) error {
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		return failJobs(tx, []string{id}, reason)
	})
}
