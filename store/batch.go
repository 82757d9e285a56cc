package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Job statuses: queued → running → done | partial | failed | cancelled.
const (
	JobQueued    = "queued"
	JobRunning   = "running"
	JobDone      = "done"
	JobPartial   = "partial"
	JobFailed    = "failed"
	JobCancelled = "cancelled"
)

// Target statuses: pending → running → done | failed.
const (
	TargetPending = "pending"
	TargetRunning = "running"
	TargetDone    = "done"
	TargetFailed  = "failed"
)

// liveStatuses are the statuses of a job that still has work to do.
var liveStatuses = []string{JobQueued, JobRunning}

// IsLive reports whether a job with status still has work to do (queued
// or running).
func IsLive(status string) bool { return status == JobQueued || status == JobRunning }

// reusableStatuses are those a resubmission may be answered with: a job
// that is working or has results. A failed or cancelled job never is.
var reusableStatuses = []string{JobQueued, JobRunning, JobDone, JobPartial}

// BatchJob is one submitted list of targets.
type BatchJob struct {
	ID     string `gorm:"primaryKey;size:32"`
	Caller string `gorm:"not null;index:idx_batch_job_caller_status"`
	// CallerKey identifies the caller's key; a job is its caller's by
	// Caller and CallerKey together. Empty on jobs stored before it
	// existed, until AdoptJobs gives them to their caller.
	CallerKey string `gorm:"not null;default:'';size:64"`
	// Policy fingerprints the guard policy of the instance that accepted
	// the job; only instances of the same policy run it.
	Policy      string `gorm:"not null;default:'';size:64"`
	CallerClass string `gorm:"not null"`
	// IdemKey is the SHA-256 of the caller and the canonical target list:
	// the list itself is never stored beside it.
	IdemKey      string    `gorm:"not null;size:64;index"`
	Status       string    `gorm:"not null;size:16;index:idx_batch_job_caller_status;index"`
	Error        string    `gorm:"not null"`
	TargetsTotal int       `gorm:"not null"`
	TargetsDone  int       `gorm:"not null"`
	CreatedAt    time.Time `gorm:"not null"`
	// Lease slides forward on submit, on every finished target and on
	// every read by the owner; the job is deleted TTL after it.
	Lease  time.Time `gorm:"not null;index"`
	NBytes int64     `gorm:"column:nbytes;not null"`
}

// BatchTarget is one target of a job. Result is the stored answer (JSON),
// nil until the target is done.
type BatchTarget struct {
	JobID   string `gorm:"primaryKey;size:32"`
	Idx     int    `gorm:"primaryKey;autoIncrement:false"`
	URL     string `gorm:"not null"`
	Options []byte `gorm:"not null"`
	Status  string `gorm:"not null;size:16"`
	Result  []byte
	// ResultBytes is len(Result), so reads can page by bytes without
	// loading results.
	ResultBytes int64  `gorm:"not null;default:0"`
	Error       string `gorm:"not null"`
	Hint        string `gorm:"not null"`
	// ClaimedBy names the worker running the target and ClaimUntil when
	// its claim lapses unless renewed; Attempts counts the claims. A
	// lapsed claim means the instance died: the target is tried once more
	// elsewhere, then failed as lost.
	ClaimedBy  string    `gorm:"not null;size:64"`
	ClaimUntil time.Time `gorm:"index"`
	Attempts   int       `gorm:"not null"`
}

// ErrJobNotFound is returned for a job that does not exist (or no longer).
var ErrJobNotFound = errors.New("batch job not found")

// ErrJobFinished is returned when cancelling a job that has finished.
var ErrJobFinished = errors.New("batch job already finished")

func createJob(tx *gorm.DB, job *BatchJob, targets []BatchTarget) error {
	job.TargetsTotal, job.TargetsDone, job.NBytes = len(targets), 0, 0
	if err := tx.Create(job).Error; err != nil {
		return fmt.Errorf("create batch job: %w", err)
	}
	for i := range targets {
		targets[i].JobID, targets[i].Idx, targets[i].Status = job.ID, i, TargetPending
	}
	if err := tx.CreateInBatches(targets, 64).Error; err != nil {
		return fmt.Errorf("create batch targets: %w", err)
	}
	return nil
}

// Caps bound the live (queued or running) jobs of one caller and of all.
type Caps struct {
	PerCaller int
	Total     int
}

// Errors of SubmitJob at its caps.
var (
	ErrCallerCap = errors.New("the caller is at its live batch job cap")
	ErrTotalCap  = errors.New("the live batch job cap is reached")
)

// SubmitJob stores a new job of targets, all pending, unless the caller
// has a reusable job for the same idempotency key (working or with
// results, lease newer than reuseSince), which it returns with its lease
// slid to job.Lease instead. The reuse check, the caps and the insert are
// one transaction; on a shared database an advisory lock serialises it
// across instances, so the caps hold however many instances take jobs.
func (s *Store) SubmitJob(ctx context.Context, job *BatchJob, targets []BatchTarget, reuseSince time.Time, caps Caps) (reused *BatchJob, err error) {
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if s.shared {
			if err := tx.Exec("SELECT pg_advisory_xact_lock(?)", submitLock).Error; err != nil {
				return fmt.Errorf("submit lock: %w", err)
			}
		}
		old, err := reusable(tx, job.Caller, job.IdemKey, reuseSince)
		switch {
		case err == nil:
			if err := tx.Model(&BatchJob{}).Where("id = ? AND lease < ?", old.ID, job.Lease).Update("lease", job.Lease).Error; err != nil {
				return fmt.Errorf("touch reused batch job: %w", err)
			}
			reused = old
			return nil
		case !errors.Is(err, gorm.ErrRecordNotFound):
			return fmt.Errorf("find reusable batch job: %w", err)
		}
		mine, all, err := liveJobs(tx, job.Caller)
		switch {
		case err != nil:
			return err
		case mine >= int64(caps.PerCaller):
			return ErrCallerCap
		case all >= int64(caps.Total):
			return ErrTotalCap
		}
		return createJob(tx, job, targets)
	})
	return reused, err
}

func reusable(tx *gorm.DB, caller, idemKey string, since time.Time) (*BatchJob, error) {
	var job BatchJob
	err := tx.Where("caller = ? AND idem_key = ? AND lease > ? AND status IN ?", caller, idemKey, since, reusableStatuses).
		Order("created_at DESC").Take(&job).Error
	if err != nil {
		return nil, err
	}
	return &job, nil
}

func liveJobs(tx *gorm.DB, caller string) (ofCaller, total int64, err error) {
	var rows []struct {
		Caller string
		N      int64
	}
	err = tx.Model(&BatchJob{}).Select("caller, COUNT(*) AS n").
		Where("status IN ?", liveStatuses).Group("caller").Scan(&rows).Error
	if err != nil {
		return 0, 0, fmt.Errorf("count live batch jobs: %w", err)
	}
	for _, r := range rows {
		total += r.N
		if r.Caller == caller {
			ofCaller = r.N
		}
	}
	return ofCaller, total, nil
}

// LiveJobs returns the live jobs, oldest first.
func (s *Store) LiveJobs(ctx context.Context) ([]BatchJob, error) {
	var jobs []BatchJob
	if err := s.db.WithContext(ctx).Where("status IN ?", liveStatuses).Order("created_at, id").Find(&jobs).Error; err != nil {
		return nil, fmt.Errorf("list live batch jobs: %w", err)
	}
	return jobs, nil
}

// Job returns a job. Reading never writes: the owner's read bumps the
// lease through Touch.
func (s *Store) Job(ctx context.Context, id string) (*BatchJob, error) {
	var job BatchJob
	err := s.db.WithContext(ctx).Where("id = ?", id).Take(&job).Error
	switch {
	case errors.Is(err, gorm.ErrRecordNotFound):
		return nil, ErrJobNotFound
	case err != nil:
		return nil, fmt.Errorf("read batch job: %w", err)
	}
	return &job, nil
}

// Targets returns a job's targets in index order, from offset, at most
// limit of them (all when limit <= 0), with their results only when asked.
func (s *Store) Targets(ctx context.Context, id string, withResults bool, offset, limit int) ([]BatchTarget, error) {
	q := s.db.WithContext(ctx).Where("job_id = ? AND idx >= ?", id, offset).Order("idx")
	if !withResults {
		q = q.Omit("result")
	}
	if limit > 0 {
		q = q.Limit(limit)
	}
	var ts []BatchTarget
	if err := q.Find(&ts).Error; err != nil {
		return nil, fmt.Errorf("read batch targets: %w", err)
	}
	return ts, nil
}

// Target returns one target with its result.
func (s *Store) Target(ctx context.Context, id string, idx int) (*BatchTarget, error) {
	var t BatchTarget
	err := s.db.WithContext(ctx).Where("job_id = ? AND idx = ?", id, idx).Take(&t).Error
	switch {
	case errors.Is(err, gorm.ErrRecordNotFound):
		return nil, ErrJobNotFound
	case err != nil:
		return nil, fmt.Errorf("read batch target: %w", err)
	}
	return &t, nil
}

// Touch slides a job's lease to now.
func (s *Store) Touch(ctx context.Context, id string, now time.Time) error {
	if err := s.db.WithContext(ctx).Model(&BatchJob{}).Where("id = ? AND lease < ?", id, now).
		Update("lease", now).Error; err != nil {
		return fmt.Errorf("touch batch job: %w", err)
	}
	return nil
}

// MaxAttempts is how often a target is claimed before a lapsed claim
// fails it as lost: once, and once more after its instance died.
const MaxAttempts = 2

// LostError is the error of a target whose instances died running it.
const LostError = "lost: the sift instance fetching it stopped, twice"

// Claim is a worker's hold on a target.
type Claim struct {
	Owner string    // the worker: instance and worker number
	Until time.Time // the claim lapses then unless renewed
	Now   time.Time
}

// ClaimState says what ClaimTarget found.
type ClaimState int

// What a claim attempt found.
const (
	// Claimed: the target is the caller's to run.
	Claimed ClaimState = iota
	// Elsewhere: another worker holds the job (it runs one target at a
	// time); try later.
	Elsewhere
	// Finished: the job has nothing left to run, or is no longer live.
	Finished
)

// ClaimTarget claims the job's first pending target for c.Owner until
// c.Until and returns it. Targets run one at a time: while another
// worker's claim on the job holds, the answer is Elsewhere. A claim that
// lapsed is given back (or, at MaxAttempts, failed as lost) first. On a
// shared database the job row is locked for the transaction (a wait of
// milliseconds: no transaction holds it longer), so two instances never
// claim targets of one job at once.
func (s *Store) ClaimTarget(ctx context.Context, id string, c Claim) (t *BatchTarget, state ClaimState, settled string, err error) {
	state = Finished
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		live, err := s.lockLiveJob(tx, id)
		if err != nil || !live {
			return err
		}
		var running BatchTarget
		err = tx.Omit("result").Where("job_id = ? AND status = ?", id, TargetRunning).Take(&running).Error
		switch {
		case err == nil && running.ClaimUntil.After(c.Now):
			state = Elsewhere
			return nil
		case err == nil:
			if settled, err = s.recoverLapsed(tx, &running, c.Now); err != nil || settled != "" {
				return err
			}
		case !errors.Is(err, gorm.ErrRecordNotFound):
			return fmt.Errorf("find running batch target: %w", err)
		}
		var next BatchTarget
		err = tx.Omit("result").Where("job_id = ? AND status = ?", id, TargetPending).Order("idx").Take(&next).Error
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("find pending batch target: %w", err)
		}
		claim := tx.Model(&BatchTarget{}).Where("job_id = ? AND idx = ? AND status = ?", id, next.Idx, TargetPending).
			Updates(map[string]any{"status": TargetRunning, "claimed_by": c.Owner, "claim_until": c.Until,
				"attempts": gorm.Expr("attempts + 1")})
		if claim.Error != nil {
			return fmt.Errorf("claim batch target: %w", claim.Error)
		}
		if claim.RowsAffected == 1 {
			next.Status, next.ClaimedBy, next.ClaimUntil, next.Attempts = TargetRunning, c.Owner, c.Until, next.Attempts+1
			t, state = &next, Claimed
		}
		return nil
	})
	return t, state, settled, err
}

// lockLiveJob marks a live job running, which holds its row lock for the
// rest of the transaction (on SQLite, the database's write lock); false
// when the job is not live. Every transaction that writes a job's targets
// locks the job row first, so they never deadlock.
func (s *Store) lockLiveJob(tx *gorm.DB, id string) (bool, error) {
	res := tx.Model(&BatchJob{}).Where("id = ? AND status IN ?", id, liveStatuses).Update("status", JobRunning)
	if res.Error != nil {
		return false, fmt.Errorf("start batch job: %w", res.Error)
	}
	return res.RowsAffected == 1, nil
}

// lockJob holds a job's row lock for the transaction, whatever its status.
func lockJob(tx *gorm.DB, id string) error {
	var job BatchJob
	err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Select("id").Where("id = ?", id).Take(&job).Error
	if err != nil && !errors.Is(err, gorm.ErrRecordNotFound) {
		return fmt.Errorf("lock batch job: %w", err)
	}
	return nil
}

// recoverLapsed gives a target whose claim lapsed back to pending, or fails
// it as lost when it has had its attempts, settling the job if that was
// its last target.
func (s *Store) recoverLapsed(tx *gorm.DB, t *BatchTarget, now time.Time) (settled string, err error) {
	if t.Attempts < MaxAttempts {
		err := tx.Model(&BatchTarget{}).Where("job_id = ? AND idx = ? AND status = ?", t.JobID, t.Idx, TargetRunning).
			Updates(map[string]any{"status": TargetPending, "claimed_by": ""}).Error
		if err != nil {
			return "", fmt.Errorf("recover lapsed batch target: %w", err)
		}
		return "", nil
	}
	_, settled, err = finishIn(tx, t.JobID, t.Idx, t.ClaimedBy, Outcome{Error: LostError}, now)
	return settled, err
}

// RenewClaim extends owner's claim on a running target; false when the
// claim is no longer owner's (it lapsed and was taken).
func (s *Store) RenewClaim(ctx context.Context, id string, idx int, owner string, until time.Time) (bool, error) {
	res := s.db.WithContext(ctx).Model(&BatchTarget{}).
		Where("job_id = ? AND idx = ? AND status = ? AND claimed_by = ?", id, idx, TargetRunning, owner).
		Update("claim_until", until)
	if res.Error != nil {
		return false, fmt.Errorf("renew batch claim: %w", res.Error)
	}
	return res.RowsAffected == 1, nil
}

// ReleaseTarget gives owner's running target back to pending, to be tried
// again; the attempt does not count.
func (s *Store) ReleaseTarget(ctx context.Context, id string, idx int, owner string) error {
	err := s.db.WithContext(ctx).Model(&BatchTarget{}).
		Where("job_id = ? AND idx = ? AND status = ? AND claimed_by = ?", id, idx, TargetRunning, owner).
		Updates(map[string]any{"status": TargetPending, "claimed_by": "", "attempts": gorm.Expr("attempts - 1")}).Error
	if err != nil {
		return fmt.Errorf("release batch target: %w", err)
	}
	return nil
}

// Outcome is how one target ended.
type Outcome struct {
	Result []byte // the answer, for a done target
	Error  string // for a failed target
	Hint   string
}

// Finish is what FinishTarget did.
type Finish struct {
	// Counted is false when the target was no longer owner's to finish
	// (finished already, or its claim was taken over): nothing changed.
	Counted bool
	// Settled names the job's final status when this was its last target.
	Settled string
	// TooLarge is set when the result did not fit the budget: the target
	// was failed with a too_large error instead of storing it.
	TooLarge bool
}

// errNotOwner rolls back a finish whose target is no longer the owner's.
var errNotOwner = errors.New("batch target no longer claimed by this worker")

// FinishTarget stores the outcome of a target owner is running and counts
// it on its job, exactly once: a second finish, or one by a worker whose
// claim was taken over, changes nothing. A result is stored only if it
// fits b (checked and counted in the same transaction); one that does not
// fails the target as too_large and nothing else is touched to make room.
// When it was the job's last target, the job takes its final status
// (done, partial or failed) unless it was cancelled.
func (s *Store) FinishTarget(ctx context.Context, id string, idx int, owner string, out Outcome, now time.Time, b Budget) (Finish, error) {
	var f Finish
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if s.shared {
			if err := lockJob(tx, id); err != nil {
				return err
			}
		}
		if len(out.Result) > 0 {
			msg, err := reserve(tx, id, int64(len(out.Result)), b)
			if err != nil {
				return err
			}
			if msg != "" {
				out, f.TooLarge = Outcome{Error: msg}, true
			}
		}
		counted, settled, err := finishIn(tx, id, idx, owner, out, now)
		if err == nil && !counted && len(out.Result) > 0 {
			return errNotOwner // undo the reservation
		}
		f.Counted, f.Settled = counted, settled
		return err
	})
	if errors.Is(err, errNotOwner) {
		return Finish{}, nil
	}
	return f, err
}

func finishIn(tx *gorm.DB, id string, idx int, owner string, out Outcome, now time.Time) (finished bool, settled string, err error) {
	status := TargetDone
	if out.Error != "" {
		status = TargetFailed
	}
	res := tx.Model(&BatchTarget{}).Where("job_id = ? AND idx = ? AND status = ? AND claimed_by = ?", id, idx, TargetRunning, owner).
		Updates(map[string]any{"status": status, "result": out.Result, "result_bytes": len(out.Result), "error": out.Error, "hint": out.Hint})
	if res.Error != nil {
		return false, "", fmt.Errorf("finish batch target: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return false, "", nil
	}
	err = tx.Model(&BatchJob{}).Where("id = ?", id).Updates(map[string]any{
		"targets_done": gorm.Expr("targets_done + 1"),
		"nbytes":       gorm.Expr("nbytes + ?", len(out.Result)),
		"lease":        gorm.Expr("CASE WHEN lease < ? THEN ? ELSE lease END", now, now),
	}).Error
	if err != nil {
		return false, "", fmt.Errorf("count batch target: %w", err)
	}
	settled, err = settle(tx, id)
	return true, settled, err
}

// settle gives a live job whose targets are all finished its final status
// and returns it; "" when the job goes on (or was cancelled).
func settle(tx *gorm.DB, id string) (string, error) {
	var job BatchJob
	if err := tx.Where("id = ?", id).Take(&job).Error; err != nil {
		return "", fmt.Errorf("read batch job: %w", err)
	}
	if job.TargetsDone < job.TargetsTotal {
		return "", nil
	}
	var failed int64
	if err := tx.Model(&BatchTarget{}).Where("job_id = ? AND status = ?", id, TargetFailed).Count(&failed).Error; err != nil {
		return "", fmt.Errorf("count failed batch targets: %w", err)
	}
	status := JobPartial
	switch failed {
	case 0:
		status = JobDone
	case int64(job.TargetsTotal):
		status = JobFailed
	}
	res := tx.Model(&BatchJob{}).Where("id = ? AND status IN ?", id, liveStatuses).Update("status", status)
	if res.Error != nil {
		return "", fmt.Errorf("settle batch job: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return "", nil
	}
	return status, nil
}

// CancelJob marks a live job cancelled. A finished job is left alone and
// ErrJobFinished returned. A target already running finishes and is stored.
func (s *Store) CancelJob(ctx context.Context, id string) error {
	res := s.db.WithContext(ctx).Model(&BatchJob{}).Where("id = ? AND status IN ?", id, liveStatuses).
		Update("status", JobCancelled)
	if res.Error != nil {
		return fmt.Errorf("cancel batch job: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		if _, err := s.Job(ctx, id); err != nil {
			return err
		}
		return ErrJobFinished
	}
	return nil
}

// Recovered is what RecoverAfterRestart did to the work a previous
// process left.
type Recovered struct {
	// Live is how many jobs were still live: their pending targets run.
	Live int
	// Failed lists the jobs whose running target was failed (one each:
	// a job runs one target at a time).
	Failed []string
	// Settled is, by job, the final status of each job that failed
	// target was the last of.
	Settled map[string]string
}

// RecoverAfterRestart takes over the work a previous process on this
// database left (SQLite: one process, so every claim is the dead one's).
// A target it was running may have half run, so it fails with reason and
// is counted on its job; a pending target stays pending, to run now; a job
// whose last target that was takes its final status (partial when it has
// done and failed targets). Finished results are untouched.
func (s *Store) RecoverAfterRestart(ctx context.Context, reason string) (Recovered, error) {
	rec := Recovered{Settled: map[string]string{}}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		rec = Recovered{Settled: map[string]string{}}
		var ids []string
		if err := tx.Model(&BatchJob{}).Where("status IN ?", liveStatuses).Order("id").Pluck("id", &ids).Error; err != nil {
			return fmt.Errorf("list live batch jobs: %w", err)
		}
		rec.Live = len(ids)
		if len(ids) == 0 {
			return nil
		}
		var running []BatchTarget
		if err := tx.Omit("result").Where("job_id IN ? AND status = ?", ids, TargetRunning).Order("job_id, idx").Find(&running).Error; err != nil {
			return fmt.Errorf("list running batch targets: %w", err)
		}
		for _, t := range running {
			res := tx.Model(&BatchTarget{}).Where("job_id = ? AND idx = ? AND status = ?", t.JobID, t.Idx, TargetRunning).
				Updates(map[string]any{"status": TargetFailed, "error": reason, "claimed_by": ""})
			if res.Error != nil {
				return fmt.Errorf("fail running batch target: %w", res.Error)
			}
			if res.RowsAffected == 0 {
				continue
			}
			if err := tx.Model(&BatchJob{}).Where("id = ?", t.JobID).Update("targets_done", gorm.Expr("targets_done + 1")).Error; err != nil {
				return fmt.Errorf("count batch target: %w", err)
			}
			rec.Failed = append(rec.Failed, t.JobID)
			settled, err := settle(tx, t.JobID)
			if err != nil {
				return err
			}
			if settled != "" {
				rec.Settled[t.JobID] = settled
				rec.Live--
			}
		}
		return nil
	})
	return rec, err
}

// FailJobs fails those of ids that are live, with their unfinished
// targets, with reason.
func (s *Store) FailJobs(ctx context.Context, ids []string, reason string) error {
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		return failJobs(tx, ids, reason)
	})
}

// failJobs fails those of ids that are live, with their unfinished targets.
func failJobs(tx *gorm.DB, ids []string, reason string) error {
	if len(ids) == 0 {
		return nil
	}
	var live []string
	if err := tx.Model(&BatchJob{}).Where("id IN ? AND status IN ?", ids, liveStatuses).Pluck("id", &live).Error; err != nil {
		return fmt.Errorf("select live batch jobs: %w", err)
	}
	if len(live) == 0 {
		return nil
	}
	ids = live
	res := tx.Model(&BatchJob{}).Where("id IN ? AND status IN ?", ids, liveStatuses).
		Updates(map[string]any{"status": JobFailed, "error": reason})
	if res.Error != nil {
		return fmt.Errorf("fail batch jobs: %w", res.Error)
	}
	err := tx.Model(&BatchTarget{}).Where("job_id IN ? AND status IN ?", ids, []string{TargetPending, TargetRunning}).
		Updates(map[string]any{"status": TargetFailed, "error": reason}).Error
	if err != nil {
		return fmt.Errorf("fail batch targets: %w", err)
	}
	return nil
}

// SweepJobs deletes every job whose lease is older than before, with its
// targets. Then, while the stored results pass budget bytes (which only a
// lowered budget leaves, since results are stored only if they fit), it
// evicts whole finished jobs whose lease is older than graceBefore, oldest
// lease first. A live job, or one read or finished within the grace, is
// never evicted for bytes. It returns the number of jobs deleted.
func (s *Store) SweepJobs(ctx context.Context, before, graceBefore time.Time, budget int64) (int, error) {
	deleted := 0
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var expired []string
		if err := tx.Model(&BatchJob{}).Where("lease < ?", before).Pluck("id", &expired).Error; err != nil {
			return fmt.Errorf("list expired batch jobs: %w", err)
		}
		if err := deleteJobs(tx, expired); err != nil {
			return err
		}
		deleted = len(expired)
		total, err := usage(tx, allScope)
		if err != nil {
			return err
		}
		for total > budget {
			var oldest BatchJob
			err := tx.Where("status NOT IN ? AND lease < ?", liveStatuses, graceBefore).Order("lease, id").Take(&oldest).Error
			if errors.Is(err, gorm.ErrRecordNotFound) {
				return nil // what remains is live or within its grace
			}
			if err != nil {
				return fmt.Errorf("find batch job to evict: %w", err)
			}
			if err := deleteJobs(tx, []string{oldest.ID}); err != nil {
				return err
			}
			total -= oldest.NBytes
			deleted++
		}
		return nil
	})
	return deleted, err
}

func deleteJobs(tx *gorm.DB, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	var freed []struct {
		Caller string
		N      int64
	}
	err := tx.Model(&BatchJob{}).Select("caller, SUM(nbytes) AS n").Where("id IN ?", ids).
		Group("caller").Order("caller").Scan(&freed).Error
	if err != nil {
		return fmt.Errorf("size batch jobs: %w", err)
	}
	// Jobs before their targets: the lock order of every batch write.
	if err := tx.Where("id IN ?", ids).Delete(&BatchJob{}).Error; err != nil {
		return fmt.Errorf("delete batch jobs: %w", err)
	}
	if err := tx.Where("job_id IN ?", ids).Delete(&BatchTarget{}).Error; err != nil {
		return fmt.Errorf("delete batch targets: %w", err)
	}
	var total int64
	for _, f := range freed {
		if err := addUsage(tx, callerScope(f.Caller), -f.N); err != nil {
			return err
		}
		total += f.N
	}
	return addUsage(tx, allScope, -total)
}

// AdoptJobs gives the jobs of caller stored without a caller key (before
// jobs carried one) to key, and returns how many it took. The first
// instance to start with such a caller takes them.
func (s *Store) AdoptJobs(ctx context.Context, caller, key string) (int64, error) {
	res := s.db.WithContext(ctx).Model(&BatchJob{}).Where("caller = ? AND caller_key = ?", caller, "").Update("caller_key", key)
	if res.Error != nil {
		return 0, fmt.Errorf("adopt batch jobs: %w", res.Error)
	}
	return res.RowsAffected, nil
}
