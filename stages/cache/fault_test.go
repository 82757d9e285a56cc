package cache

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/siftd/sift/stages"
	"github.com/siftd/sift/store"
)

// faultyStore fails reads or writes with the store's own fault error, as
// a store on a full disk or without its database does.
type faultyStore struct {
	tableStore
	*failing
}

// failing is what a faultyStore and its views fail with.
type failing struct{ read, write *store.FaultError }

func (f *faultyStore) At(stage int) stages.CacheStore {
	return &faultyStore{tableStore: tableStore{f.CacheTable.At(stage)}, failing: f.failing}
}

func (f *faultyStore) GetMemo(ctx context.Context, key string) ([]byte, time.Time, stages.Memo, bool, error) {
	if f.read != nil {
		return nil, time.Time{}, nil, false, f.read
	}
	return f.tableStore.GetMemo(ctx, key)
}

func (f *faultyStore) Put(ctx context.Context, key string, snap []byte, expires time.Time, restricted bool) error {
	if f.write != nil {
		return f.write
	}
	return f.tableStore.Put(ctx, key, snap, expires, restricted)
}

// A read or write the store fails costs the cache, never the answer: the
// request goes on, its answer says what was skipped, and a snapshot stored
// later carries no word of a skip that was true of another request.
func TestStoreFaultCostsTheCacheNotTheAnswer(t *testing.T) {
	unreachable := &store.FaultError{Fault: store.FaultUnreachable}
	full := &store.FaultError{Fault: store.FaultDiskFull}
	tests := []struct {
		name        string
		read, write *store.FaultError
		want        []string
	}{
		{"read fails", unreachable, nil, []string{"cache read skipped: storage unavailable (unreachable)"}},
		{"write fails", nil, full, []string{"cache write skipped: storage unavailable (disk full)"}},
		{"both fail", unreachable, unreachable, []string{"cache read skipped: storage unavailable (unreachable)", "cache write skipped: storage unavailable (unreachable)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := openStore(t)
			fs := &faultyStore{tableStore: tableStore{st.CacheTable(1 << 20)}, failing: &failing{read: tc.read, write: tc.write}}
			runs := map[string]int{}
			c := buildOn(t, fs, []string{"guard", "fetch", "extract", "cache"}, runs, http.Header{})
			doc := &stages.Doc{Request: stages.Request{URL: "http://a.example/"}}
			if err := c.Run(context.Background(), doc); err != nil {
				t.Fatalf("the answer failed: %v", err)
			}
			if doc.Extraction == nil || doc.Extraction.Content != "x" || doc.Cached() {
				t.Fatalf("answer %+v cached %v", doc.Extraction, doc.Cached())
			}
			if !slices.Equal(doc.Warnings, tc.want) {
				t.Errorf("warnings %q, want %q", doc.Warnings, tc.want)
			}
			// The store is back: a hit of what was stored then carries
			// none of the skips' warnings.
			fs.read, fs.write = nil, nil
			for range 2 {
				doc = &stages.Doc{Request: stages.Request{URL: "http://a.example/"}}
				if err := c.Run(context.Background(), doc); err != nil {
					t.Fatal(err)
				}
			}
			if !doc.Cached() || len(doc.Warnings) != 0 {
				t.Errorf("after the fault: cached %v, warnings %q", doc.Cached(), doc.Warnings)
			}
		})
	}
}

// A put that ends with the request's context is no fault of the store:
// nothing is said on an answer that is not going out.
func TestCancelledPutWarnsNothing(t *testing.T) {
	st := openStore(t)
	runs := map[string]int{}
	c := buildOn(t, tableStore{st.CacheTable(1 << 20)}, []string{"guard", "fetch", "extract", "cache"}, runs, http.Header{})
	ctx, cancel := context.WithCancel(context.Background())
	doc := &stages.Doc{Request: stages.Request{URL: "http://a.example/"}}
	s := c.StagesOf("cache")[0].(*Stage)
	doc.Target = &stages.Target{URL: doc.Request.URL}
	doc.Response = &stages.Response{FinalURL: doc.Request.URL, Status: 200, Header: http.Header{}, Body: []byte("<p>x</p>"), ContentType: "text/html"}
	cancel()
	if err := s.Run(ctx, doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Warnings) != 0 {
		t.Errorf("a cancelled put warned %q", doc.Warnings)
	}
}
