package stages

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/siftd/sift/config"
)

// recorder is a stage that records its runs in the Doc's warnings.
type recorder struct{ name string }

func (r recorder) Run(_ context.Context, doc *Doc) error {
	doc.Warn("ran " + r.name)
	return nil
}

// snapshotter is a checkpoint holding a snapshot when fresh is set.
type snapshotter struct {
	name  string
	fresh bool
}

func (s *snapshotter) Run(_ context.Context, doc *Doc) error {
	doc.Warn("stored " + s.name)
	return nil
}

func (s *snapshotter) Resume(_ context.Context, doc *Doc) (bool, error) {
	if !s.fresh {
		return false, nil
	}
	doc.Warn("resumed " + s.name)
	return true, nil
}

type failing struct{}

func (failing) Run(context.Context, *Doc) error { return errors.New("boom") }

// chainOf builds a chain directly: the stages under test, bypassing HCL.
func chainOf(stages ...*bound) *Chain { return &Chain{stages: stages} }

func st(name string, s Stage, always bool) *bound {
	return &bound{kind: Kind{Name: name, AlwaysRun: always}, stage: s}
}

func runLog(t *testing.T, c *Chain, doc *Doc) []string {
	t.Helper()
	if err := c.Run(context.Background(), doc); err != nil {
		t.Fatal(err)
	}
	return doc.Warnings
}

func TestRunCheckpoints(t *testing.T) {
	tests := []struct {
		name        string
		early, late bool // fresh snapshots at the two caches
		want        []string
	}{
		{"no snapshot runs everything", false, false,
			[]string{"ran guard", "ran fetch", "ran extract", "stored early", "ran digest", "stored late"}},
		{"furthest snapshot wins", true, true,
			[]string{"ran guard", "resumed late"}},
		{"earlier snapshot skips the stages before it", true, false,
			[]string{"ran guard", "resumed early", "ran digest", "stored late"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := chainOf(
				st("guard", recorder{"guard"}, true),
				st("fetch", recorder{"fetch"}, false),
				st("extract", recorder{"extract"}, false),
				st("cache", &snapshotter{"early", tc.early}, false),
				st("digest", recorder{"digest"}, false),
				st("cache", &snapshotter{"late", tc.late}, false),
			)
			if got := runLog(t, c, &Doc{}); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ran %q, want %q", got, tc.want)
			}
		})
	}
}

// An always-run stage placed after a checkpoint-free prefix still runs when
// the runner resumes past it.
func TestAlwaysRunBetweenStages(t *testing.T) {
	c := chainOf(
		st("fetch", recorder{"fetch"}, false),
		st("guard", recorder{"guard"}, true),
		st("extract", recorder{"extract"}, false),
		st("cache", &snapshotter{"cache", true}, false),
		st("digest", recorder{"digest"}, false),
	)
	want := []string{"resumed cache", "ran guard", "ran digest"}
	if got := runLog(t, c, &Doc{}); !reflect.DeepEqual(got, want) {
		t.Errorf("ran %q, want %q", got, want)
	}
}

func TestContentTypesFilter(t *testing.T) {
	c := chainOf(
		&bound{kind: Kind{Name: "digest"}, stage: recorder{"digest"}, contentTypes: []string{"text/html", "application/*+json"}},
	)
	tests := []struct {
		contentType string
		ran         bool
	}{
		{"text/html; charset=utf-8", true},
		{"application/ld+json", true},
		{"application/pdf", false},
	}
	for _, tc := range tests {
		doc := &Doc{Response: &Response{ContentType: tc.contentType}}
		got := runLog(t, c, doc)
		if ran := len(got) == 1; ran != tc.ran {
			t.Errorf("%s: ran = %v, want %v", tc.contentType, ran, tc.ran)
		}
		if !tc.ran && (len(doc.Timings) != 1 || !doc.Timings[0].Skipped) {
			t.Errorf("%s: timings %+v, want one skipped entry", tc.contentType, doc.Timings)
		}
	}
}

func TestErrorsNameTheStage(t *testing.T) {
	c := chainOf(st("fetch", failing{}, false))
	err := c.Run(context.Background(), &Doc{})
	if err == nil || err.Error() != "stage fetch: boom" {
		t.Fatalf("err = %v", err)
	}
	plugin := chainOf(st("extract", pluginFailing{}, false))
	err = plugin.Run(context.Background(), &Doc{})
	if err == nil || err.Error() != "stage extract (pdf): bad xref" {
		t.Fatalf("err = %v", err)
	}
}

type pluginFailing struct{}

func (pluginFailing) Run(context.Context, *Doc) error {
	return PluginError("pdf", errors.New("bad xref"))
}

func TestBuildRules(t *testing.T) {
	kinds := NewRegistry(
		Kind{Name: "guard", AlwaysRun: true, New: newRecorder("guard")},
		Kind{Name: "fetch", After: []string{"guard"}, New: newRecorder("fetch")},
		Kind{Name: "cache", Repeatable: true, New: newRecorder("cache")},
	)
	blocks := func(kinds ...string) []config.Stage {
		var out []config.Stage
		for i, k := range kinds {
			out = append(out, config.Stage{Kind: k, Body: hcl.EmptyBody(),
				DefRange: hcl.Range{Filename: "c.hcl", Start: hcl.Pos{Line: i + 1}}})
		}
		return out
	}
	tests := []struct {
		name  string
		kinds []string
		want  []string // summaries
	}{
		{"valid", []string{"guard", "cache", "fetch", "cache"}, nil},
		{"order", []string{"fetch", "guard"}, []string{"Stage out of order"}},
		{"missing dependency", []string{"fetch"}, []string{"Stage out of order"}},
		{"duplicate", []string{"guard", "guard"}, []string{"Duplicate stage"}},
		{"unknown", []string{"guard", "gaurd"}, []string{"Unknown stage kind"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := Build(blocks(tc.kinds...), kinds, Deps{})
			var got []string
			for _, d := range diags {
				got = append(got, d.Summary)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("diagnostics %q, want %q", got, tc.want)
			}
		})
	}
}

func newRecorder(name string) func(hcl.Body, Deps) (Stage, hcl.Diagnostics) {
	return func(hcl.Body, Deps) (Stage, hcl.Diagnostics) { return recorder{name}, nil }
}

// TestGateOnlyOnMiss: the gate is taken once for a request that goes past
// the checkpoints to the origin, released when the chain ends, and never
// for one a snapshot answers.
func TestGateOnlyOnMiss(t *testing.T) {
	for _, fresh := range []bool{false, true} {
		taken, released := 0, 0
		gate := func(context.Context) (func(), error) {
			taken++
			return func() { released++ }, nil
		}
		c := chainOf(st("guard", recorder{"guard"}, true), st("fetch", recorder{"fetch"}, false),
			st("cache", &snapshotter{"cache", fresh}, false), st("digest", recorder{"digest"}, false))
		if err := c.Run(context.Background(), &Doc{Request: Request{Gate: gate}}); err != nil {
			t.Fatal(err)
		}
		if want := map[bool]int{false: 1, true: 0}[fresh]; taken != want || released != want {
			t.Errorf("snapshot fresh=%v: gate taken %d, released %d; want %d", fresh, taken, released, want)
		}
	}
}

// TestGateRefusalEndsTheRequest: a busy gate stops the chain before any
// stage past the checkpoints runs.
func TestGateRefusalEndsTheRequest(t *testing.T) {
	busy := errors.New("busy")
	doc := &Doc{Request: Request{Gate: func(context.Context) (func(), error) { return nil, busy }}}
	c := chainOf(st("guard", recorder{"guard"}, true), st("fetch", recorder{"fetch"}, false))
	if err := c.Run(context.Background(), doc); !errors.Is(err, busy) {
		t.Fatalf("err %v, want the gate's", err)
	}
	if want := []string{"ran guard"}; !reflect.DeepEqual(doc.Warnings, want) {
		t.Fatalf("ran %v, want %v", doc.Warnings, want)
	}
}
