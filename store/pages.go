package store

import (
	"context"
	"fmt"
)

// summaryColumns are a target's columns without its options and result:
// what a summary shows.
var summaryColumns = []string{"job_id", "idx", "url", "status", "result_bytes", "error", "hint"}

// PageQuery selects a page of a job's targets with their results.
type PageQuery struct {
	// From is the first index looked at.
	From int
	// Status keeps only targets in this status ("" for all).
	Status string
	// Skip passes over that many selected targets first.
	Skip int
	// Limit is the most targets returned (0: no bound but MaxBytes).
	Limit int
	// MaxBytes bounds the results returned: the page ends before the
	// target whose result would pass it, though the first target is
	// returned whatever its size.
	MaxBytes int64
}

// ResultsPage returns targets of job id with their results, selected by
// q, in index order; more reports whether selected targets remain after
// the page. The results outside the page are never read: the sizes are
// read first, then only the page's results.
func (s *Store) ResultsPage(ctx context.Context, id string, q PageQuery) (page []BatchTarget, more bool, err error) {
	db := s.db.WithContext(ctx)
	limit := q.Limit
	if limit <= 0 {
		limit = 1 << 30
	}
	var sizes []BatchTarget
	sel := db.Select("idx", "result_bytes").Where("job_id = ? AND idx >= ?", id, q.From)
	if q.Status != "" {
		sel = sel.Where("status = ?", q.Status)
	}
	if err := sel.Order("idx").Offset(q.Skip).Limit(limit + 1).Find(&sizes).Error; err != nil {
		return nil, false, fmt.Errorf("size batch targets: %w", err)
	}
	n := fit(sizes, min(limit, len(sizes)), q.MaxBytes)
	if n == 0 {
		return nil, false, nil
	}
	idxs := make([]int, n)
	for i := range idxs {
		idxs[i] = sizes[i].Idx
	}
	err = db.Omit("options").Where("job_id = ? AND idx IN ?", id, idxs).Order("idx").Find(&page).Error
	if err != nil {
		return nil, false, fmt.Errorf("read batch results: %w", err)
	}
	return page, len(sizes) > n, nil
}

// fit is how many of the first max targets fit maxBytes of results: at
// least one when there is one, so a reader paging on always moves on.
func fit(sizes []BatchTarget, max int, maxBytes int64) int {
	var total int64
	for i := range max {
		total += sizes[i].ResultBytes
		if i > 0 && maxBytes > 0 && total > maxBytes {
			return i
		}
	}
	return max
}

// Summary returns a job's targets in index order, only those in status
// when it is not "", without their options or results.
func (s *Store) Summary(ctx context.Context, id, status string) ([]BatchTarget, error) {
	q := s.db.WithContext(ctx).Select(summaryColumns).Where("job_id = ?", id)
	if status != "" {
		q = q.Where("status = ?", status)
	}
	var ts []BatchTarget
	if err := q.Order("idx").Find(&ts).Error; err != nil {
		return nil, fmt.Errorf("read batch targets: %w", err)
	}
	return ts, nil
}
