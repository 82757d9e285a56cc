package cache

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/siftd/sift/stages"
)

// TestHitsShareOneDecoding: a snapshot in memory is decoded once; each
// hit gets parts of its own, so what one request fills in (a count, a
// title) never shows in another's answer; the Doc carries the snapshot's
// memo only when no stage runs after the checkpoint; and a request's
// max age still refuses a snapshot decoded earlier.
func TestHitsShareOneDecoding(t *testing.T) {
	runs := map[string]int{}
	c := buildChain(t, []string{"guard", "fetch", "extract", "cache"}, runs, http.Header{})
	if miss := run(t, c, "http://a.example/", ""); miss.Cached() || miss.Memo != nil {
		t.Fatalf("a miss: cached %v, memo %v", miss.Cached(), miss.Memo)
	}
	first := run(t, c, "http://a.example/", "")
	if !first.Cached() || first.Memo == nil {
		t.Fatalf("a hit: cached %v, memo %v", first.Cached(), first.Memo)
	}
	decoded, ok := first.Memo.Load(memoDoc)
	if !ok {
		t.Fatal("the decoded snapshot was not kept")
	}
	first.Response.Tokens, first.Extraction.Title = 99, "changed by a reader"
	first.Warnings = append(first.Warnings, "one request's warning")
	second := run(t, c, "http://a.example/", "")
	if again, _ := second.Memo.Load(memoDoc); again != decoded {
		t.Error("the second hit decoded the snapshot again")
	}
	if second.Response.Tokens == 99 || second.Extraction.Title != "" || len(second.Warnings) != 0 {
		t.Errorf("one hit's changes reached another: tokens %d, title %q, warnings %q",
			second.Response.Tokens, second.Extraction.Title, second.Warnings)
	}
	if second.Response == first.Response || second.Extraction == first.Extraction {
		t.Error("two hits share a Response or an Extraction")
	}

	zero := time.Duration(0)
	doc := &stages.Doc{Request: stages.Request{URL: "http://a.example/", MaxAge: &zero}}
	if err := c.Run(context.Background(), doc); err != nil {
		t.Fatal(err)
	}
	if doc.Cached() || runs["fetch"] != 2 {
		t.Errorf("max age 0 was answered from the decoded snapshot: cached %v, fetches %d", doc.Cached(), runs["fetch"])
	}

	after := buildChain(t, []string{"guard", "fetch", "extract", "cache", "digest"}, map[string]int{}, http.Header{})
	run(t, after, "http://a.example/", "q")
	if hit := run(t, after, "http://a.example/", "q"); !hit.Cached() || hit.Memo != nil {
		t.Errorf("a stage ran after the checkpoint, yet the Doc carries its memo (cached %v)", hit.Cached())
	}
}

// TestMemoryAttribute: a cache block's memory is its budget in memory,
// unset it leaves the default to the assembly, and a size it cannot be is
// refused.
func TestMemoryAttribute(t *testing.T) {
	tests := []struct {
		src     string
		want    int64
		refused bool
	}{
		{``, 0, false},
		{`memory = "8MiB"`, 8 << 20, false},
		{`memory = "0"`, 0, true},
		{`memory = "lots"`, 0, true},
	}
	for _, tt := range tests {
		f, diags := hclsyntax.ParseConfig([]byte(tt.src), "test.hcl", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		st, diags := New(f.Body, stages.Deps{})
		if diags.HasErrors() != tt.refused {
			t.Errorf("%q: diagnostics %v, want refused %v", tt.src, diags, tt.refused)
			continue
		}
		if !tt.refused {
			if got := st.(*Stage).Memory(); got != tt.want {
				t.Errorf("%q: memory %d, want %d", tt.src, got, tt.want)
			}
		}
	}
}

// TestRestrictedShareAttribute: a cache block's restricted_share is a part
// of max_bytes from 0 to 1; unset it leaves the default to the assembly,
// and anything else is refused.
func TestRestrictedShareAttribute(t *testing.T) {
	tests := []struct {
		src     string
		want    float64
		set     bool
		refused bool
	}{
		{``, 0, false, false},
		{`restricted_share = 0.1`, 0.1, true, false},
		{`restricted_share = 0`, 0, true, false},
		{`restricted_share = 1`, 1, true, false},
		{`restricted_share = 1.5`, 0, false, true},
		{`restricted_share = -0.25`, 0, false, true},
		{`restricted_share = "a quarter"`, 0, false, true},
	}
	for _, tt := range tests {
		f, diags := hclsyntax.ParseConfig([]byte(tt.src), "test.hcl", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		st, diags := New(f.Body, stages.Deps{})
		if diags.HasErrors() != tt.refused {
			t.Errorf("%q: diagnostics %v, want refused %v", tt.src, diags, tt.refused)
			continue
		}
		if !tt.refused {
			if got, set := st.(*Stage).RestrictedShare(); got != tt.want && set || set != tt.set {
				t.Errorf("%q: share %v (set %v), want %v (set %v)", tt.src, got, set, tt.want, tt.set)
			}
		}
	}
}
