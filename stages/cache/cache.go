// Package cache is the checkpoint stage: it snapshots the Doc at its
// position so that later requests for the same thing resume from there
// (ARCHITECTURE.md, "The cache"). Placed after extract it caches clean
// content; placed last it caches whole answers.
package cache

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/stages"
)

// Defaults for the cache block.
const (
	DefaultTTL      = 24 * time.Hour
	DefaultMaxTTL   = 168 * time.Hour
	DefaultMaxBytes = 256 << 20
)

type rawConfig struct {
	TTL      hcl.Expression `hcl:"ttl,optional" type:"duration" doc:"how long a snapshot lives when the response sets no lifetime (default \"24h\")"`
	MaxTTL   hcl.Expression `hcl:"max_ttl,optional" type:"duration" doc:"the longest a snapshot lives, whatever the response says (default \"168h\")"`
	MaxBytes hcl.Expression `hcl:"max_bytes,optional" type:"size" doc:"the cache table at most; oldest entries go first (default \"256MiB\")"`
}

// Stage stores and restores snapshots.
type Stage struct {
	store  stages.CacheStore
	ttl    time.Duration
	maxTTL time.Duration
	// perQuestion is set when a digest stands before the cache: the
	// snapshot then depends on the question and the mode.
	perQuestion bool
	// perWorkspace is set when a context stage stands before the cache:
	// the hits depend on the caller's workspace.
	perWorkspace bool
	// maxBytes is the block's byte budget, which the store applies.
	maxBytes int64
	now      func() time.Time
}

// Kind registers the cache stage, the one kind that may repeat. It stands
// after fetch: before it there is nothing to keep.
func Kind() stages.Kind {
	return stages.Kind{Name: "cache", Config: rawConfig{}, After: []string{"fetch"}, Repeatable: true, New: New}
}

// New decodes and validates the cache block.
func New(body hcl.Body, deps stages.Deps) (stages.Stage, hcl.Diagnostics) {
	var raw rawConfig
	diags := gohcl.DecodeBody(body, nil, &raw)
	if diags.HasErrors() {
		return nil, diags
	}
	ttl, ds := config.Duration(raw.TTL, DefaultTTL)
	diags = append(diags, ds...)
	maxTTL, ds := config.Duration(raw.MaxTTL, DefaultMaxTTL)
	diags = append(diags, ds...)
	maxBytes, ds := config.Size(raw.MaxBytes, DefaultMaxBytes)
	diags = append(diags, ds...)
	if !diags.HasErrors() && ttl > maxTTL {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "ttl above max_ttl",
			Detail: "the default ttl must not exceed max_ttl.", Subject: raw.TTL.Range().Ptr()})
	}
	return &Stage{store: deps.Cache, ttl: ttl, maxTTL: maxTTL, maxBytes: maxBytes, now: time.Now,
		perQuestion:  slices.Contains(deps.Before, "digest"),
		perWorkspace: slices.Contains(deps.Before, "context")}, diags
}

// MaxBytes is the block's byte budget: the store evicts the oldest
// entries past it.
func (s *Stage) MaxBytes() int64 { return s.maxBytes }

// key names what the snapshot depends on: the vetted URL, the request's
// extractor options and mode, the caller's class (restricted callers have
// entries of their own, which no other class reads), and, after a digest,
// the question and the caller.
func (s *Stage) key(doc *stages.Doc) string {
	h := sha256.New()
	write := func(parts ...string) {
		for _, p := range parts {
			fmt.Fprintf(h, "%d:%s|", len(p), p)
		}
	}
	write("v1", doc.Target.URL)
	opts := make([]string, 0, len(doc.Request.Options))
	for k, v := range doc.Request.Options {
		opts = append(opts, k+"="+v)
	}
	sort.Strings(opts)
	write(strings.Join(opts, "&"))
	if doc.Request.Restricted {
		write("class", "restricted")
	}
	if s.perQuestion {
		write(doc.Request.Mode, doc.Request.Question, doc.Request.Caller)
	}
	if s.perWorkspace && doc.Request.Context {
		write("context", doc.Request.Workspace)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Resume restores a fresh snapshot taken at this position.
func (s *Stage) Resume(ctx context.Context, doc *stages.Doc) (bool, error) {
	if s.store == nil || doc.Target == nil {
		return false, nil
	}
	snap, takenAt, ok, err := s.store.Get(ctx, s.key(doc))
	if err != nil {
		return false, &stages.StorageError{Err: err}
	}
	if !ok {
		return false, nil
	}
	if max := doc.Request.MaxAge; max != nil && s.now().Sub(takenAt) >= *max {
		return false, nil
	}
	if err := restore(doc, snap); err != nil {
		return false, fmt.Errorf("restore snapshot: %w", err)
	}
	doc.CachedAt = takenAt
	return true, nil
}

// Run stores a snapshot of the Doc as it stands, for as long as the
// response allows.
func (s *Stage) Run(ctx context.Context, doc *stages.Doc) error {
	if s.store == nil {
		return errors.New("no store configured for the cache")
	}
	if doc.Response == nil || doc.Target == nil || doc.Cached() || doc.Request.NoStore {
		return nil
	}
	ttl := lifetime(doc.Response.Header, s.ttl, s.maxTTL, s.now())
	if ttl <= 0 {
		return nil
	}
	snap, err := snapshot(doc)
	if err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	if err := s.store.Put(ctx, s.key(doc), snap, s.now().Add(ttl)); err != nil {
		return &stages.StorageError{Err: err}
	}
	return nil
}

var _ stages.Checkpoint = (*Stage)(nil)

// FlightKey is the key a snapshot for doc is stored under: identical
// requests that miss together share the first one's pass to the origin.
func (s *Stage) FlightKey(doc *stages.Doc) string {
	if s.store == nil || doc.Target == nil {
		return ""
	}
	return s.key(doc)
}

var _ stages.Shared = (*Stage)(nil)
