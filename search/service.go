package search

import (
	"context"
	"net"
	"net/http"
	"time"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/errclass"
	"github.com/siftd/sift/guard"
)

// ErrNotConfigured means the configuration has no search backend.
var ErrNotConfigured = errclass.New(errclass.NotConfigured, "not_configured: no search backend is configured (see the search block in config.hcl)")

// Observer is told of each backend call and each rerank, for metrics.
type Observer interface {
	SearchBackend(backend, outcome string, took time.Duration)
	SearchRerank(took time.Duration)
}

// Service is search as the API offers it: the configured backends, merged,
// and reranked when an embedder is configured.
type Service struct {
	searcher *Searcher
	embedder *Embedder
	obs      Observer
}

// backendsObserver is an Observer that starts each backend's series at
// zero before its first call.
type backendsObserver interface {
	SearchBackends(names []string)
}

// New builds the service a search block describes; nil when cfg is nil or
// names no backend.
func New(cfg *config.Search, obs Observer) *Service {
	if cfg == nil || cfg.SearXNG == nil && cfg.Brave == nil {
		return nil
	}
	p := guard.DefaultPolicy()
	p.AllowHosts, p.AllowCIDRs = cfg.AllowHosts, cfg.AllowCIDRs
	p.AllowPorts = append(p.AllowPorts, cfg.AllowPorts...)
	client := newClient(p, cfg.Timeout)
	s := &Service{searcher: &Searcher{Deadline: cfg.Timeout}, obs: obs}
	if cfg.SearXNG != nil {
		s.searcher.Backends = append(s.searcher.Backends, observed{&SearXNG{BaseURL: cfg.SearXNG.URL, Client: client}, obs})
	}
	if cfg.Brave != nil {
		s.searcher.Backends = append(s.searcher.Backends, observed{&Brave{BaseURL: cfg.Brave.URL, Key: cfg.Brave.Key, Client: client}, obs})
	}
	if z, ok := obs.(backendsObserver); ok {
		names := make([]string, len(s.searcher.Backends))
		for i, b := range s.searcher.Backends {
			names[i] = b.Name()
		}
		z.SearchBackends(names)
	}
	if cfg.Embed != nil {
		s.embedder = &Embedder{Endpoint: cfg.Embed.Endpoint, Model: cfg.Embed.Model, InputCap: cfg.Embed.InputCap,
			Client: newClient(p, cfg.Embed.Timeout)}
	}
	return s
}

// newClient returns the HTTP client backends use: every request is vetted
// by the guard under p and dialled only to the vetted addresses, so a
// backend on loopback (a local SearXNG) needs p to allow it on purpose.
func newClient(p *guard.Policy, timeout time.Duration) *http.Client {
	return guard.NewClient(guard.NewChecker(p, net.DefaultResolver), timeout, guard.TransportOptions{MaxIdleConnsPerHost: 4})
}

// Embedder is the configured embeddings client, or nil; its cache is
// shared with search reranking.
func (s *Service) Embedder() *Embedder {
	if s == nil {
		return nil
	}
	return s.embedder
}

// Bounds of the pool a reranked search draws its results from.
const (
	// rerankPoolMin results at least are reranked, whatever the limit:
	// with limit 1, reranking only the backends' first result would
	// change nothing.
	rerankPoolMin = 20
	// rerankPoolMax results at most, as each costs an embedding.
	rerankPoolMax = 50
)

// rerankPool is how many results a search of limit results asks the
// backends for when it reranks them.
func rerankPool(limit int) int {
	return max(limit, min(max(4*limit, rerankPoolMin), rerankPoolMax))
}

// Search runs the backends and, when asked and possible, reranks by the
// question (or the query): the backends are then asked for a pool larger
// than limit, the pool is reranked, and the best limit are kept, so a
// small limit gets the best of several results, not the backends' first.
func (s *Service) Search(ctx context.Context, query, question string, limit int, rerank bool) (*Outcome, error) {
	if s == nil {
		return nil, ErrNotConfigured
	}
	if !rerank || s.embedder == nil {
		out, err := s.searcher.Search(ctx, query, limit)
		if err == nil && rerank {
			out.Warnings = append(out.Warnings, "rerank not configured; backend order kept")
		}
		return out, err
	}
	out, err := s.searcher.Search(ctx, query, rerankPool(limit))
	if err != nil {
		return out, err
	}
	if question == "" {
		question = query
	}
	start := time.Now()
	ranked, err := Rerank(ctx, s.embedder, question, out.Results)
	if s.obs != nil {
		s.obs.SearchRerank(time.Since(start))
	}
	if err != nil {
		out.Warnings = append(out.Warnings, "rerank failed ("+err.Error()+"); backend order kept")
		ranked = out.Results
	}
	out.Results = ranked[:min(limit, len(ranked))]
	return out, nil
}

// observed reports a backend's calls to the observer.
type observed struct {
	Backend
	obs Observer
}

func (o observed) Search(ctx context.Context, query string, limit int) (*Found, error) {
	start := time.Now()
	res, err := o.Backend.Search(ctx, query, limit)
	if o.obs != nil {
		outcome := "ok"
		if err != nil {
			outcome = "error"
		}
		o.obs.SearchBackend(o.Name(), outcome, time.Since(start))
	}
	return res, err
}
