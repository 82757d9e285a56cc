package store

import (
	"context"
	"fmt"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// BatchUsage is a running total of the stored result bytes of one caller
// (Scope "caller:NAME") or of all ("all"), kept beside every write that
// stores or deletes results, so a budget check reads one row instead of
// summing a table.
type BatchUsage struct {
	Scope  string `gorm:"primaryKey"`
	NBytes int64  `gorm:"column:nbytes;not null"`
}

const allScope = "all"

func callerScope(caller string) string { return "caller:" + caller }

// Budget bounds the stored batch results: one result, one caller's, all
// callers'. A bound <= 0 is no bound.
type Budget struct {
	Result int64
	Caller int64
	Total  int64
}

// reserve counts n more bytes for the caller of job id, unless they pass
// a bound of b; then it counts nothing and returns the too_large message
// for the target. On a shared database the caller's row is locked before
// the total's, the order every usage write keeps.
func reserve(tx *gorm.DB, id string, n int64, b Budget) (refused string, err error) {
	if b.Result > 0 && n > b.Result {
		return fmt.Sprintf("too_large: the result is %s; a batch result may be at most %s (ask for fewer formats, or fetch it alone)",
			size(n), size(b.Result)), nil
	}
	var job BatchJob
	if err := tx.Select("caller").Where("id = ?", id).Take(&job).Error; err != nil {
		return "", fmt.Errorf("read batch job: %w", err)
	}
	ok, err := addWithin(tx, callerScope(job.Caller), n, b.Caller)
	if err != nil || !ok {
		return fmt.Sprintf("too_large: the result (%s) does not fit the caller's share of the batch store (%s); "+
			"it frees as the caller's finished jobs expire", size(n), size(b.Caller)), err
	}
	if ok, err = addWithin(tx, allScope, n, b.Total); err != nil || ok {
		return "", err
	}
	if err := addUsage(tx, callerScope(job.Caller), -n); err != nil {
		return "", err
	}
	return fmt.Sprintf("too_large: the result (%s) does not fit the batch store (%s in all); it frees as finished jobs expire",
		size(n), size(b.Total)), nil
}

// addWithin adds n to scope's total if it stays within limit (any total
// when limit <= 0), and reports whether it did.
func addWithin(tx *gorm.DB, scope string, n, limit int64) (bool, error) {
	if err := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&BatchUsage{Scope: scope}).Error; err != nil {
		return false, fmt.Errorf("batch usage: %w", err)
	}
	q := tx.Model(&BatchUsage{}).Where("scope = ?", scope)
	if limit > 0 {
		q = q.Where("nbytes + ? <= ?", n, limit)
	}
	res := q.Update("nbytes", gorm.Expr("nbytes + ?", n))
	if res.Error != nil {
		return false, fmt.Errorf("batch usage: %w", res.Error)
	}
	return res.RowsAffected == 1, nil
}

func addUsage(tx *gorm.DB, scope string, n int64) error {
	if n == 0 {
		return nil
	}
	_, err := addWithin(tx, scope, n, 0)
	return err
}

func usage(tx *gorm.DB, scope string) (int64, error) {
	var u BatchUsage
	err := tx.Where("scope = ?", scope).Limit(1).Find(&u).Error
	if err != nil {
		return 0, fmt.Errorf("batch usage: %w", err)
	}
	return u.NBytes, nil
}

// rebuildUsage recounts the running totals from the jobs, and the result
// sizes of targets stored before they were recorded: once, when the
// store opens. On PostgreSQL the usage table is locked first, so a finish
// running meanwhile is counted either in the sums or after them.
func (s *Store) rebuildUsage(tx *gorm.DB) error {
	if s.shared {
		if err := tx.Exec("LOCK TABLE batch_usages IN SHARE ROW EXCLUSIVE MODE").Error; err != nil {
			return fmt.Errorf("lock batch usage: %w", err)
		}
	}
	err := tx.Model(&BatchTarget{}).Where("result IS NOT NULL AND result_bytes = 0").
		Update("result_bytes", gorm.Expr("length(result)")).Error
	if err != nil {
		return fmt.Errorf("size stored batch results: %w", err)
	}
	var sums []struct {
		Caller string
		N      int64
	}
	if err := tx.Model(&BatchJob{}).Select("caller, SUM(nbytes) AS n").Group("caller").Scan(&sums).Error; err != nil {
		return fmt.Errorf("sum batch usage: %w", err)
	}
	if err := tx.Where("1 = 1").Delete(&BatchUsage{}).Error; err != nil {
		return fmt.Errorf("reset batch usage: %w", err)
	}
	rows := []BatchUsage{{Scope: allScope}}
	for _, s := range sums {
		rows[0].NBytes += s.N
		rows = append(rows, BatchUsage{Scope: callerScope(s.Caller), NBytes: s.N})
	}
	if err := tx.CreateInBatches(rows, 64).Error; err != nil {
		return fmt.Errorf("store batch usage: %w", err)
	}
	return nil
}

// size writes n bytes for people, in binary units.
func size(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// BatchBytes is the size of every stored result, from the running total.
func (s *Store) BatchBytes(ctx context.Context) (int64, error) {
	return usage(s.db.WithContext(ctx), allScope)
}

// CallerBytes is the size of caller's stored results, from the running
// total.
func (s *Store) CallerBytes(ctx context.Context, caller string) (int64, error) {
	return usage(s.db.WithContext(ctx), callerScope(caller))
}
