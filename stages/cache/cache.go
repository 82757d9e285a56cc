// Package cache is the checkpoint stage: it snapshots the Doc at its
// position so that later requests for the same thing resume from there
// (ARCHITECTURE.md, "The cache"). Placed after extract it caches clean
// content; placed last it caches whole answers.
package cache

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/zclconf/go-cty/cty"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/stages"
)

// Defaults for the cache block.
const (
	DefaultTTL      = 24 * time.Hour
	DefaultMaxTTL   = 168 * time.Hour
	DefaultMaxBytes = 256 << 20
	// DefaultMinFree leaves room on data_dir's disk for the batch store
	// (64 MiB by default) and the database's journal, twice over.
	DefaultMinFree = 128 << 20
)

type rawConfig struct {
	TTL             hcl.Expression `hcl:"ttl,optional" type:"duration" doc:"how long a snapshot lives when the response sets no lifetime (default \"24h\")"`
	MaxTTL          hcl.Expression `hcl:"max_ttl,optional" type:"duration" doc:"the longest a snapshot lives, whatever the response says (default \"168h\")"`
	MaxBytes        hcl.Expression `hcl:"max_bytes,optional" type:"size" doc:"the cache table at most; oldest entries go first (default \"256MiB\")"`
	RestrictedShare hcl.Expression `hcl:"restricted_share,optional" type:"number" doc:"the part of max_bytes (0 to 1) restricted callers' entries hold at most, the others' holding the rest; a fetch evicts only entries of its caller's class, so neither class can push the other's pages out; the smallest of the cache blocks' applies (default 0.25 when a caller is restricted, else 0)"`
	Memory          hcl.Expression `hcl:"memory,optional" type:"size" doc:"what one instance keeps in memory of the cache: the most recently used snapshots and what their hits derive from them; the largest of the cache blocks' applies (default a quarter of max_bytes, at most \"64MiB\")"`
	MinFree         hcl.Expression `hcl:"min_free,optional" type:"size" doc:"the free space the disk under data_dir keeps: below it the cache stores nothing (each answer says so in a warning, /healthz says degraded) while batch results are still written, so the cache never fills the disk; SQLite only (PostgreSQL's disk is its server's); the largest of the cache blocks' applies, \"0\" in every block that sets one turns it off (default \"128MiB\")"`
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
	// memory is the block's memory budget, or 0 when it sets none.
	memory int64
	// restrictedShare is the block's restricted_share, or -1 when it
	// sets none.
	restrictedShare float64
	// minFree is the block's min_free, or -1 when it sets none.
	minFree int64
	// position names where the stage stands: its index, the kinds
	// before it and the configuration's shape. It is part of every key,
	// so a chain reordered or edited on the same store never restores a
	// snapshot of another shape.
	position string
	// index is the stage's index in the chain, stored beside each entry
	// so that one stage's entries can be counted and cleared.
	index int
	log   *slog.Logger
	now   func() time.Time
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
	memory, ds := config.Size(raw.Memory, 0)
	diags = append(diags, ds...)
	share, ds := restrictedShare(raw.RestrictedShare)
	diags = append(diags, ds...)
	minFree, ds := minFreeSize(raw.MinFree)
	diags = append(diags, ds...)
	if !diags.HasErrors() && ttl > maxTTL {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "ttl above max_ttl",
			Detail: "the default ttl must not exceed max_ttl.", Subject: raw.TTL.Range().Ptr()})
	}
	var st stages.CacheStore
	if deps.Cache != nil {
		st = deps.Cache.At(len(deps.Before))
	}
	return &Stage{store: st, ttl: ttl, maxTTL: maxTTL, maxBytes: maxBytes, memory: memory, restrictedShare: share, minFree: minFree, now: time.Now,
		perQuestion:  slices.Contains(deps.Before, "digest"),
		perWorkspace: slices.Contains(deps.Before, "context"),
		index:        len(deps.Before),
		log:          deps.Logger,
		position:     strconv.Itoa(len(deps.Before)) + ":" + strings.Join(deps.Before, ",") + ":" + deps.Shape}, diags
}

// MaxBytes is the block's byte budget: the store evicts the oldest
// entries past it.
func (s *Stage) MaxBytes() int64 { return s.maxBytes }

// Memory is the block's memory budget for the cache, or 0 when the block
// leaves it to the default.
func (s *Stage) Memory() int64 { return s.memory }

// MinFree is the block's min_free, the free space data_dir's disk keeps
// below which the cache stores nothing, and whether it sets one.
func (s *Stage) MinFree() (int64, bool) { return s.minFree, s.minFree >= 0 }

// minFreeSize decodes min_free: a size, or 0 (none), or -1 when it is
// not set.
func minFreeSize(expr hcl.Expression) (int64, hcl.Diagnostics) {
	if expr == nil {
		return -1, nil
	}
	v, ds := expr.Value(nil)
	switch {
	case ds.HasErrors():
		return -1, ds
	case v.IsNull():
		return -1, nil
	case v.Type() == cty.Number && v.RawEquals(cty.Zero), v.Type() == cty.String && v.AsString() == "0":
		return 0, nil
	}
	return config.Size(expr, 0)
}

// RestrictedShare is the block's restricted_share, the part of the budget
// restricted callers' entries hold at most, and whether it sets one.
func (s *Stage) RestrictedShare() (float64, bool) { return s.restrictedShare, s.restrictedShare >= 0 }

// restrictedShare decodes restricted_share: a number from 0 to 1, or -1
// when it is not set.
func restrictedShare(expr hcl.Expression) (float64, hcl.Diagnostics) {
	if expr == nil {
		return -1, nil
	}
	if v, ds := expr.Value(nil); !ds.HasErrors() && v.IsNull() {
		return -1, nil
	}
	var share float64
	if ds := gohcl.DecodeExpression(expr, nil, &share); ds.HasErrors() {
		return -1, ds
	}
	if share < 0 || share > 1 {
		return -1, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid restricted_share",
			Detail:  fmt.Sprintf("restricted_share is a part of max_bytes, from 0 to 1 (0.25 for a quarter), not %g.", share),
			Subject: expr.Range().Ptr()}}
	}
	return share, nil
}

// keyVersion changes whenever the snapshot format or the key's parts do:
// entries under an older version are then never read, and age out.
const keyVersion = "v2"

// Tag names the keys this stage stores under: the key version and the
// stage's position (its index, the kinds before it and the configuration's
// shape). The store records it with each entry, so that entries no stage
// of this build and configuration reads can be found (store.RetireCache).
func (s *Stage) Tag() string { return keyVersion + ":" + s.position }

// Index is the stage's index in the chain.
func (s *Stage) Index() int { return s.index }

// SameBuild reports whether an entry's tag is of this build's keys, so
// that some configuration of this build may read it.
func SameBuild(tag string) bool { return strings.HasPrefix(tag, keyVersion+":") }

// key names what the snapshot depends on: the stage's position in the
// chain, the vetted URL, the request's extractor options, the caller's
// class (restricted callers have entries of their own, which no other
// class reads), after a digest the mode, the question and the caller's
// name (a digest answers one caller's question; no other caller is served
// it), and after a context stage the caller's workspace.
func (s *Stage) key(doc *stages.Doc) string {
	h := sha256.New()
	write := func(parts ...string) {
		for _, p := range parts {
			fmt.Fprintf(h, "%d:%s|", len(p), p)
		}
	}
	write(keyVersion, s.position, doc.Target.URL)
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

// Resume restores a fresh snapshot taken at this position. A snapshot
// that cannot be read is a miss: the request goes on to the origin and its
// answer replaces it. So is a read the store failed: the cache is an
// optimisation, and its failure costs the request the hit, never the
// answer (the answer says so in a warning).
func (s *Stage) Resume(ctx context.Context, doc *stages.Doc) (bool, error) {
	if s.store == nil || doc.Target == nil {
		return false, nil
	}
	restored, memo, ok, err := s.lookup(ctx, s.key(doc))
	if err != nil {
		s.skipped(doc, "read", err)
		return false, nil
	}
	if !ok {
		return false, nil
	}
	age := s.now().Sub(restored.origin)
	if !s.servable(restored.doc.Response, age) {
		return false, nil
	}
	if max := doc.Request.MaxAge; max != nil && age >= *max {
		return false, nil
	}
	if min := doc.Request.MinAge; min != nil && age < *min {
		return false, nil
	}
	// The restored parts may be shared with other hits through the memo:
	// each hit gets its own copy of the structs a reader may fill in.
	resp := *restored.doc.Response
	doc.Response = &resp
	if ex := restored.doc.Extraction; ex != nil {
		copied := *ex
		doc.Extraction = &copied
	}
	doc.Digest, doc.Context = restored.doc.Digest, restored.doc.Context
	doc.Warnings = append(doc.Warnings, restored.doc.Warnings...)
	doc.CachedAt = restored.origin
	doc.Memo = memo
	return true, nil
}

// servable reports whether a snapshot of resp this old is within what its
// status may be kept for: a snapshot an earlier build stored for longer
// (a 503 for the default ttl) is a miss, not an answer.
func (s *Stage) servable(resp *stages.Response, age time.Duration) bool {
	if resp == nil {
		return true
	}
	limit, _ := keepRule(resp.Status, s.ttl, s.maxTTL)
	return age < limit
}

// restoredSnapshot is a snapshot decoded, and when its content came from
// the origin.
type restoredSnapshot struct {
	doc    stages.Doc
	origin time.Time
}

// memoDoc is the memo name of a snapshot decoded.
const memoDoc = "cache.doc"

// lookup finds the fresh snapshot under key and decodes it, once per
// snapshot kept in memory. A snapshot that cannot be read is a miss.
func (s *Stage) lookup(ctx context.Context, key string) (*restoredSnapshot, stages.Memo, bool, error) {
	var (
		data    []byte
		takenAt time.Time
		memo    stages.Memo
		ok      bool
		err     error
	)
	if ms, isMemo := s.store.(stages.MemoStore); isMemo {
		data, takenAt, memo, ok, err = ms.GetMemo(ctx, key)
	} else {
		data, takenAt, ok, err = s.store.Get(ctx, key)
	}
	if err != nil || !ok {
		return nil, nil, false, err
	}
	if memo != nil {
		if v, found := memo.Load(memoDoc); found {
			return v.(*restoredSnapshot), memo, true, nil
		}
	}
	r := &restoredSnapshot{}
	origin, err := restore(&r.doc, data)
	if err != nil {
		if s.log != nil {
			s.log.Warn("cache snapshot unreadable; treated as a miss", "stage", s.index, "err", err)
		}
		return nil, nil, false, nil
	}
	if origin.IsZero() || origin.After(takenAt) {
		origin = takenAt
	}
	r.origin = origin
	if memo != nil {
		memo.Store(memoDoc, r, restoredSize(&r.doc, data))
	}
	return r, memo, true, nil
}

// restoredSize is the memory a Doc restored from data holds beyond data
// itself: the content, a copy, and the body, decompressed, unless it is a
// slice of a snapshot of the previous layout.
func restoredSize(doc *stages.Doc, data []byte) int64 {
	var size int64
	if doc.Extraction != nil {
		size = int64(len(doc.Extraction.Content))
	}
	if doc.Response != nil && !bytes.HasPrefix(data, magicV2) {
		size += int64(len(doc.Response.Body))
	}
	return size
}

// Run stores a snapshot of the Doc as it stands, for as long as the
// response allows. A Doc an earlier checkpoint restored is stored too, so
// that this checkpoint fills while the earlier one is warm; its snapshot
// keeps the content's age and expires no later than the earlier one's.
func (s *Stage) Run(ctx context.Context, doc *stages.Doc) error {
	if s.store == nil {
		return errors.New("no store configured for the cache")
	}
	if doc.Response == nil || doc.Target == nil || doc.Request.NoStore {
		return nil
	}
	now := s.now()
	origin := now
	switch at := doc.Response.FetchedAt; {
	case doc.Cached():
		origin = doc.CachedAt
	case !at.IsZero() && !at.After(now):
		origin = at // the snapshot is as old as the fetch, not the store
	}
	ttl := lifetime(doc.Response.Status, doc.Response.Header, s.ttl, s.maxTTL, origin)
	expires := origin.Add(ttl)
	if ttl <= 0 || !expires.After(now) {
		return nil
	}
	snap, err := snapshot(doc, origin)
	if err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	key := s.key(doc)
	if ss, ok := s.store.(stages.StaleStore); ok && validators(doc.Response) != nil {
		// Kept for max_ttl from its origin, for a 304 to renew it.
		err = ss.PutKept(ctx, key, snap, expires, origin.Add(s.maxTTL), doc.Request.Restricted)
	} else {
		err = s.store.Put(ctx, key, snap, expires, doc.Request.Restricted)
	}
	if err != nil {
		s.skipped(doc, "write", err) // the answer goes on without its snapshot
	}
	return nil
}

// validators are a response's ETag and Last-Modified, nil when it has
// neither (or is no 200: only a full answer is revalidated).
func validators(resp *stages.Response) *stages.Validators {
	if resp == nil || resp.Status != http.StatusOK {
		return nil
	}
	v := &stages.Validators{URL: resp.FinalURL, ETag: resp.Header.Get("ETag"), LastModified: resp.Header.Get("Last-Modified")}
	if v.ETag == "" && v.LastModified == "" {
		return nil
	}
	return v
}

// Stale finds this position's snapshot when it is kept past its
// freshness (or is older than the request's maxAge) and its response has
// validators.
func (s *Stage) Stale(ctx context.Context, doc *stages.Doc) (*stages.Stale, error) {
	ss, ok := s.store.(stages.StaleStore)
	if !ok || doc.Target == nil || doc.Request.CacheOnly {
		return nil, nil
	}
	data, takenAt, ok, err := ss.GetStale(ctx, s.key(doc))
	if err != nil {
		s.skipped(doc, "read", err) // a miss: the origin is asked in full
		return nil, nil
	}
	if !ok {
		return nil, nil
	}
	r := &restoredSnapshot{}
	origin, err := restore(&r.doc, data)
	if err != nil {
		return nil, nil // unreadable: a plain miss
	}
	if origin.IsZero() || origin.After(takenAt) {
		origin = takenAt
	}
	r.origin = origin
	v := validators(r.doc.Response)
	if v == nil {
		return nil, nil
	}
	return &stages.Stale{Validators: *v, Snapshot: r}, nil
}

// notUpdated are the headers a 304 does not replace in the stored
// response (RFC 9111, 3.2): they describe the body the 304 has not.
var notUpdated = map[string]bool{"Content-Length": true, "Content-Encoding": true, "Transfer-Encoding": true, "Content-Range": true}

// Renew restores the stale snapshot into doc, its headers updated by the
// 304's, as fetched now, and stores it again: it is fresh from now for as
// long as the updated headers allow.
func (s *Stage) Renew(ctx context.Context, doc *stages.Doc, stale *stages.Stale) error {
	r, ok := stale.Snapshot.(*restoredSnapshot)
	if !ok {
		return errors.New("not this stage's stale snapshot")
	}
	notModified := doc.Response
	resp := *r.doc.Response
	resp.Header = resp.Header.Clone()
	for k, vs := range notModified.Header {
		if !notUpdated[k] {
			resp.Header[k] = vs
		}
	}
	resp.FetchedAt = notModified.FetchedAt
	doc.Response = &resp
	if ex := r.doc.Extraction; ex != nil {
		copied := *ex
		doc.Extraction = &copied
	}
	doc.Digest, doc.Context = r.doc.Digest, r.doc.Context
	doc.Warnings = append(doc.Warnings, r.doc.Warnings...)
	doc.SetOutcome("revalidate", "not_modified")
	return s.Run(ctx, doc)
}

var _ stages.Revalidator = (*Stage)(nil)

// skipWarning is the warning of a cache read or write (op) the store
// skipped, with the store's words: "cache read skipped: storage
// unavailable (unreachable)".
func skipWarning(op, why string) string { return "cache " + op + " skipped: " + why }

// isSkipWarning reports whether w is a skipWarning.
func isSkipWarning(w string) bool {
	for _, op := range []string{"read", "write"} {
		if strings.HasPrefix(w, skipWarning(op, "")) {
			return true
		}
	}
	return false
}

// skipped warns on the answer of a cache read or write the store failed
// (disk full, read-only, unreachable, below min_free), once per kind of
// failure. An error of no fault of the store's (the request's context
// ended) passes without a word: the request is ending.
func (s *Stage) skipped(doc *stages.Doc, op string, err error) {
	var sf stages.StoreFault
	if !errors.As(err, &sf) {
		return
	}
	w := skipWarning(op, sf.Error())
	if !slices.Contains(doc.Warnings, w) {
		doc.Warnings = append(doc.Warnings, w)
	}
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
