package config

import (
	"fmt"
	"slices"

	"github.com/hashicorp/hcl/v2"
)

// Metrics says who may read /metrics, which names every caller and counts
// its requests, tokens and refusals. Without a metrics block it is open,
// as a Prometheus scrape config without credentials expects.
type Metrics struct {
	// KeyRequired makes a scrape send a caller's key, as every other
	// route but /healthz does (Prometheus: authorization.credentials).
	KeyRequired bool
	// Callers, when set, are the only callers whose key may scrape; nil
	// lets every caller's.
	Callers []string
}

type rawMetrics struct {
	KeyRequired *bool          `hcl:"key_required,optional" type:"bool" doc:"a scrape of /metrics must send Authorization: Bearer with a caller's key, else 401 as on the other routes; false, the default, leaves /metrics open"`
	Callers     hcl.Expression `hcl:"callers,optional" type:"list(string)" doc:"the callers whose key may scrape /metrics (default every caller's); needs key_required = true"`
	DefRange    hcl.Range      `hcl:",def_range"`
}

func (r *rawFile) metrics(callers []Caller, diags hcl.Diagnostics) (Metrics, hcl.Diagnostics) {
	var m Metrics
	rm := r.Metrics
	if rm == nil {
		return m, diags
	}
	if rm.KeyRequired != nil {
		m.KeyRequired = *rm.KeyRequired
	}
	names, ds := stringList(rm.Callers, "callers")
	if diags = append(diags, ds...); ds.HasErrors() || isUnset(rm.Callers) {
		return m, diags
	}
	switch {
	case !m.KeyRequired:
		return Metrics{}, append(diags, attrError(rm.Callers.Range().Ptr(), "callers without key_required",
			"callers names who may scrape /metrics when a key is required; add key_required = true, or remove callers to leave /metrics open."))
	case len(names) == 0:
		return Metrics{}, append(diags, attrError(rm.Callers.Range().Ptr(), "Invalid callers",
			"callers lists no caller, so no scrape could succeed; name the callers whose key may scrape, or remove callers to let every caller's."))
	}
	for i, name := range names {
		if !slices.ContainsFunc(callers, func(c Caller) bool { return c.Name == name }) {
			return Metrics{}, append(diags, attrError(elementRange(rm.Callers, i), "Unknown caller",
				fmt.Sprintf("%q is not a caller: no caller block has that name.", name)))
		}
	}
	m.Callers = names
	return m, diags
}
