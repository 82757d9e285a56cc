package focus

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/siftd/sift/search"
	"github.com/siftd/sift/tokens"
)

// page builds a long article: sections of filler paragraphs, with the
// given paragraphs placed in named sections.
func page(special map[string]string) string {
	var b strings.Builder
	b.WriteString("# A field guide\n\n")
	for s := range 12 {
		name := fmt.Sprintf("Section %d", s)
		fmt.Fprintf(&b, "## %s\n\n", name)
		for p := range 6 {
			fmt.Fprintf(&b, "Paragraph %d of section %d talks at length about weather, gardens, rivers and the town market on a quiet afternoon, as such pages do.\n\n", p, s)
		}
		if text, ok := special[name]; ok {
			b.WriteString(text + "\n\n")
		}
	}
	return b.String()
}

func TestSelect(t *testing.T) {
	tortoise := "The Hermann's tortoise hibernates from November to March in a burrow it digs under hedges."
	md := page(map[string]string{"Section 7": tortoise, "Section 2": "| animal | months |\n|---|---|\n| dormouse | October to April |\n| hedgehog | November to March |"})
	raw := tokens.Count(md)
	tests := []struct {
		name     string
		question string
		budget   int
		want     []string // in the answer, in this order
		notWant  []string
		warning  string
	}{
		{
			name: "the paragraph about the question, under its path", question: "When does the tortoise hibernate?", budget: 200,
			want:    []string{"# A field guide", "## Section 7", tortoise, Marker},
			notWant: []string{"## Section 3"},
			warning: "most relevant to the question",
		},
		{
			name: "a table row under its table's header", question: "hedgehog months", budget: 150,
			want:    []string{"## Section 2", "| animal | months |\n|---|---|\n", "| hedgehog | November to March |"},
			warning: "most relevant",
		},
		{
			name: "no question: the beginning, cut at a part boundary", budget: 120,
			want:    []string{"# A field guide\n\n## Section 0\n\nParagraph 0 of section 0", Marker},
			notWant: []string{tortoise},
			warning: "cut to 120 tokens at a part boundary",
		},
		{
			name: "a question nothing matches: the beginning", question: "zeppelin", budget: 120,
			want:    []string{"# A field guide\n\n## Section 0\n\nParagraph 0", Marker},
			warning: "no part of the page matches the question",
		},
		{
			name: "within the budget: the page as it is", question: "tortoise", budget: raw + 10,
			want: []string{md},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := Select(context.Background(), md, tt.question, tt.budget, Options{})
			if res.Tokens > tt.budget || tokens.Count(res.Content) != res.Tokens {
				t.Errorf("%d tokens (counted %d), budget %d", res.Tokens, tokens.Count(res.Content), tt.budget)
			}
			at := 0
			for _, w := range tt.want {
				i := strings.Index(res.Content[at:], w)
				if i < 0 {
					t.Fatalf("answer lacks %q after byte %d:\n%s", w, at, res.Content)
				}
				at += i
			}
			for _, w := range tt.notWant {
				if strings.Contains(res.Content, w) {
					t.Errorf("answer holds %q:\n%s", w, res.Content)
				}
			}
			if got := strings.Join(res.Warnings, "; "); !strings.Contains(got, tt.warning) {
				t.Errorf("warnings %q, want %q", got, tt.warning)
			}
			if tt.warning == "" && len(res.Warnings) > 0 {
				t.Errorf("unexpected warnings %q", res.Warnings)
			}
		})
	}
}

// TestSelectEndsAtSentence: without a question the cut never ends inside
// a paragraph.
func TestSelectEndsAtSentence(t *testing.T) {
	md := page(nil)
	res := Select(context.Background(), md, "", 300, Options{})
	body := strings.TrimSuffix(res.Content, "\n\n"+Marker)
	if !strings.HasSuffix(body, "as such pages do.") || !strings.HasPrefix(md, strings.ReplaceAll(body, "\n\n"+Marker, "")) {
		t.Fatalf("cut mid-part:\n%s", res.Content)
	}
}

// wordServer is an OpenAI-style embeddings endpoint on loopback whose
// vectors count words of a tiny vocabulary with synonyms folded: it knows
// "automobile" means "car", which BM25 cannot.
func wordServer(t *testing.T, fail bool) *httptest.Server {
	vocab := map[string]int{"car": 0, "automobile": 0, "engine": 1, "tortoise": 2, "weather": 3}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if fail {
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		var req struct{ Input []string }
		_ = json.NewDecoder(r.Body).Decode(&req)
		type datum struct {
			Index     int       `json:"index"`
			Embedding []float64 `json:"embedding"`
		}
		var out struct {
			Data []datum `json:"data"`
		}
		for i, in := range req.Input {
			v := make([]float64, 5)
			v[4] = 0.01
			for _, f := range strings.Fields(strings.ToLower(in)) {
				if k, ok := vocab[strings.Trim(f, ".,?")]; ok {
					v[k]++
				}
			}
			out.Data = append(out.Data, datum{i, v})
		}
		_ = json.NewEncoder(w).Encode(out)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestSelectReranksWithEmbeddings(t *testing.T) {
	car := "My old car has a loud engine that starts slowly."
	// The embedder reranks BM25's best candidates; sharing no word with
	// the question, every part ties, and the first ones are candidates.
	md := page(map[string]string{"Section 2": car})
	e := &search.Embedder{Endpoint: wordServer(t, false).URL, Client: http.DefaultClient}
	res := Select(context.Background(), md, "Which automobile is noisy?", 120, Options{Embedder: e})
	if !strings.Contains(res.Content, car) {
		t.Fatalf("the embedder's pick is missing:\n%s", res.Content)
	}
	without := Select(context.Background(), md, "Which automobile is noisy?", 120, Options{})
	if strings.Contains(without.Content, car) {
		t.Fatalf("BM25 alone should not find the synonym; the test proves nothing:\n%s", without.Content)
	}
	bad := &search.Embedder{Endpoint: wordServer(t, true).URL, Client: http.DefaultClient}
	res = Select(context.Background(), md, "Which automobile is noisy?", 120, Options{Embedder: bad})
	if !strings.Contains(strings.Join(res.Warnings, ";"), "embeddings unavailable") || res.Tokens > 120 {
		t.Fatalf("a failed embedder must fall back to BM25 with a warning: %q", res.Warnings)
	}
}

// TestSelectOneLongParagraph: a page that is one paragraph is selected
// from by whole sentences.
func TestSelectOneLongParagraph(t *testing.T) {
	var b strings.Builder
	for i := range 200 {
		if i == 150 {
			b.WriteString("The lighthouse keeper counts seventeen gulls every dawn. ")
			continue
		}
		fmt.Fprintf(&b, "Sentence %d is about the weather and the sea. ", i)
	}
	md := strings.TrimSpace(b.String())
	for _, q := range []string{"How many gulls does the lighthouse keeper count?", ""} {
		res := Select(context.Background(), md, q, 100, Options{})
		if res.Tokens > 100 || res.Kept == 0 {
			t.Fatalf("question %q: %d tokens, %d parts kept:\n%s", q, res.Tokens, res.Kept, res.Content)
		}
		if q != "" && !strings.Contains(res.Content, "The lighthouse keeper counts seventeen gulls every dawn.") {
			t.Fatalf("the sentence is missing:\n%s", res.Content)
		}
		body := strings.TrimSuffix(strings.TrimPrefix(res.Content, Marker+"\n\n"), "\n\n"+Marker)
		for _, piece := range strings.Split(body, "\n\n"+Marker+"\n\n") {
			if !strings.HasSuffix(piece, ".") {
				t.Fatalf("question %q: a piece ends mid-sentence: %q", q, piece)
			}
		}
	}
}

// TestSelectNoSentenceEnds: text without sentence ends is cut between
// words, never inside one.
func TestSelectNoSentenceEnds(t *testing.T) {
	md := strings.Repeat("word ", 5000) + "needle " + strings.Repeat("word ", 100)
	res := Select(context.Background(), md, "needle", 200, Options{})
	if res.Tokens > 200 || !strings.Contains(res.Content, "needle") || strings.Contains(res.Content, "wor\n") {
		t.Fatalf("%d tokens:\n%s", res.Tokens, res.Content)
	}
}

// TestSentencesStayWhole: a sentence that fits the budget is never cut
// between words, and pieces of one paragraph kept side by side read as
// one paragraph.
func TestSentencesStayWhole(t *testing.T) {
	long := strings.TrimSpace(strings.Repeat("the granary by the river holds the grain of seven farms ", 6)) + "."
	link := "See [other page](http://127.0.0.1:8081/other) and [external](https://example.org/x)."
	var filler strings.Builder
	for i := range 40 {
		fmt.Fprintf(&filler, "Paragraph %d says nothing in particular about anything at all.\n\n", i)
	}
	md := "# Page\n\n" + link + "\n\n" + long + "\n\n" + filler.String()
	for _, budget := range []int{60, 150} {
		res := Select(context.Background(), md, "", budget, Options{})
		if res.Tokens > budget {
			t.Errorf("budget %d: %d tokens returned", budget, res.Tokens)
		}
		if !strings.Contains(res.Content, link) {
			t.Errorf("budget %d: the sentence with links was cut:\n%s", budget, res.Content)
		}
	}
	res := Select(context.Background(), md, "", 150, Options{})
	if !strings.Contains(res.Content, long) {
		t.Errorf("budget 150: a %d-token sentence was cut:\n%s", tokens.Count(long), res.Content)
	}
}
