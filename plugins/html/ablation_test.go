package html

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/markusmobius/go-trafilatura"

	"github.com/siftd/sift/plugins/sdk"
)

// The ablation benchmark: every page of the extraction benchmark's
// development sets is extracted with every rule on, with each rule that
// changed it switched off in turn, and by go-trafilatura alone; the
// outputs go to $SIFT_ABLATION_OUT/<set>/<variant>.json in the format
// eval.py --score-json reads, for bench/html/ablation.py to score (make
// bench runs both). It is a measurement, not a test: it skips unless
// both SIFT_BENCH_DATA and SIFT_ABLATION_OUT are set.
//
//	SIFT_BENCH_DATA=DIR SIFT_ABLATION_OUT=/tmp/ablation \
//	  go test -run '^TestAblation$' -timeout 3h ./plugins/html/
//
// SIFT_ABLATION_SETS (comma-separated; default all three) and
// SIFT_ABLATION_RULES (default every rule of ruleNames) narrow it;
// SIFT_ABLATION_JOBS pages run at once (default 1). A variant named
// rule1+rule2 switches both off; comments=true and comments=false run
// every page with that comments option; "none" runs sift and
// go-trafilatura alone.

// ablationSets are the development sets, in the benchmark's folder data/.
var ablationSets = []string{"scrapinghub", "wcxb-dev", "readability"}

type benchPage struct {
	id, url string
	body    []byte
}

func TestAblation(t *testing.T) {
	data, out := os.Getenv(benchDataEnv), os.Getenv("SIFT_ABLATION_OUT")
	if data == "" || out == "" {
		t.Skipf("a measurement: set %s and SIFT_ABLATION_OUT to run it", benchDataEnv)
	}
	sets := envList("SIFT_ABLATION_SETS", ablationSets)
	variants := envList("SIFT_ABLATION_RULES", ruleNames())
	if slices.Equal(variants, []string{"none"}) {
		variants = nil // sift and go-trafilatura alone
	}
	for _, v := range variants {
		if strings.HasPrefix(v, "comments=") {
			continue // the comments option, true or false
		}
		for _, name := range strings.Split(v, "+") {
			if !slices.Contains(ruleNames(), name) {
				t.Fatalf("SIFT_ABLATION_RULES: no rule %q (rules: %s)", name, strings.Join(ruleNames(), ", "))
			}
		}
	}
	jobs, _ := strconv.Atoi(os.Getenv("SIFT_ABLATION_JOBS"))
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	order, _ := json.Marshal(ruleNames())
	if err := os.WriteFile(filepath.Join(out, "rules.json"), order, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, set := range sets {
		pages, err := loadBenchSet(filepath.Join(data, "data", set))
		if err != nil {
			t.Fatal(err)
		}
		outputs := ablate(pages, variants, max(jobs, 1))
		dir := filepath.Join(out, set)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, preds := range outputs {
			if err := writePredictions(filepath.Join(dir, name+".json"), preds); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("%s: %d pages, %d variants", set, len(pages), len(outputs))
	}
}

func envList(key string, def []string) []string {
	if v := os.Getenv(key); v != "" {
		return strings.Split(v, ",")
	}
	return def
}

// ablate returns, by variant ("sift", "gotrafilatura", and each of
// variants), each page's output by id.
func ablate(pages []benchPage, variants []string, jobs int) map[string]map[string]string {
	base := New().(*Extractor)
	outputs := map[string]map[string]string{"sift": {}, "gotrafilatura": {}, "gotrafilatura-blocks": {}}
	for _, v := range variants {
		outputs[v] = map[string]string{}
	}
	var mu sync.Mutex
	work := make(chan benchPage)
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range work {
				got := ablatePage(base, p, variants)
				mu.Lock()
				for name, text := range got {
					outputs[name][p.id] = text
				}
				mu.Unlock()
			}
		}()
	}
	for _, p := range pages {
		work <- p
	}
	close(work)
	wg.Wait()
	return outputs
}

// ablatePage extracts p with every rule on, by go-trafilatura alone, and
// without each variant's rules when one of them changed the page.
func ablatePage(base *Extractor, p benchPage, variants []string) map[string]string {
	fired := map[string]bool{}
	sift := extractWith(base, p, &rules{fired: fired}, nil)
	text, blocks := goTrafilatura(base, p)
	got := map[string]string{"sift": sift, "gotrafilatura": text, "gotrafilatura-blocks": blocks}
	for _, v := range variants {
		if opt, ok := strings.CutPrefix(v, "comments="); ok {
			got[v] = extractWith(base, p, nil, map[string]string{OptionComments: opt})
			continue
		}
		off := map[string]bool{}
		changed := false
		for _, name := range strings.Split(v, "+") {
			off[name] = true
			changed = changed || fired[name]
		}
		got[v] = sift
		if changed {
			got[v] = extractWith(base, p, &rules{off: off}, nil)
		}
	}
	return got
}

func extractWith(base *Extractor, p benchPage, r *rules, opts map[string]string) string {
	ex := &Extractor{md: base.md, rules: r}
	res, err := ex.Extract(context.Background(), &sdk.ExtractRequest{Body: p.body, ContentType: "text/html", URL: p.url, Options: opts})
	if err != nil {
		return ""
	}
	return res.Content
}

// goTrafilatura is go-trafilatura alone, as bench/html/gotrafilatura runs
// it: its text, and its content as markdown, one block a paragraph, for
// the recall floor.
func goTrafilatura(base *Extractor, p benchPage) (text, blocks string) {
	opts := trafilatura.Options{EnableFallback: true}
	if u, err := url.Parse(p.url); err == nil && u.IsAbs() {
		opts.OriginalURL = u
	}
	res, err := trafilatura.Extract(bytes.NewReader(p.body), opts)
	if err != nil {
		return "", ""
	}
	if res.ContentNode != nil {
		blocks, _ = base.markdown(context.Background(), res.ContentNode, p.url)
	}
	return res.ContentText, blocks
}

// loadBenchSet reads a set in either of eval.py's formats: scrapinghub's
// (ground-truth.json) or WCXB's (ground-truth/<id>.json).
func loadBenchSet(dir string) ([]benchPage, error) {
	urls := map[string]string{}
	if raw, err := os.ReadFile(filepath.Join(dir, "ground-truth.json")); err == nil {
		var gt map[string]struct {
			URL string `json:"url"`
		}
		if err := json.Unmarshal(raw, &gt); err != nil {
			return nil, err
		}
		for id, item := range gt {
			urls[id] = item.URL
		}
	} else {
		files, err := filepath.Glob(filepath.Join(dir, "ground-truth", "*.json"))
		if err != nil || len(files) == 0 {
			return nil, os.ErrNotExist
		}
		for _, f := range files {
			raw, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			var item struct {
				URL string `json:"url"`
			}
			if err := json.Unmarshal(raw, &item); err != nil {
				return nil, err
			}
			urls[strings.TrimSuffix(filepath.Base(f), ".json")] = item.URL
		}
	}
	var pages []benchPage
	for id, u := range urls {
		body, err := readGzip(filepath.Join(dir, "html", id+".html.gz"))
		if err != nil {
			body, err = os.ReadFile(filepath.Join(dir, "html", id+".html"))
		}
		if err != nil {
			return nil, err
		}
		pages = append(pages, benchPage{id: id, url: u, body: body})
	}
	slices.SortFunc(pages, func(a, b benchPage) int { return strings.Compare(a.id, b.id) })
	return pages, nil
}

func readGzip(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

func writePredictions(path string, preds map[string]string) error {
	out := make(map[string]map[string]string, len(preds))
	for id, text := range preds {
		out[id] = map[string]string{"articleBody": text}
	}
	raw, err := json.Marshal(out)
	if err != nil {
		return err
	}
	return os.WriteFile(path, raw, 0o644)
}
