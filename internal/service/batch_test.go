package service

import (
	"context"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/siftd/sift/batch"
	"github.com/siftd/sift/config"
	"github.com/siftd/sift/stages"
)

// shareRecorder is a stage that keeps the pool share of each request it
// sees, and answers as a fetch would.
type shareRecorder struct{ shares *[]string }

func (r shareRecorder) Run(_ context.Context, d *stages.Doc) error {
	*r.shares = append(*r.shares, d.Request.Share)
	d.Response = &stages.Response{FinalURL: d.Request.URL, Status: 200, Body: []byte("x"), ContentType: "text/plain"}
	return nil
}

// TestBatchWorkHasAShareOfItsOwn: a batch target runs as its caller, under
// the caller's batch share, so plugin pools never give a batch the
// caller's interactive slot; an interactive request keeps the caller's.
func TestBatchWorkHasAShareOfItsOwn(t *testing.T) {
	t.Parallel()
	var shares []string
	reg := stages.NewRegistry(stages.Kind{Name: "record", New: func(hcl.Body, stages.Deps) (stages.Stage, hcl.Diagnostics) {
		return shareRecorder{&shares}, nil
	}})
	chain, diags := stages.Build([]config.Stage{{Kind: "record", Body: hcl.EmptyBody()}}, reg, stages.Deps{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	hash := make([]byte, 32)
	s := New(Options{Chain: chain, Callers: []config.Caller{{Name: "alice", KeyHash: hash}},
		Gates: NewGates(config.Gates{Wait: config.DefaultGateWait, Queue: config.DefaultGateQueue}, GateSizes{}, nil)})
	run := func(c *Caller) {
		t.Helper()
		if _, ae := s.Run(t.Context(), c, stages.Request{URL: "https://example.org/"}); ae != nil {
			t.Fatal(ae)
		}
	}
	alice := &s.Callers()[0]
	run(alice)
	worker, err := s.BatchWorker(batch.Caller{Name: "alice", Key: batch.KeyID(hash)})
	if err != nil {
		t.Fatal(err)
	}
	run(worker)
	if _, err := s.BatchWorker(batch.Caller{Name: "alice", Key: batch.KeyID(make([]byte, 31))}); err == nil {
		t.Error("a target whose caller's key changed still ran")
	}
	if len(shares) != 2 || shares[0] != "alice" || shares[1] != "alice/batch" {
		t.Fatalf("shares %q, want alice then alice/batch", shares)
	}
	if alice.Batch {
		t.Error("a batch target marked the configured caller itself as batch work")
	}
}
