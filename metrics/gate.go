package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

func newGateWait() *prometheus.HistogramVec {
	v := prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "sift_gate_wait_seconds",
		Help:    "Time a request that goes to the origin waited for its gates, by outcome (admitted, refused).",
		Buckets: []float64{.001, .01, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
	}, []string{"outcome"})
	for _, o := range []string{"admitted", "refused"} {
		v.WithLabelValues(o) // present at zero from start
	}
	return v
}

// GateWait records how long one request waited for its gates and whether
// it was admitted or refused busy.
func (m *Metrics) GateWait(waited time.Duration, admitted bool) {
	outcome := "refused"
	if admitted {
		outcome = "admitted"
	}
	m.gateWait.WithLabelValues(outcome).Observe(waited.Seconds())
}
