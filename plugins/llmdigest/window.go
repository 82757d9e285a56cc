package llmdigest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// window is what the digester knows of the model's context: its size in
// the model's tokens, learned from the server unless configured, and how
// many model tokens one counted token turned out to cost.
type window struct {
	mu      sync.Mutex
	size    int
	learned time.Time
	// scale is model tokens per o200k token, raised when the server
	// reports a prompt longer than sift counted.
	scale float64
}

// ollamaDefaultContext is the context Ollama gives a model unless num_ctx
// says otherwise.
const ollamaDefaultContext = 4096

// relearn is how long a learned context size is trusted: the server may
// be restarted with another.
const relearn = 10 * time.Minute

// contextTokens is the context size: configured, else learned from the
// server (and remembered), else DefaultContextTokens.
func (d *Digester) contextTokens(ctx context.Context) int {
	if d.cfg.ContextTokens > 0 {
		return d.cfg.ContextTokens
	}
	w := d.window
	w.mu.Lock()
	if w.size > 0 && time.Since(w.learned) < relearn {
		defer w.mu.Unlock()
		return w.size
	}
	w.mu.Unlock()
	n, at := d.learnContext(ctx), time.Now()
	if n <= 0 {
		// A server that tells nothing is asked again in a minute, not at
		// every digest.
		n, at = DefaultContextTokens, at.Add(time.Minute-relearn)
	}
	w.mu.Lock()
	w.size, w.learned = n, at
	w.mu.Unlock()
	return n
}

// learnContext asks the server for its context size: llama.cpp's /props
// (default_generation_settings.n_ctx) or /slots (n_ctx of a slot), or
// Ollama's /api/show (the model's context_length, or num_ctx when set).
// It returns 0 when the server tells none of these.
func (d *Digester) learnContext(ctx context.Context) int {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	root := strings.TrimSuffix(strings.TrimRight(d.cfg.Endpoint, "/"), "/v1")
	if d.cfg.Flavor == FlavorOllama {
		return d.ollamaContext(ctx, root)
	}
	var props struct {
		Settings struct {
			NCtx int `json:"n_ctx"`
		} `json:"default_generation_settings"`
	}
	if d.getJSON(ctx, http.MethodGet, root+"/props", nil, &props) == nil && props.Settings.NCtx > 0 {
		return props.Settings.NCtx
	}
	var slots []struct {
		NCtx int `json:"n_ctx"`
	}
	if d.getJSON(ctx, http.MethodGet, root+"/slots", nil, &slots) == nil && len(slots) > 0 && slots[0].NCtx > 0 {
		return slots[0].NCtx
	}
	return 0
}

func (d *Digester) ollamaContext(ctx context.Context, root string) int {
	var show struct {
		Parameters string         `json:"parameters"`
		ModelInfo  map[string]any `json:"model_info"`
	}
	if d.getJSON(ctx, http.MethodPost, root+"/api/show", map[string]string{"model": d.cfg.Model}, &show) != nil {
		return 0
	}
	// num_ctx in the model's parameters is what Ollama runs it with.
	for _, line := range strings.Split(show.Parameters, "\n") {
		var n int
		if f := strings.Fields(line); len(f) == 2 && f[0] == "num_ctx" {
			if _, err := fmt.Sscan(f[1], &n); err == nil && n > 0 {
				return n
			}
		}
	}
	// Otherwise Ollama runs the model with its default context, whatever
	// the model could take, and cuts a longer prompt silently.
	for k, v := range show.ModelInfo {
		if n, ok := v.(float64); ok && strings.HasSuffix(k, ".context_length") && n > 0 {
			return min(int(n), ollamaDefaultContext)
		}
	}
	return 0
}

// getJSON sends one small request to the server and decodes its answer.
func (d *Digester) getJSON(ctx context.Context, method, url string, body, v any) error {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if d.cfg.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+d.cfg.apiKey)
	}
	resp, err := d.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: status %d", url, resp.StatusCode)
	}
	return json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(v)
}

// modelScale is model tokens per counted token, 1 until an overflow
// taught otherwise.
func (d *Digester) modelScale() float64 {
	d.window.mu.Lock()
	defer d.window.mu.Unlock()
	return max(d.window.scale, 1)
}

// learnScale remembers that a prompt sift counted as counted tokens cost
// the model actual tokens.
func (d *Digester) learnScale(counted, actual int) {
	if counted <= 0 || actual <= counted {
		return
	}
	d.window.mu.Lock()
	defer d.window.mu.Unlock()
	// A tenth more: the next page's words may tokenize worse.
	d.window.scale = max(d.window.scale, 1.1*float64(actual)/float64(counted))
}
