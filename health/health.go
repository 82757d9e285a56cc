// Package health probes the services sift depends on but does not run (the
// LLM server behind a digester, Honcho) and remembers the answers for a
// while, so /healthz costs those services at most one probe per interval
// however often it is polled.
package health

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/siftd/sift/guard"
)

// Probe checks one dependency; nil means reachable.
type Probe func(ctx context.Context) error

// Result is the last probe of one dependency.
type Result struct {
	OK        bool      `json:"ok"`
	LatencyMS float64   `json:"latency_ms"`
	Error     string    `json:"error,omitempty"`
	CheckedAt time.Time `json:"checked_at"`
}

// Monitor probes its dependencies at most once per interval.
type Monitor struct {
	probes   map[string]Probe
	interval time.Duration
	timeout  time.Duration
	now      func() time.Time

	mu      sync.Mutex // held while probing: concurrent polls share one round
	results map[string]Result
	at      time.Time
}

// New returns a monitor that re-probes when its results are older than
// interval, giving each probe at most timeout.
func New(probes map[string]Probe, interval, timeout time.Duration) *Monitor {
	return &Monitor{probes: probes, interval: interval, timeout: timeout, now: time.Now}
}

// Results returns every dependency's last result, probing them again
// (concurrently) when the last round is older than the interval.
func (m *Monitor) Results(ctx context.Context) map[string]Result {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.results != nil && m.now().Sub(m.at) < m.interval {
		return m.results
	}
	fresh := make(map[string]Result, len(m.probes))
	var mu sync.Mutex
	var wg sync.WaitGroup
	for name, probe := range m.probes {
		wg.Go(func() {
			r := m.probe(ctx, probe)
			mu.Lock()
			fresh[name] = r
			mu.Unlock()
		})
	}
	wg.Wait()
	m.results, m.at = fresh, m.now()
	return fresh
}

func (m *Monitor) probe(ctx context.Context, p Probe) Result {
	ctx, cancel := context.WithTimeout(ctx, m.timeout)
	defer cancel()
	start := m.now()
	err := p(ctx)
	r := Result{OK: err == nil, LatencyMS: float64(time.Since(start).Microseconds()) / 1000, CheckedAt: start.UTC()}
	if err != nil {
		r.Error = err.Error()
	}
	return r
}

// Dial is a probe that opens and closes a TCP connection to the host of
// rawURL: reachability without calling any route of the service.
func Dial(rawURL string) Probe {
	return func(ctx context.Context) error {
		addr, err := hostPort(rawURL)
		if err != nil {
			return err
		}
		var d net.Dialer
		conn, err := d.DialContext(ctx, "tcp", addr)
		if err != nil {
			return fmt.Errorf("unreachable: %w", err)
		}
		return conn.Close()
	}
}

// Models is a probe of an OpenAI-compatible server: GET {endpoint}/models,
// which llama.cpp's server, Ollama and vLLM answer without running a model.
func Models(endpoint, key string) Probe {
	client := guard.NewOperatorClient(0)
	return func(ctx context.Context) error {
		u, err := url.JoinPath(endpoint, "models")
		if err != nil {
			return fmt.Errorf("endpoint %q: %w", endpoint, err)
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return err
		}
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		resp, err := client.Do(req)
		if err != nil {
			return fmt.Errorf("unreachable: %w", err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("GET /models answered HTTP %d", resp.StatusCode)
		}
		return nil
	}
}

func hostPort(rawURL string) (string, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("%q is not a URL with a host", rawURL)
	}
	if u.Port() != "" {
		return u.Host, nil
	}
	port := "80"
	if u.Scheme == "https" {
		port = "443"
	}
	return net.JoinHostPort(u.Hostname(), port), nil
}
