package focus

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/siftd/sift/search"
	"github.com/siftd/sift/tokens"
)

// A retrieval case: a long page, a paragraph deep in it, and a question
// about that paragraph that does not quote it.
type retrievalCase struct {
	ID        string `json:"id"`
	Text      string `json:"text,omitempty"`
	Paragraph string `json:"paragraph"`
	Question  string `json:"question"`
	// Kind is "words" (the paragraph's rarest words, shuffled) or
	// "paraphrase" (written by hand).
	Kind string `json:"kind"`
}

// retrievalPage is an annotated page's main text.
type retrievalPage struct {
	ID, Text string
}

// minPageTokens is what makes a page long: the 5–20k-token pages an agent
// would rather not read whole.
const minPageTokens = 5000

// Budgets the measurement reports.
var retrievalBudgets = []int{500, 1000, 2000}

// loadBenchPages reads the extraction benchmark's ground truths under dir:
// scrapinghub/ground-truth.json and wcxb-dev/ground-truth/*.json.
func loadBenchPages(t testing.TB, dir string) []retrievalPage {
	t.Helper()
	var pages []retrievalPage
	if raw, err := os.ReadFile(filepath.Join(dir, "scrapinghub", "ground-truth.json")); err == nil {
		var sh map[string]struct {
			ArticleBody string `json:"articleBody"`
		}
		if err := json.Unmarshal(raw, &sh); err != nil {
			t.Fatal(err)
		}
		for id, p := range sh {
			pages = append(pages, retrievalPage{ID: "scrapinghub/" + id, Text: p.ArticleBody})
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "wcxb-dev", "ground-truth", "*.json"))
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var p struct {
			GroundTruth struct {
				MainContent string `json:"main_content"`
			} `json:"ground_truth"`
		}
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		pages = append(pages, retrievalPage{ID: "wcxb-dev/" + strings.TrimSuffix(filepath.Base(f), ".json"), Text: p.GroundTruth.MainContent})
	}
	slices.SortFunc(pages, func(a, b retrievalPage) int { return cmp.Compare(a.ID, b.ID) })
	return pages
}

// paragraphs are a text's blank-line-separated blocks.
func paragraphs(text string) []string {
	var out []string
	for _, p := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// buildCases makes one case per long page: the prose paragraph (one line,
// not a list or a table) of 30 to 120 words nearest 70% of the way down,
// in its second half, and as its question its five rarest content words
// across all the pages, shuffled.
func buildCases(pages []retrievalPage) []retrievalCase {
	var long []retrievalPage
	for _, p := range pages {
		if tokens.Count(p.Text) >= minPageTokens {
			long = append(long, p)
		}
	}
	df := map[string]int{}
	for _, p := range long {
		seen := map[string]bool{}
		for _, w := range contentWords(p.Text) {
			if !seen[w] {
				seen[w] = true
				df[w]++
			}
		}
	}
	var cases []retrievalCase
	for _, p := range long {
		paras := paragraphs(p.Text)
		best, bestDist := -1, 1.0
		for i, para := range paras {
			n := len(strings.Fields(para))
			pos := float64(i) / float64(len(paras))
			if n < 30 || n > 120 || pos < 0.5 || strings.ContainsAny(para, "\n\t") || listMarker(para) || strings.Count(p.Text, para) != 1 {
				continue
			}
			if d := abs(pos - 0.7); d < bestDist {
				best, bestDist = i, d
			}
		}
		if best < 0 {
			continue
		}
		words := uniq(contentWords(paras[best]))
		slices.SortStableFunc(words, func(a, b string) int { return cmp.Or(cmp.Compare(df[a], df[b]), cmp.Compare(a, b)) })
		words = words[:min(5, len(words))]
		h := fnv.New64a()
		h.Write([]byte(p.ID))
		r := rand.New(rand.NewPCG(h.Sum64(), 1))
		r.Shuffle(len(words), func(i, j int) { words[i], words[j] = words[j], words[i] })
		cases = append(cases, retrievalCase{ID: p.ID, Text: p.Text, Paragraph: paras[best], Question: strings.Join(words, " "), Kind: "words"})
	}
	return cases
}

// contentWords are a text's lower-cased words of four letters or more
// that are not stop words: what a question about it would use.
func contentWords(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !('a' <= r && r <= 'z' || r > 127 && r != '’' && r != '“' && r != '”' && r != '—' && r != '–')
	}) {
		if len(w) >= 4 && !stopWords[w] {
			out = append(out, w)
		}
	}
	return out
}

func uniq(ws []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range ws {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

func abs(f float64) float64 { return max(f, -f) }

// retrievalScore is one budget's outcome over a set of cases.
type retrievalScore struct {
	Budget      int
	Kept, Cases int
	MedianRatio float64
}

func (s retrievalScore) String() string {
	return fmt.Sprintf("budget %5d: kept %3d/%3d = %5.1f%%, median returned/raw %.3f", s.Budget, s.Kept, s.Cases, 100*float64(s.Kept)/float64(max(s.Cases, 1)), s.MedianRatio)
}

// evaluate selects from each case's page at budget and reports how often
// the paragraph came back whole and the median share of the page returned.
func evaluate(t testing.TB, cases []retrievalCase, budget int, opts Options) retrievalScore {
	t.Helper()
	s := retrievalScore{Budget: budget, Cases: len(cases)}
	var ratios []float64
	for _, c := range cases {
		res := Select(context.Background(), c.Text, c.Question, budget, opts)
		if strings.Contains(squash(res.Content), squash(c.Paragraph)) {
			s.Kept++
		} else if testing.Verbose() && os.Getenv("RETRIEVAL_MISSES") != "" {
			t.Logf("miss %s (budget %d, %q): %.80q", c.ID, budget, c.Question, c.Paragraph)
		}
		ratios = append(ratios, float64(res.Tokens)/float64(tokens.Count(c.Text)))
	}
	slices.Sort(ratios)
	if len(ratios) > 0 {
		s.MedianRatio = ratios[len(ratios)/2]
	}
	return s
}

// squash collapses whitespace, so a paragraph is found whatever line
// breaks surround it.
func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

// loadSmallSet reads the copy of annotated pages kept for make test, with
// the cases built from them and the hand-written paraphrases.
func loadSmallSet(t testing.TB) (words, paraphrases []retrievalCase) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "retrieval", "pages.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pages []retrievalPage
	if err := json.Unmarshal(raw, &pages); err != nil {
		t.Fatal(err)
	}
	return buildCases(pages), loadParaphrases(t, pages)
}

// loadParaphrases reads hand-written questions and joins them to their
// pages.
func loadParaphrases(t testing.TB, pages []retrievalPage) []retrievalCase {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "retrieval", "paraphrases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []retrievalCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	text := map[string]string{}
	for _, p := range pages {
		text[p.ID] = p.Text
	}
	var out []retrievalCase
	for _, c := range cases {
		c.Text = text[c.ID]
		if c.Text == "" {
			continue // the page is not in this set
		}
		if strings.Count(c.Text, c.Paragraph) != 1 {
			t.Fatalf("%s: the paraphrased paragraph is not once in the page: %.60q", c.ID, c.Paragraph)
		}
		c.Kind = "paraphrase"
		out = append(out, c)
	}
	return out
}

// TestRetrievalSmallSet holds BM25 alone to a floor on the copy of
// annotated pages: the paragraph a question is about is kept at a
// 1,000-token budget, at a small share of the page.
func TestRetrievalSmallSet(t *testing.T) {
	words, para := loadSmallSet(t)
	if len(words) < 8 || len(para) < 8 {
		t.Fatalf("%d word cases, %d paraphrases: the set is too small to measure", len(words), len(para))
	}
	for _, set := range []struct {
		name  string
		cases []retrievalCase
		floor float64
	}{{"rarest words", words, 0.8}, {"paraphrases", para, 0.75}} {
		s := evaluate(t, set.cases, 1000, Options{})
		t.Logf("%s: %s", set.name, s)
		if share := float64(s.Kept) / float64(s.Cases); share < set.floor || s.MedianRatio > 0.15 {
			t.Errorf("%s: %s; want at least %.0f%% kept at a median ratio of 0.15 or less", set.name, s, 100*set.floor)
		}
	}
}

// TestRetrievalBench is make bench's measurement on the extraction
// benchmark's ground truths under $FOCUS_BENCH_DATA, with and without the
// embeddings endpoint at $FOCUS_EMBED_URL.
func TestRetrievalBench(t *testing.T) {
	dir := os.Getenv("FOCUS_BENCH_DATA")
	if dir == "" {
		t.Skip("FOCUS_BENCH_DATA not set")
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no benchmark data: %v", err)
	}
	pages := loadBenchPages(t, dir)
	if len(pages) == 0 {
		t.Fatalf("no annotated pages under %s: want scrapinghub/ground-truth.json or wcxb-dev/ground-truth/*.json there", dir)
	}
	words := buildCases(pages)
	para := loadParaphrases(t, pages)
	fmt.Printf("retrieval: %d pages, %d of %d tokens or more; %d rarest-word questions, %d hand-written paraphrases\n",
		len(pages), len(words), minPageTokens, len(words), len(para))
	modes := []struct {
		name string
		opts Options
	}{{"bm25", Options{}}}
	if u := os.Getenv("FOCUS_EMBED_URL"); u != "" {
		e := &search.Embedder{Endpoint: u, InputCap: 2000, Client: &http.Client{Timeout: 2 * time.Minute}}
		modes = append(modes, struct {
			name string
			opts Options
		}{"bm25+embeddings", Options{Embedder: e}})
	} else {
		fmt.Println("retrieval: FOCUS_EMBED_URL not set; BM25 alone")
	}
	for _, m := range modes {
		for _, set := range []struct {
			name  string
			cases []retrievalCase
		}{{"rarest words", words}, {"paraphrases", para}} {
			if m.opts.Embedder != nil && set.name == "rarest words" {
				// A CPU sentence encoder takes hours over every page; the
				// rarest words are BM25's easy case anyway.
				continue
			}
			for _, b := range retrievalBudgets {
				fmt.Printf("retrieval %-16s %-12s %s\n", m.name, set.name, evaluate(t, set.cases, b, m.opts))
			}
		}
	}
}
