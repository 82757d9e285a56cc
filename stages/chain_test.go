package stages

import (
	"context"
	"net"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/siftd/sift/config"
)

// guardStage is a stage that is also a URL guard.
type guardStage struct{ recorder }

func (guardStage) Vet(context.Context, string) (*Target, error)    { return &Target{}, nil }
func (guardStage) Dial(context.Context, *Target) (net.Conn, error) { return nil, nil }

// TestBuildPassesTheGuardOn: the stages after a stage that is a URL guard
// are built with it as deps.Guard; the stages before it are not, and the
// built stages are found by kind.
func TestBuildPassesTheGuardOn(t *testing.T) {
	seen := map[string]URLGuard{}
	kind := func(name string, s Stage) Kind {
		return Kind{Name: name, Repeatable: true, New: func(_ hcl.Body, deps Deps) (Stage, hcl.Diagnostics) {
			seen[name] = deps.Guard
			return s, nil
		}}
	}
	g := guardStage{recorder{"guard"}}
	reg := NewRegistry(kind("before", recorder{"before"}), kind("guard", g), kind("after", recorder{"after"}))
	var blocks []config.Stage
	for _, k := range []string{"before", "guard", "after"} {
		blocks = append(blocks, config.Stage{Kind: k, Body: hcl.EmptyBody()})
	}
	c, diags := Build(blocks, reg, Deps{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if seen["before"] != nil || seen["after"] != URLGuard(g) {
		t.Fatalf("guards seen: %v", seen)
	}
	if c.Stage("guard") != Stage(g) || c.Stage("missing") != nil || len(c.StagesOf("after")) != 1 {
		t.Fatal("the built stages are not found by kind")
	}
}
