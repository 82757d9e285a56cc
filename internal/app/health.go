package app

import (
	"context"
	"time"
)

// Outside services are probed at most this often, however often /healthz
// is polled.
const (
	dependencyInterval = 5 * time.Second
	dependencyTimeout  = 2 * time.Second
)

// pool is one plugin pool as /healthz reports it.
type pool struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
	Live    int    `json:"live"`
	Size    int    `json:"size"`
	// CannotRestart is set while the pool has no process and starting one
	// fails (its binary no longer matches its pin).
	CannotRestart bool `json:"cannot_restart,omitempty"`
	// DevOverride is set while the pool runs a development override's
	// unpinned binary (SIFT_PLUGIN_DEV_OVERRIDES).
	DevOverride bool `json:"dev_override,omitempty"`
	// Warnings are the plugin's own, from its configuration: an engine it
	// needs and lacks ("OCR engine missing: … install Debian's
	// tesseract-ocr").
	Warnings []string `json:"warnings,omitempty"`
}

// Health reports the plugin pools (every pool needs a live process), the
// database, and the reachability of outside services. An outside service
// that is down does not make sift unhealthy: digests fall back and context
// is skipped, so sift still answers. Nor does a degraded store (disk full,
// read-only, unreachable, below min_free): cache reads are misses and
// writes are skipped, so every fetch still answers; "database" says
// "degraded: FAULT: what it costs".
func (a *App) Health() (ok bool, detail any) {
	ok, pools := true, []pool{}
	for _, p := range a.Host.Pools() {
		live := p.Size()
		pools = append(pools, pool{Name: p.Name(), Version: p.Version(), Live: live, Size: p.Capacity(), CannotRestart: p.Failing() != nil,
			DevOverride: p.DevOverride(), Warnings: p.Warnings()})
		ok = ok && live > 0
	}
	out := map[string]any{"plugins": pools}
	if svc := a.services.Results(context.Background()); len(svc) > 0 {
		out["services"] = svc
	}
	if a.Store != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		// In the store's own words: the driver's error names the
		// database's address and user.
		out["database"] = a.Store.Health(ctx).String()
	}
	return ok, out
}
