package metrics

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestConfigSeries: sift_build_info names the build; a refused load sets
// sift_config_last_reload_successful to 0 and keeps the time of the last
// success, as Prometheus' own series do.
func TestConfigSeries(t *testing.T) {
	m := New()
	m.SetBuild("v1.2.3", "0123abc", runtime.Version())
	start := time.Unix(1_700_000_000, 500_000_000)
	steps := []struct {
		ok      bool
		at      time.Time
		want    string
		success time.Time
	}{
		{true, start, "1", start},
		{false, start.Add(time.Minute), "0", start},
		{true, start.Add(2 * time.Minute), "1", start.Add(2 * time.Minute)},
	}
	for i, st := range steps {
		m.ConfigLoaded(st.ok, st.at)
		text := scrape(t, m)
		for _, want := range []string{
			fmt.Sprintf(`sift_build_info{goversion=%q,revision="0123abc",version="v1.2.3"} 1`, runtime.Version()),
			"sift_config_last_reload_successful " + st.want,
			fmt.Sprintf("sift_config_last_reload_success_timestamp_seconds %g", float64(st.success.UnixNano())/1e9),
		} {
			if !strings.Contains(text, want) {
				t.Errorf("step %d: /metrics lacks %s", i, want)
			}
		}
	}
}
