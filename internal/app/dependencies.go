package app

import (
	"github.com/siftd/sift/health"
)

// Dependencies returns a probe for each outside service the configuration
// names: the chat endpoint of every built-in digester ("digester/NAME"),
// as the configured digester reports it, and the context source
// ("context/honcho"). Honcho is only dialled: sift calls no route of it
// but search.
func (a *App) Dependencies() map[string]health.Probe {
	probes := map[string]health.Probe{}
	for name, u := range a.Host.DigesterUpstreams() {
		url, key := u.Upstream()
		probes["digester/"+name] = health.Models(url, key)
	}
	if c := a.Config.Context; c != nil {
		probes["context/"+c.Kind] = health.Dial(c.URL)
	}
	return probes
}
