package search

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"sort"
	"strings"
	"sync"
)

// Embedder calls an OpenAI-compatible /v1/embeddings endpoint (llama.cpp,
// Ollama, vLLM, a sentence-encoder server) and remembers the vectors of
// texts it has embedded.
type Embedder struct {
	Endpoint string // e.g. http://127.0.0.1:11434/v1
	Model    string
	Client   *http.Client
	// InputCap bounds each input, in bytes, under the model's token limit.
	InputCap int

	mu    sync.Mutex
	cache map[string][]float64
}

// maxCached bounds the remembered vectors.
const maxCached = 4096

type embeddingRequest struct {
	Model string   `json:"model,omitempty"`
	Input []string `json:"input"`
}

type embeddingResponse struct {
	Data []struct {
		Index     int       `json:"index"`
		Embedding []float64 `json:"embedding"`
	} `json:"data"`
}

// Embed returns one vector per text, asking the server only for texts it
// has not embedded before.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float64, error) {
	out := make([][]float64, len(texts))
	var missing []string
	var at []int
	e.mu.Lock()
	if e.cache == nil {
		e.cache = map[string][]float64{}
	}
	for i, t := range texts {
		t = e.cut(t)
		if v, ok := e.cache[t]; ok {
			out[i] = v
			continue
		}
		missing, at = append(missing, t), append(at, i)
	}
	e.mu.Unlock()
	if len(missing) == 0 {
		return out, nil
	}
	vecs, err := e.call(ctx, missing)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for j, v := range vecs {
		out[at[j]] = v
		if len(e.cache) < maxCached {
			e.cache[missing[j]] = v
		}
	}
	return out, nil
}

func (e *Embedder) cut(t string) string {
	if e.InputCap > 0 && len(t) > e.InputCap {
		t = t[:e.InputCap]
		return strings.ToValidUTF8(t, "")
	}
	return t
}

func (e *Embedder) call(ctx context.Context, inputs []string) ([][]float64, error) {
	payload, _ := json.Marshal(embeddingRequest{Model: e.Model, Input: inputs})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(e.Endpoint, "/")+"/embeddings", bytes.NewReader(payload))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := e.Client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("embeddings: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return nil, fmt.Errorf("embeddings: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("embeddings: status %d: %.200s", resp.StatusCode, body)
	}
	var er embeddingResponse
	if err := json.Unmarshal(body, &er); err != nil {
		return nil, fmt.Errorf("embeddings: malformed answer: %w", err)
	}
	vecs := make([][]float64, len(inputs))
	for _, d := range er.Data {
		if d.Index < 0 || d.Index >= len(inputs) {
			return nil, fmt.Errorf("embeddings: index %d out of range", d.Index)
		}
		vecs[d.Index] = d.Embedding
	}
	for i, v := range vecs {
		if len(v) == 0 {
			return nil, fmt.Errorf("embeddings: no vector for input %d", i)
		}
	}
	return vecs, nil
}

// Rerank orders results by the cosine similarity of their text (title,
// snippet and chunks) to the question, keeping each score. A text longer
// than the embedder's input cap is split into pieces under it, and the
// best piece counts. On failure the results keep the backends' order and
// the error says why.
func Rerank(ctx context.Context, e *Embedder, question string, results []Result) ([]Result, error) {
	texts := []string{question}
	owner := []int{-1}
	for i, r := range results {
		full := strings.Join(append([]string{r.Title, r.Snippet}, r.Chunks...), "\n")
		for _, piece := range split(full, e.InputCap) {
			texts, owner = append(texts, piece), append(owner, i)
		}
	}
	vecs, err := e.Embed(ctx, texts)
	if err != nil {
		return results, err
	}
	out := append([]Result(nil), results...)
	for i := range out {
		out[i].Score = -1
	}
	for j := 1; j < len(vecs); j++ {
		out[owner[j]].Score = max(out[owner[j]].Score, cosine(vecs[0], vecs[j]))
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Score > out[b].Score })
	return out, nil
}

// split cuts text into pieces of at most limit bytes at word boundaries
// (limit 0: one piece).
func split(text string, limit int) []string {
	if limit <= 0 || len(text) <= limit {
		return []string{text}
	}
	var pieces []string
	var cur strings.Builder
	for _, w := range strings.Fields(text) {
		if cur.Len() > 0 && cur.Len()+1+len(w) > limit {
			pieces = append(pieces, cur.String())
			cur.Reset()
		}
		if cur.Len() > 0 {
			cur.WriteByte(' ')
		}
		cur.WriteString(w)
	}
	if cur.Len() > 0 {
		pieces = append(pieces, cur.String())
	}
	return pieces
}

func cosine(a, b []float64) float64 {
	if len(a) != len(b) {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		dot += a[i] * b[i]
		na += a[i] * a[i]
		nb += b[i] * b[i]
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / (math.Sqrt(na) * math.Sqrt(nb))
}
