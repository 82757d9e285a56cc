package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// PageSnapshot is the last content a change-tracking scrape saw of a page
// (Firecrawl's changeTracking format): one row per page and scope, which
// the next such scrape compares its content with and then replaces. It
// lives apart from the cache, which evicts and expires: a comparison must
// hold however long ago the last scrape was.
type PageSnapshot struct {
	// Key names the page and the scope it is tracked in (a hash the
	// caller makes of the URL, the caller's class and the tag).
	Key string `gorm:"column:page_key;primaryKey;size:64"`
	// Hash is the content address of the content.
	Hash string `gorm:"not null"`
	// Content is the page's markdown, kept to diff against; empty when
	// it was over MaxSnapshotContent (the hash still compares).
	Content string `gorm:"not null"`
	// Status is the origin's status code for the page.
	Status    int       `gorm:"not null"`
	ScrapedAt time.Time `gorm:"not null"`
}

// TableName keeps the table's name stable.
func (PageSnapshot) TableName() string { return "page_snapshots" }

// MaxSnapshotContent bounds the markdown a page snapshot keeps for a diff:
// a larger page keeps its hash only.
const MaxSnapshotContent = 512 << 10

// SwapPageSnapshot stores next under its key and returns the snapshot it
// replaced, nil for the first. Content over MaxSnapshotContent is not
// kept.
func (s *Store) SwapPageSnapshot(ctx context.Context, next PageSnapshot) (*PageSnapshot, error) {
	if len(next.Content) > MaxSnapshotContent {
		next.Content = ""
	}
	var prev *PageSnapshot
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var old PageSnapshot
		switch err := tx.Where("page_key = ?", next.Key).Take(&old).Error; {
		case err == nil:
			prev = &old
		case !errors.Is(err, gorm.ErrRecordNotFound):
			return fmt.Errorf("read page snapshot: %w", err)
		}
		if err := tx.Clauses(clause.OnConflict{UpdateAll: true}).Create(&next).Error; err != nil {
			return fmt.Errorf("store page snapshot: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return prev, nil
}
