package config

import (
	"fmt"
	"time"

	"github.com/hashicorp/hcl/v2"
)

// Gates configures how a caller's fetches of one host wait for each other.
// A fetch that finds its gate full waits in line, first come first
// served, for at most Wait (and never past its own deadline); one that
// would find Queue others already waiting, or waits past Wait, is answered
// 429 with Retry-After. Queue 0 refuses at once.
type Gates struct {
	Wait  time.Duration
	Queue int
}

// Defaults of the gates block.
const (
	DefaultGateWait  = 10 * time.Second
	DefaultGateQueue = 16
	// MaxGateWait bounds wait: a waiting request holds the agent's
	// connection and a goroutine.
	MaxGateWait  = 2 * time.Minute
	MaxGateQueue = 1024
)

type rawGates struct {
	Wait  hcl.Expression `hcl:"wait,optional" type:"duration" doc:"longest a request waits in line for a full gate before 429 busy, never past its own deadline (default \"10s\", at most \"2m\")"`
	Queue hcl.Expression `hcl:"queue,optional" type:"number" doc:"requests that may wait per caller and host (0–1024, default 16; 0 refuses at once)"`
}

func (r *rawFile) gates(diags hcl.Diagnostics) (Gates, hcl.Diagnostics) {
	g := Gates{Wait: DefaultGateWait, Queue: DefaultGateQueue}
	rg := r.Gates
	if rg == nil {
		return g, diags
	}
	g.Wait, diags = optDuration(rg.Wait, DefaultGateWait, diags)
	if g.Wait > MaxGateWait {
		diags = append(diags, attrError(rg.Wait.Range().Ptr(), "Value out of range",
			fmt.Sprintf("wait must be at most %s, got %s.", MaxGateWait, g.Wait)))
		g.Wait = DefaultGateWait
	}
	g.Queue, diags = optInt(rg.Queue, DefaultGateQueue, 0, MaxGateQueue, diags)
	return g, diags
}
