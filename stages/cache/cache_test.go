package cache

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/stages"
	"github.com/siftd/sift/store"
)

// counter is a stage kind that counts its runs and writes its part of the
// Doc, standing in for fetch, extract and digest.
type counter struct {
	runs  map[string]int
	name  string
	write func(*stages.Doc)
}

func (c counter) Run(_ context.Context, doc *stages.Doc) error {
	c.runs[c.name]++
	if c.write != nil {
		c.write(doc)
	}
	return nil
}

func countingKind(runs map[string]int, name string, always bool, write func(*stages.Doc)) stages.Kind {
	return stages.Kind{Name: name, AlwaysRun: always, Repeatable: name == "cache",
		New: func(hcl.Body, stages.Deps) (stages.Stage, hcl.Diagnostics) {
			return counter{runs: runs, name: name, write: write}, nil
		}}
}

func buildChain(t *testing.T, kinds []string, runs map[string]int, header http.Header) *stages.Chain {
	t.Helper()
	return buildChainOn(t, openStore(t), kinds, runs, header)
}

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.OpenSQLite(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return st
}

// buildChainOn builds the chain of counting stages over st.
// Each cache stage built is handed to each of tune.
func buildChainOn(t *testing.T, st *store.Store, kinds []string, runs map[string]int, header http.Header, tune ...func(*Stage)) *stages.Chain {
	t.Helper()
	return buildOn(t, tableStore{st.CacheTable(1 << 20)}, kinds, runs, header, tune...)
}

// buildOn builds the chain of counting stages over the cache views.
func buildOn(t *testing.T, views stages.CacheViews, kinds []string, runs map[string]int, header http.Header, tune ...func(*Stage)) *stages.Chain {
	t.Helper()
	return buildWithFetch(t, views, kinds, runs, func(d *stages.Doc) {
		d.Response = &stages.Response{FinalURL: d.Request.URL, Status: 200, Header: header, Body: []byte("<p>x</p>"), ContentType: "text/html"}
	}, tune...)
}

// buildWithFetch builds the chain of counting stages over the cache views,
// its fetch writing the response with fetch.
func buildWithFetch(t *testing.T, views stages.CacheViews, kinds []string, runs map[string]int, fetch func(*stages.Doc), tune ...func(*Stage)) *stages.Chain {
	t.Helper()
	reg := stages.NewRegistry(
		countingKind(runs, "guard", true, func(d *stages.Doc) { d.Target = &stages.Target{URL: d.Request.URL} }),
		countingKind(runs, "fetch", false, fetch),
		countingKind(runs, "extract", false, func(d *stages.Doc) { d.Extraction = &stages.Extraction{Content: "x"} }),
		countingKind(runs, "digest", false, func(d *stages.Doc) { d.Digest = "about x: " + d.Request.Question }),
		countingKind(runs, "context", false, func(d *stages.Doc) {
			d.Context = []stages.ContextHit{{Kind: "message", Content: "known in " + d.Request.Workspace}}
		}),
		tunedKind(tune),
	)
	var blocks []config.Stage
	for _, k := range kinds {
		blocks = append(blocks, config.Stage{Kind: k, Body: hcl.EmptyBody()})
	}
	chain, diags := stages.Build(blocks, reg, stages.Deps{Cache: views})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return chain
}

func run(t *testing.T, c *stages.Chain, url, question string) *stages.Doc {
	t.Helper()
	doc := &stages.Doc{Request: stages.Request{URL: url, Question: question}}
	if err := c.Run(context.Background(), doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// A cache after extract keeps clean content: the second request runs the
// guard and the digest again, nothing else, and the digest sees the new
// question.
func TestCacheAfterExtract(t *testing.T) {
	runs := map[string]int{}
	c := buildChain(t, []string{"guard", "fetch", "extract", "cache", "digest"}, runs, http.Header{})
	first := run(t, c, "http://a.example/", "q1")
	second := run(t, c, "http://a.example/", "q2")
	want := map[string]int{"guard": 2, "fetch": 1, "extract": 1, "digest": 2}
	if !reflect.DeepEqual(runs, want) {
		t.Fatalf("runs %v, want %v", runs, want)
	}
	if first.Cached() || !second.Cached() || second.Digest != "about x: q2" || second.Extraction.Content != "x" {
		t.Fatalf("first cached=%v, second cached=%v digest=%q", first.Cached(), second.Cached(), second.Digest)
	}
	run(t, c, "http://b.example/", "q1")
	if runs["fetch"] != 2 {
		t.Fatalf("another URL was served from the cache: %v", runs)
	}
}

// A cache after digest keeps whole answers, per question.
func TestCacheAfterDigestKeysOnQuestion(t *testing.T) {
	runs := map[string]int{}
	c := buildChain(t, []string{"guard", "fetch", "extract", "digest", "cache"}, runs, http.Header{})
	run(t, c, "http://a.example/", "q1")
	run(t, c, "http://a.example/", "q1")
	run(t, c, "http://a.example/", "q2")
	if want := map[string]int{"guard": 3, "fetch": 2, "extract": 2, "digest": 2}; !reflect.DeepEqual(runs, want) {
		t.Fatalf("runs %v, want %v", runs, want)
	}
}

// A cache after context keeps hits per workspace: one team's context is
// never served to another.
func TestCacheAfterContextKeysOnWorkspace(t *testing.T) {
	runs := map[string]int{}
	c := buildChain(t, []string{"guard", "fetch", "extract", "context", "cache"}, runs, http.Header{})
	fetchIn := func(workspace string) *stages.Doc {
		doc := &stages.Doc{Request: stages.Request{URL: "http://a.example/", Workspace: workspace, Context: true}}
		if err := c.Run(context.Background(), doc); err != nil {
			t.Fatal(err)
		}
		return doc
	}
	fetchIn("team-a")
	b := fetchIn("team-b")
	again := fetchIn("team-a")
	if runs["context"] != 2 || b.Cached() || b.Context[0].Content != "known in team-b" ||
		!again.Cached() || again.Context[0].Content != "known in team-a" {
		t.Fatalf("runs %v; team-b %+v; team-a again cached=%v %+v", runs, b.Context, again.Cached(), again.Context)
	}
}

func TestNoStoreNeverCached(t *testing.T) {
	for _, cc := range []string{"no-store", "private, max-age=600", "max-age=0"} {
		runs := map[string]int{}
		c := buildChain(t, []string{"guard", "fetch", "extract", "cache"}, runs, http.Header{"Cache-Control": {cc}})
		run(t, c, "http://a.example/", "")
		if doc := run(t, c, "http://a.example/", ""); doc.Cached() || runs["fetch"] != 2 {
			t.Errorf("Cache-Control %q: served from the cache (%v)", cc, runs)
		}
	}
}

func TestLifetime(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	day, week := 24*time.Hour, 168*time.Hour
	maxAge := http.Header{"Cache-Control": {"max-age=3600"}}
	tests := []struct {
		name   string
		status int
		header http.Header
		want   time.Duration
	}{
		{"default", 200, http.Header{}, day},
		{"max-age", 200, http.Header{"Cache-Control": {"public, max-age=600"}}, 10 * time.Minute},
		{"s-maxage wins", 200, http.Header{"Cache-Control": {"max-age=600, s-maxage=60"}}, time.Minute},
		{"clamped to max_ttl", 200, http.Header{"Cache-Control": {"max-age=99999999"}}, week},
		{"no-store", 200, http.Header{"Cache-Control": {"max-age=600", "no-store"}}, 0},
		{"private", 200, http.Header{"Cache-Control": {"private"}}, 0},
		{"malformed max-age is stale", 200, http.Header{"Cache-Control": {"max-age=soon"}}, 0},
		{"expires against date", 200, http.Header{"Date": {"Thu, 01 Jan 2026 11:00:00 GMT"}, "Expires": {"Thu, 01 Jan 2026 13:00:00 GMT"}}, 2 * time.Hour},
		{"expires in the past", 200, http.Header{"Expires": {"Thu, 01 Jan 2026 11:00:00 GMT"}}, 0},
		{"invalid expires", 200, http.Header{"Expires": {"0"}}, 0},
		{"203 is a success", 203, http.Header{}, day},
		{"503 never", 503, http.Header{"Retry-After": {"5"}}, 0},
		{"503 never, even with max-age", 503, maxAge, 0},
		{"500 never", 500, http.Header{}, 0},
		{"429 never", 429, http.Header{"Retry-After": {"5"}}, 0},
		{"429 never, even with max-age", 429, maxAge, 0},
		{"404 negative ttl", 404, http.Header{}, NegativeTTL},
		{"410 negative ttl", 410, http.Header{}, NegativeTTL},
		{"404 max-age capped", 404, maxAge, NegativeTTL},
		{"404 shorter max-age", 404, http.Header{"Cache-Control": {"max-age=60"}}, time.Minute},
		{"404 no-store", 404, http.Header{"Cache-Control": {"no-store"}}, 0},
		{"403 only with max-age", 403, http.Header{}, 0},
		{"403 with max-age", 403, maxAge, time.Hour},
		{"301 only with max-age", 301, http.Header{}, 0},
	}
	for _, tc := range tests {
		if got := lifetime(tc.status, tc.header, day, week, now); got != tc.want {
			t.Errorf("%s: lifetime %s, want %s", tc.name, got, tc.want)
		}
	}
}

// A request's MaxAge passes over an older snapshot (0 passes over any) and
// its answer replaces it; NoStore leaves the cache as it was.
func TestMaxAgeAndNoStore(t *testing.T) {
	runs := map[string]int{}
	c := buildChain(t, []string{"guard", "fetch", "extract", "cache"}, runs, http.Header{})
	do := func(req stages.Request) *stages.Doc {
		t.Helper()
		doc := &stages.Doc{Request: req}
		if err := c.Run(context.Background(), doc); err != nil {
			t.Fatal(err)
		}
		return doc
	}
	zero, hour := time.Duration(0), time.Hour
	const u = "http://a.example/"
	steps := []struct {
		req        stages.Request
		cached     bool
		fetchesNow int
	}{
		{stages.Request{URL: u, NoStore: true}, false, 1},
		{stages.Request{URL: u}, false, 2},
		{stages.Request{URL: u, MaxAge: &hour}, true, 2},
		{stages.Request{URL: u, MaxAge: &zero}, false, 3},
		{stages.Request{URL: u}, true, 3},
	}
	for i, st := range steps {
		if doc := do(st.req); doc.Cached() != st.cached || runs["fetch"] != st.fetchesNow {
			t.Fatalf("step %d: cached %v, fetches %d; want %v, %d", i, doc.Cached(), runs["fetch"], st.cached, st.fetchesNow)
		}
	}
}

// A cache-only request is answered from a snapshot or refused with
// ErrNotCached, never fetched; MinAge passes over a snapshot younger than
// it.
func TestCacheOnlyAndMinAge(t *testing.T) {
	runs := map[string]int{}
	c := buildChain(t, []string{"guard", "fetch", "extract", "cache"}, runs, http.Header{})
	const u = "http://a.example/"
	run := func(req stages.Request) (*stages.Doc, error) {
		doc := &stages.Doc{Request: req}
		return doc, c.Run(context.Background(), doc)
	}
	if _, err := run(stages.Request{URL: u, CacheOnly: true}); !errors.Is(err, stages.ErrNotCached) || runs["fetch"] != 0 {
		t.Fatalf("cache-only miss: %v after %d fetches, want ErrNotCached and none", err, runs["fetch"])
	}
	if _, err := run(stages.Request{URL: u}); err != nil {
		t.Fatal(err)
	}
	hour, zero := time.Hour, time.Duration(0)
	if doc, err := run(stages.Request{URL: u, CacheOnly: true}); err != nil || !doc.Cached() || runs["fetch"] != 1 {
		t.Fatalf("cache-only hit: %v, cached %v, fetches %d", err, doc.Cached(), runs["fetch"])
	}
	if _, err := run(stages.Request{URL: u, CacheOnly: true, MinAge: &hour}); !errors.Is(err, stages.ErrNotCached) || runs["fetch"] != 1 {
		t.Fatalf("a snapshot younger than minAge: %v after %d fetches", err, runs["fetch"])
	}
	if doc, err := run(stages.Request{URL: u, CacheOnly: true, MinAge: &zero}); err != nil || !doc.Cached() {
		t.Fatalf("minAge 0: %v", err)
	}
}

// tunedKind is the cache kind whose stages are handed to tune when built.
func tunedKind(tune []func(*Stage)) stages.Kind {
	k := Kind()
	newStage := k.New
	k.New = func(body hcl.Body, deps stages.Deps) (stages.Stage, hcl.Diagnostics) {
		st, diags := newStage(body, deps)
		for _, fn := range tune {
			fn(st.(*Stage))
		}
		return st, diags
	}
	return k
}

// tableStore is the store's cache as the stages use it, as sift assembles it.
type tableStore struct{ *store.CacheTable }

func (c tableStore) At(stage int) stages.CacheStore { return tableStore{c.CacheTable.At(stage)} }

// GetMemo is the table's GetMemo with its memo as a stages.Memo.
func (c tableStore) GetMemo(ctx context.Context, key string) ([]byte, time.Time, stages.Memo, bool, error) {
	snap, takenAt, memo, ok, err := c.CacheTable.GetMemo(ctx, key)
	if memo == nil {
		return snap, takenAt, nil, ok, err
	}
	return snap, takenAt, memo, ok, err
}

// classStore records the class of each put.
type classStore struct {
	stages.CacheStore
	restricted *[]bool
}

func (c classStore) Put(ctx context.Context, key string, snap []byte, expires time.Time, restricted bool) error {
	*c.restricted = append(*c.restricted, restricted)
	return c.CacheStore.Put(ctx, key, snap, expires, restricted)
}

// TestCachePutsInTheCallersClass: the cache stage stores each snapshot in
// the share of its caller's class, and each class then hits its own.
func TestCachePutsInTheCallersClass(t *testing.T) {
	var classes []bool
	st := &Stage{store: classStore{tableStore{openStore(t).CacheTableIn(1<<20, 0, 0.25)}.At(3), &classes},
		ttl: time.Hour, maxTTL: time.Hour, now: time.Now, position: "3:guard,fetch,extract:"}
	for _, restricted := range []bool{false, true} {
		doc := &stages.Doc{Request: stages.Request{URL: "http://a.example/", Restricted: restricted},
			Target:   &stages.Target{URL: "http://a.example/"},
			Response: &stages.Response{FinalURL: "http://a.example/", Status: 200, Header: http.Header{}, Body: []byte("x"), ContentType: "text/plain"}}
		if err := st.Run(context.Background(), doc); err != nil {
			t.Fatal(err)
		}
	}
	if !reflect.DeepEqual(classes, []bool{false, true}) {
		t.Fatalf("puts in classes %v, want the unrestricted caller's then the restricted one's", classes)
	}
	for _, restricted := range []bool{false, true} {
		doc := &stages.Doc{Request: stages.Request{URL: "http://a.example/", Restricted: restricted}, Target: &stages.Target{URL: "http://a.example/"}}
		if ok, err := st.Resume(context.Background(), doc); !ok || err != nil {
			t.Errorf("restricted %v: no hit on the class's own entry (%v)", restricted, err)
		}
	}
}

// A cache after extract keys on the request's extractor options: a read
// with images (a Firecrawl scrape's) and one without (/v1/fetch's
// default) are entries of their own, each a hit for its like, and the
// options' order is no part of the key.
func TestCacheKeysOnExtractorOptions(t *testing.T) {
	runs := map[string]int{}
	c := buildChain(t, []string{"guard", "fetch", "extract", "cache"}, runs, http.Header{})
	read := func(opts map[string]string) *stages.Doc {
		t.Helper()
		doc := &stages.Doc{Request: stages.Request{URL: "http://a.example/", Options: opts}}
		if err := c.Run(context.Background(), doc); err != nil {
			t.Fatal(err)
		}
		return doc
	}
	for i, step := range []struct {
		opts   map[string]string
		cached bool
	}{
		{nil, false},
		{map[string]string{"images": "true"}, false},
		{map[string]string{"images": "true", "html": "true"}, false},
		{nil, true},
		{map[string]string{"images": "true"}, true},
		{map[string]string{"html": "true", "images": "true"}, true},
		{map[string]string{"images": "false"}, false},
	} {
		if doc := read(step.opts); doc.Cached() != step.cached {
			t.Errorf("read %d %v: cached %v, want %v", i+1, step.opts, doc.Cached(), step.cached)
		}
	}
	if runs["fetch"] != 4 || runs["extract"] != 4 {
		t.Errorf("runs %v: want one fetch and extraction per set of options", runs)
	}
}

// A snapshot stored for longer than its status may be kept (a 503 an
// earlier build kept for the default ttl, a 404 past NegativeTTL) is a
// miss, not an answer.
func TestResumeRefusesWhatItsStatusMayNotKeep(t *testing.T) {
	now := time.Now() // the store checks expiry against the clock
	tests := []struct {
		status int
		age    time.Duration
		hit    bool
	}{
		{200, time.Hour, true},
		{503, time.Second, false},
		{429, time.Second, false},
		{404, time.Minute, true},
		{404, NegativeTTL, false},
	}
	for _, tc := range tests {
		st := openStore(t)
		var stage *Stage
		runs := map[string]int{}
		c := buildChainOn(t, st, []string{"guard", "fetch", "extract", "cache"}, runs, http.Header{},
			func(s *Stage) { stage = s; s.now = func() time.Time { return now } })
		doc := &stages.Doc{Request: stages.Request{URL: "http://a.example/"}, Target: &stages.Target{URL: "http://a.example/"},
			Response: &stages.Response{Status: tc.status, Header: http.Header{}, Body: []byte("x"), ContentType: "text/html"}}
		snap, err := snapshot(doc, now.Add(-tc.age))
		if err != nil {
			t.Fatal(err)
		}
		if err := stage.store.Put(context.Background(), stage.key(doc), snap, now.Add(time.Hour), false); err != nil {
			t.Fatal(err)
		}
		if got := run(t, c, "http://a.example/", ""); got.Cached() != tc.hit {
			t.Errorf("%d aged %s: cached %v, want %v", tc.status, tc.age, got.Cached(), tc.hit)
		}
	}
}

// The fetch of a status only errors have is not stored: the next request
// goes to the origin again, whose success is then kept.
func TestErrorStatusNotCached(t *testing.T) {
	for _, status := range []int{503, 429, 500} {
		runs := map[string]int{}
		statuses := []int{status, 200, 200}
		reg := func(d *stages.Doc) {
			d.Response = &stages.Response{FinalURL: d.Request.URL, Status: statuses[runs["fetch"]-1],
				Header: http.Header{"Retry-After": {"5"}}, Body: []byte("<p>x</p>"), ContentType: "text/html"}
		}
		c := buildWithFetch(t, tableStore{openStore(t).CacheTable(1 << 20)}, []string{"guard", "fetch", "extract", "cache"}, runs, reg)
		var got []bool
		for range statuses {
			got = append(got, run(t, c, "http://a.example/", "").Cached())
		}
		if want := []bool{false, false, true}; !reflect.DeepEqual(got, want) || runs["fetch"] != 2 {
			t.Errorf("%d then 200, 200: cached %v after %d fetches, want %v after 2", status, got, runs["fetch"], want)
		}
	}
}
