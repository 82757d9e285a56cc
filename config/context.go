package config

import (
	"fmt"
	"os"
	"time"

	"github.com/hashicorp/hcl/v2"
)

// Context is where the context stage looks up what the agent's team
// already knows. Honcho is the one kind there is.
type Context struct {
	Kind string
	URL  string
	// Key is the bearer token, read from the environment variable the
	// block's api_key_env names; "" sends none (Honcho without auth).
	Key     string
	Limit   int
	Timeout time.Duration
}

// Defaults of the context block.
const (
	DefaultContextLimit   = 5
	DefaultContextTimeout = 3 * time.Second
)

type rawContext struct {
	Kind      string         `hcl:"kind,label"`
	URL       string         `hcl:"url" type:"string" doc:"the Honcho server's base URL"`
	APIKeyEnv *string        `hcl:"api_key_env,optional" type:"string" doc:"name of the environment variable holding Honcho's bearer token (none sent when unset)"`
	Limit     hcl.Expression `hcl:"limit,optional" type:"number" doc:"hits attached at most (1–100, default 5)"`
	Timeout   hcl.Expression `hcl:"timeout,optional" type:"duration" doc:"deadline of one lookup (default \"3s\"); a slow source is skipped with a warning"`
	DefRange  hcl.Range      `hcl:",def_range"`
}

func (r *rawFile) context(diags hcl.Diagnostics) (*Context, hcl.Diagnostics) {
	if len(r.Contexts) == 0 {
		return nil, diags
	}
	for _, extra := range r.Contexts[1:] {
		diags = append(diags, attrError(extra.DefRange.Ptr(), "Duplicate context block",
			"sift reads context from one source; remove all but one context block."))
	}
	rc := r.Contexts[0]
	if rc.Kind != "honcho" {
		diags = append(diags, attrError(rc.DefRange.Ptr(), "Unsupported context kind",
			fmt.Sprintf("context %q is not supported; the kind is \"honcho\".", rc.Kind)))
	}
	c := &Context{Kind: rc.Kind, URL: rc.URL}
	diags = append(diags, checkURL(rc.DefRange, "context url", rc.URL)...)
	if rc.APIKeyEnv != nil {
		c.Key = os.Getenv(*rc.APIKeyEnv)
	}
	c.Limit, diags = optInt(rc.Limit, DefaultContextLimit, 1, 100, diags)
	c.Timeout, diags = optDuration(rc.Timeout, DefaultContextTimeout, diags)
	return c, diags
}
