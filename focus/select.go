package focus

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/siftd/sift/tokens"
)

// Embedder turns texts into vectors; search.Embedder is one.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float64, error)
}

// Options tune a selection.
type Options struct {
	// Embedder, when set, reranks BM25's best candidates by the cosine of
	// each part to the question.
	Embedder Embedder
}

// Result is a selection.
type Result struct {
	Content string
	// Tokens is Content's token count.
	Tokens int
	// Kept and Total count the parts kept and the page's parts.
	Kept, Total int
	Warnings    []string
}

// Marker stands where parts were left out.
const Marker = "[…]"

// bm25Weight is BM25's share of a reranked score, the cosine's the rest.
const bm25Weight = 0.4

// The share of the best part's score below which a part is not worth its
// tokens, budget or not. BM25 scores fall off steeply past the parts that
// share the question's rare words; a reranked score is mostly a cosine,
// which stays high for any part on the page's topic, so its floor sits
// higher. Both were set on the retrieval measurement (docs/api.md, "The part of the page you asked about").
const (
	bm25Floor     = 0.3
	rerankedFloor = 0.53
)

// candidates is how many of BM25's best parts the embedder reranks: more
// than a budget holds, few enough that a small CPU embeds them in seconds.
const candidates = 32

// Select returns the parts of md most relevant to question, in page order,
// within maxTokens, each under its heading path and with Marker where
// parts were left out. Without a question it keeps the page's beginning,
// cut at a part boundary. A page within the budget is returned as it is.
func Select(ctx context.Context, md, question string, maxTokens int, opts Options) Result {
	if n := tokens.Count(md); n <= maxTokens {
		sp := SplitMarkdown(md)
		return Result{Content: md, Tokens: n, Kept: len(sp.Parts), Total: len(sp.Parts)}
	}
	sp := splitLong(SplitMarkdown(md), maxTokens)
	sel := newSelection(sp)
	var warnings []string
	var order []int
	var scores []float64
	floor := 0.0
	if strings.TrimSpace(question) == "" {
		order = make([]int, len(sp.Parts))
		for i := range order {
			order[i] = i
		}
	} else {
		scores = score(sp, question)
		share := bm25Floor
		if opts.Embedder != nil {
			if err := rerank(ctx, opts.Embedder, sp, question, scores); err != nil {
				warnings = append(warnings, "embeddings unavailable, parts ranked by BM25 alone: "+err.Error())
			} else {
				share = rerankedFloor
			}
		}
		order = byScore(scores)
		if len(order) > 0 {
			floor = share * scores[order[0]]
		}
	}
	prefix := strings.TrimSpace(question) == ""
	for _, i := range order {
		if !prefix && (scores[i] <= 0 || scores[i] < floor) {
			break // parts far less relevant than the best only cost tokens
		}
		if !sel.add(i, maxTokens) && prefix {
			break // without a question the answer is the page's beginning
		}
	}
	if !prefix && len(sel.kept) == 0 {
		// Nothing shares a word with the question: the beginning says at
		// least what the page is.
		warnings = append(warnings, "no part of the page matches the question")
		return withWarnings(Select(ctx, md, "", maxTokens, Options{}), warnings)
	}
	content := sel.render()
	for n := tokens.Count(content); n > maxTokens && len(sel.kept) > 0; n = tokens.Count(content) {
		sel.drop(order)
		content = sel.render()
	}
	res := Result{Content: content, Tokens: tokens.Count(content), Kept: len(sel.kept), Total: len(sp.Parts), Warnings: warnings}
	switch {
	case prefix:
		res.Warnings = append(res.Warnings, fmt.Sprintf("content cut to %d tokens at a part boundary: %d of %d parts", maxTokens, res.Kept, res.Total))
	default:
		res.Warnings = append(res.Warnings, fmt.Sprintf("kept the %d of %d parts most relevant to the question within %d tokens", res.Kept, res.Total, maxTokens))
	}
	return res
}

// score is each part's BM25 score against the question, its headings
// counted with it.
func score(sp Split, question string) []float64 {
	q := terms(question)
	docs := make([][]string, len(sp.Parts))
	for i, p := range sp.Parts {
		docs[i] = terms(p.Text + "\n" + sp.pathText(p))
	}
	return bm25(q, docs)
}

func (sp Split) pathText(p Part) string {
	var b strings.Builder
	for _, c := range p.Path {
		b.WriteString(sp.Context[c])
		b.WriteByte('\n')
	}
	return b.String()
}

// rerank blends the cosine of BM25's best candidates to the question into
// their scores.
func rerank(ctx context.Context, e Embedder, sp Split, question string, scores []float64) error {
	order := byScore(scores)
	top := order[:min(candidates, len(order))]
	texts := []string{question}
	for _, i := range top {
		texts = append(texts, sp.pathText(sp.Parts[i])+sp.Parts[i].Text)
	}
	vecs, err := e.Embed(ctx, texts)
	if err != nil {
		return err
	}
	if len(vecs) != len(texts) {
		return fmt.Errorf("%d vectors for %d texts", len(vecs), len(texts))
	}
	best := scores[top[0]]
	if best <= 0 {
		best = 1
	}
	// Both halves run 0..1: BM25 relative to the best part, cosine as is.
	// Parts past the candidates keep their BM25 share alone.
	for i := range scores {
		scores[i] = bm25Weight * scores[i] / best
	}
	for j, i := range top {
		scores[i] += (1 - bm25Weight) * max(cosine(vecs[0], vecs[j+1]), 0)
	}
	return nil
}

func cosine(a, b []float64) float64 {
	var dot, na, nb float64
	for i := range min(len(a), len(b)) {
		dot, na, nb = dot+a[i]*b[i], na+a[i]*a[i], nb+b[i]*b[i]
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

// byScore orders part indexes best first, earlier first among equals.
func byScore(scores []float64) []int {
	order := make([]int, len(scores))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return scores[order[a]] > scores[order[b]] })
	return order
}

func withWarnings(r Result, w []string) Result {
	r.Warnings = append(w, r.Warnings...)
	return r
}
