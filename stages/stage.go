// Package stages defines the chain a request flows through: the Stage
// contract, the Doc that flows, the registry of stage kinds, and the runner.
//
// The lifecycle of a stage:
//
//  1. At start-up the chain builder finds the stage's Kind by the label of
//     its `stage "KIND" {}` block and calls Kind.New with the block's body.
//     New decodes and validates the body, reports every problem at once as
//     HCL diagnostics, and does no I/O.
//  2. The builder checks the chain rules (order, repetition, content_types)
//     across all stages.
//  3. For each request the runner calls Run on each stage in order, through
//     a wrapper that times it, applies its content_types filter and prefixes
//     its errors with its name.
//  4. At shutdown the runner calls Close on the stages that implement Closer.
//
// Stages are shared by concurrent requests: Run must be safe for concurrent
// use and keep per-request state in the Doc.
package stages

import (
	"context"
	"log/slog"
	"net"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/siftd/sift/errclass"
	"github.com/siftd/sift/plugins/sdk"
)

// Stage processes a Doc.
type Stage interface {
	// Run does the stage's work on doc. An error stops the chain.
	Run(ctx context.Context, doc *Doc) error
}

// Closer is implemented by stages that hold resources.
type Closer interface {
	// Close releases the stage's resources. It must work on a stage that
	// never ran.
	Close(ctx context.Context) error
}

// Checkpoint is implemented by a stage that snapshots the Doc (cache). Its
// Run stores a snapshot; Resume restores one.
type Checkpoint interface {
	Stage
	// Resume replaces doc's contents with a fresh snapshot taken at this
	// stage's position and reports whether it found one.
	Resume(ctx context.Context, doc *Doc) (bool, error)
}

// Revalidator is a checkpoint that keeps snapshots past their freshness
// and has the origin confirm one instead of sending it whole again: its
// stored validators go out as a conditional request (Doc.Revalidate), and
// a 304 renews the snapshot without the stages between fetch and the
// checkpoint running again.
type Revalidator interface {
	Checkpoint
	// Stale returns the snapshot at this position that is no longer
	// fresh, or nil when there is none or its response has no validator.
	Stale(ctx context.Context, doc *Doc) (*Stale, error)
	// Renew restores stale into doc, whose Response is the origin's 304
	// (its headers update the stored ones), and stores it again, fresh
	// from now.
	Renew(ctx context.Context, doc *Doc, stale *Stale) error
}

// Stale is a snapshot that is no longer fresh, and what revalidates it.
type Stale struct {
	Validators Validators
	// Snapshot is the checkpoint's own form of it.
	Snapshot any
}

// Validators are a stored response's validators, sent back to the origin
// when fetch requests URL again: If-None-Match with the ETag,
// If-Modified-Since with Last-Modified.
type Validators struct {
	URL          string
	ETag         string
	LastModified string
}

// StaleStore is a CacheStore that keeps entries past their freshness,
// for a Revalidator.
type StaleStore interface {
	CacheStore
	// GetStale returns the snapshot under key, fresh or not, while it is
	// kept, and when it was taken.
	GetStale(ctx context.Context, key string) (snapshot []byte, takenAt time.Time, ok bool, err error)
	// PutKept is Put of an entry kept until keepUntil, past expires.
	PutKept(ctx context.Context, key string, snapshot []byte, expires, keepUntil time.Time, restricted bool) error
}

// Kind describes a built-in stage kind.
type Kind struct {
	// Name is the label operators write: stage "NAME" {}.
	Name string
	// After lists kinds that must come earlier in the chain when this kind
	// is present.
	After []string
	// AfterIfPresent lists kinds that must come earlier when both are in
	// the chain, but that this kind does not need.
	AfterIfPresent []string
	// AlwaysRun stages run even when a checkpoint lets the runner skip the
	// stages around them (guard: a cached answer is still refused for a
	// blocked URL).
	AlwaysRun bool
	// Repeatable kinds may appear more than once.
	Repeatable bool
	// Config is the stage block's gohcl struct, whose doc and type tags
	// make the configuration reference (docs/config.md).
	Config any
	// New decodes and validates the stage's block and builds the stage. It
	// must not do I/O.
	New func(body hcl.Body, deps Deps) (Stage, hcl.Diagnostics)
}

// Deps are the shared services a stage may use.
type Deps struct {
	Logger     *slog.Logger
	Extractors ExtractorRouter
	// Digesters finds digester plugins by name; nil when none is
	// configured.
	Digesters DigesterSet
	// Guard vets every URL fetch requests, redirect hops included, and
	// dials only the addresses it vetted: the chain builder sets it to the
	// guard stage for the stages after it.
	Guard URLGuard
	// Resolver resolves the names the guard vets; the system's when nil.
	Resolver *net.Resolver
	// UserAgent is sent on every fetch: "sift/<version>".
	UserAgent string
	// Cache gives each cache stage its own view of the snapshot store;
	// nil when no store is configured.
	Cache CacheViews
	// Context searches what the agent's team already knows; nil when no
	// context block is configured.
	Context ContextSource
	// Before lists the kinds that stand before the stage being built, in
	// order; the chain builder sets it for each stage.
	Before []string
	// Shape fingerprints the configuration the chain's output depends on
	// (every stage block and plugin block as written): cache keys carry
	// it, so an edited chain never restores a snapshot made by another.
	Shape string
}

// CacheStore keeps snapshots by key.
type CacheStore interface {
	// Get returns the snapshot under key and when it was taken, if it is
	// still fresh.
	Get(ctx context.Context, key string) (snapshot []byte, takenAt time.Time, ok bool, err error)
	// Put stores a snapshot until expires, for a caller of class
	// restricted: each class's entries keep to its share of the budget,
	// and a put evicts only entries of its own class.
	Put(ctx context.Context, key string, snapshot []byte, expires time.Time, restricted bool) error
}

// StoreFault is a CacheStore's error that says why the store failed: the
// fault's name ("disk_full", "read_only", "unreachable", "min_free",
// "other"). Its text names nothing of the database. A read that fails is a
// miss, a write that fails is skipped: the answer carries a warning, never
// the failure.
type StoreFault interface {
	error
	StoreFault() string
}

// CacheViews hands each cache stage its view of the snapshot store.
type CacheViews interface {
	// At returns the store as the cache stage at index stage of the chain
	// uses it: its entries are counted and cleared apart.
	At(stage int) CacheStore
}

// Memo is a place beside one snapshot a CacheStore keeps in memory for
// what readers derive from it (the decoded snapshot, an encoded answer),
// so each is made once however often the snapshot is read. It lives as
// long as the snapshot does in memory: when the snapshot is replaced,
// expires, is evicted or the cache is cleared, its memo goes with it.
type Memo interface {
	// Load returns the value stored under name; it is shared by every
	// reader and must not be changed.
	Load(name string) (any, bool)
	// Store keeps value, which holds about size bytes of memory, under
	// name; the store may decline it.
	Store(name string, value any, size int64)
}

// MemoStore is a CacheStore that keeps snapshots in memory, each with a
// Memo.
type MemoStore interface {
	CacheStore
	// GetMemo is Get, with the snapshot's memo (nil when it has none).
	GetMemo(ctx context.Context, key string) (snapshot []byte, takenAt time.Time, memo Memo, ok bool, err error)
}

// ContextSource finds what a workspace already knows about a query.
type ContextSource interface {
	// Search returns the hits for query in workspace, most relevant first.
	Search(ctx context.Context, workspace, query string) ([]ContextHit, error)
}

// URLGuard is the guard as the fetch stage uses it.
type URLGuard interface {
	// Vet checks a URL fully (form, port, host, every resolved address)
	// and returns it canonical with the addresses that may be dialled.
	Vet(ctx context.Context, rawURL string) (*Target, error)
	// Dial connects to one of the target's vetted addresses.
	Dial(ctx context.Context, t *Target) (net.Conn, error)
}

// ExtractorRouter finds the extractor for a media type.
type ExtractorRouter interface {
	// Route returns the name of the plugin that handles mediaType, and the
	// plugin, or ok=false when none does.
	Route(mediaType string) (name string, ex Extractor, ok bool)
}

// DocumentRouter is what an ExtractorRouter may also do: route one
// document by its content as well as its media type, for extractors that
// claim documents of generic types (text/xml, application/octet-stream)
// by sniffing them or by their container; docURL (the document's URL or
// file name) breaks a tie between container rules by its extension.
type DocumentRouter interface {
	RouteDocument(mediaType, docURL string, body []byte) (name string, ex Extractor, ok bool)
}

// OptionChecker is what an ExtractorRouter may also do: check a request's
// options against the ones an extractor declares. The error is a
// *sdk.DocError of class bad_option naming every option that does not fit.
type OptionChecker interface {
	CheckOptions(extractor string, opts map[string]string) error
}

// OptionDeclarer is what an ExtractorRouter may also do: say whether an
// extractor declares a per-request option, so that a request field no
// extractor of this document takes (jq on a web page) is named to the
// caller rather than ignored.
type OptionDeclarer interface {
	Declares(extractor, option string) bool
}

// DigesterSet finds a digester by the name of its block.
type DigesterSet interface {
	Digester(name string) (Digester, bool)
}

// Digester is the call the digest stage makes; plugin pools implement it.
type Digester interface {
	Digest(ctx context.Context, req *sdk.DigestRequest) (*sdk.DigestResult, error)
}

// Extractor is the call the extract stage makes; plugin pools implement it.
type Extractor interface {
	Extract(ctx context.Context, req *sdk.ExtractRequest) (*sdk.ExtractResult, error)
}

// SharedExtractor is an Extractor whose slots are shared out among callers
// (the plugin host's admission step for costly documents), so each call
// names whose share it uses: Request.Share.
type SharedExtractor interface {
	Extractor
	ExtractFor(ctx context.Context, share string, req *sdk.ExtractRequest) (*sdk.ExtractResult, error)
}

// ExtractFor runs req on ex in share's name when ex shares its slots out,
// else plainly.
func ExtractFor(ctx context.Context, ex Extractor, share string, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	if se, ok := ex.(SharedExtractor); ok {
		return se.ExtractFor(ctx, share, req)
	}
	return ex.Extract(ctx, req)
}

// Failures of the chain every stage may report, each of its class in
// errclass's table.
var (
	// ErrUnsupportedType means no extractor handles the document's type.
	ErrUnsupportedType = errclass.New(errclass.Unsupported, "unsupported content type")
	// ErrBusy means a bounded resource (a plugin pool's slots, the caller's
	// share of them) is full: retry later.
	ErrBusy = errclass.New(errclass.Busy, "busy")
	// ErrNotCached is a cache-only request (Request.CacheOnly) that no
	// snapshot answers: the origin was not contacted.
	ErrNotCached = errclass.New(errclass.NotFound, "no cached copy of this page, and the request reads the cache only")
)
