// Package service is sift's application layer over one configuration,
// beneath every front end: the gates that bound concurrent fetches, the
// run of a request through the chain under them, archive recovery, the
// native fetch and search with their answers, the batch runner's fetch
// function, and the errors as agents see them. The HTTP API (server)
// decodes requests, calls it and encodes its answers.
package service

import (
	"crypto/rand"
	"crypto/sha256"
	"log/slog"
	"runtime"
	"slices"
	"time"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/internal/schemacheck"
	"github.com/siftd/sift/metrics"
	"github.com/siftd/sift/search"
	"github.com/siftd/sift/stages"
	"github.com/siftd/sift/stages/fetch"
)

// Caller is an authenticated agent or team.
type Caller struct {
	Name string
	// Hash is the SHA-256 of the caller's key.
	Hash       []byte
	Workspace  string
	Restricted bool
	// Batch marks the caller's batch work (BatchFetch): plugin pools give
	// it a share of its own, so a batch never takes the caller's
	// interactive slot, and its log lines never carry a target's host.
	Batch bool
}

// Callers are the configured callers; a block without a well-formed key
// hash, which config refuses, is left out.
func Callers(cfg []config.Caller) []Caller {
	out := make([]Caller, 0, len(cfg))
	for _, c := range cfg {
		if len(c.KeyHash) != sha256.Size {
			continue // config validation refuses these
		}
		out = append(out, Caller{Name: c.Name, Hash: c.KeyHash, Workspace: c.Workspace, Restricted: c.Restricted})
	}
	return out
}

// Options configure a Service.
type Options struct {
	Chain *stages.Chain
	// Callers are the configured callers requests run as.
	Callers []config.Caller
	// Gates bound the fetches that go to the origin.
	Gates   *Gates
	Metrics *metrics.Metrics
	Logger  *slog.Logger
	// ArchiveURL is the Wayback Machine prefix for recovery; "" recovers
	// nothing.
	ArchiveURL string
	// Search's embedder, when it has one, reranks the parts max_tokens
	// keeps; nil keeps them by BM25 alone.
	Search *search.Service
	// Digester condenses the top results of a `/v1/search` with `digest:
	// true`; nil joins their clean text instead.
	Digester stages.Digester
	// GrepTimeout bounds the matching of one answer's grep; GrepTimeout
	// when 0.
	GrepTimeout time.Duration
}

// Service runs requests of one configuration through its chain.
type Service struct {
	chain   *stages.Chain
	callers []Caller
	gates   *Gates
	metrics *metrics.Metrics
	log     *slog.Logger
	cached  bool // the chain has a cache stage
	// contextStage says the chain has a context stage to answer
	// `context: true`.
	contextStage bool
	archive      string
	search       *search.Service
	digester     stages.Digester
	grepTimeout  time.Duration
	now          func() time.Time
	// validators check the json format's answers against their schemas,
	// one at once per core: a validation outlives its request (the
	// validator takes no context), so the slots also bound what
	// validations left running can hold.
	validators *schemacheck.Validators
	// instance tells this service's answers kept beside cache snapshots
	// from those of the services of other configurations.
	instance string
}

// New returns the service over opts' chain and gates.
func New(opts Options) *Service {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Metrics == nil {
		opts.Metrics = metrics.New()
	}
	if opts.GrepTimeout <= 0 {
		opts.GrepTimeout = GrepTimeout
	}
	names := opts.Chain.Names()
	return &Service{chain: opts.Chain, callers: Callers(opts.Callers), gates: opts.Gates, metrics: opts.Metrics, log: opts.Logger,
		cached: slices.Contains(names, "cache"), contextStage: slices.Contains(names, "context"),
		archive: opts.ArchiveURL, search: opts.Search, digester: opts.Digester, grepTimeout: opts.GrepTimeout, now: time.Now,
		instance: rand.Text(), validators: schemacheck.NewValidators(runtime.GOMAXPROCS(0))}
}

// Callers are the configured callers, for finding a request's by its key.
func (s *Service) Callers() []Caller { return s.callers }

// Stages are the chain's stage kinds, in order.
func (s *Service) Stages() []string { return s.chain.Names() }

// FetchTimeout is the fetch stage's deadline for one fetch, past which no
// request's own timeout lets a download run; 0 without a fetch stage.
func (s *Service) FetchTimeout() time.Duration {
	if st, ok := s.chain.Stage("fetch").(*fetch.Stage); ok {
		return st.Config().Timeout
	}
	return 0
}

// Gates are the gates the service's runs take.
func (s *Service) Gates() *Gates { return s.gates }
