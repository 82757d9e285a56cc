package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// configSeries are the series of the running build and configuration,
// named as Prometheus names its own (prometheus_build_info,
// prometheus_config_last_reload_successful), so the alerts and panels
// written for those read sift's too.
type configSeries struct {
	build         *prometheus.GaugeVec
	reloadOK      prometheus.Gauge
	reloadSuccess prometheus.Gauge
}

func newConfigSeries() configSeries {
	return configSeries{
		build: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "sift_build_info", Help: "Always 1, labelled with the running build's version, VCS revision and Go version.",
		}, []string{"version", "revision", "goversion"}),
		reloadOK: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "sift_config_last_reload_successful",
			Help: "Whether the last attempt to load the configuration file (at start or on SIGHUP) succeeded: 1, or 0 while the running configuration is an older one.",
		}),
		reloadSuccess: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "sift_config_last_reload_success_timestamp_seconds",
			Help: "Unix time of the last successful load of the configuration file.",
		}),
	}
}

func (c configSeries) collectors() []prometheus.Collector {
	return []prometheus.Collector{c.build, c.reloadOK, c.reloadSuccess}
}

// SetBuild names the running build in sift_build_info.
func (m *Metrics) SetBuild(version, revision, goVersion string) {
	m.config.build.Reset()
	m.config.build.WithLabelValues(version, revision, goVersion).Set(1)
}

// ConfigLoaded records an attempt to load the configuration file at at:
// the start's, or a reload's; a refused one leaves the last success's
// time.
func (m *Metrics) ConfigLoaded(ok bool, at time.Time) {
	if !ok {
		m.config.reloadOK.Set(0)
		return
	}
	m.config.reloadOK.Set(1)
	m.config.reloadSuccess.Set(float64(at.UnixNano()) / 1e9)
}
