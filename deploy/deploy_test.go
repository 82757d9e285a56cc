// Package deploy holds what operators install beside sift: the systemd
// unit, the Grafana dashboard and the Prometheus alert rules. Its test
// checks the dashboard and the rules against a real /metrics of sift.
package deploy

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/internal/daemon"
	"github.com/siftd/sift/internal/testkit/testenv"
	"github.com/siftd/sift/metrics"
	"github.com/siftd/sift/plugins/host"
	"github.com/siftd/sift/plugins/html"
)

const (
	alertRules = "prometheus/sift-alerts.yml"
	alertTests = "prometheus/sift-alerts.test.yml"
	dashboard  = "grafana/sift.json"
)

func TestAlertRulesPassPromtool(t *testing.T) {
	testenv.NeedCommand(t, "promtool", "apt-get install prometheus")
	out, err := exec.Command("promtool", "check", "rules", alertRules).CombinedOutput()
	if err != nil {
		t.Fatalf("promtool check rules: %v\n%s", err, out)
	}
}

// TestAlertRulesFire runs the rules' unit tests: the alerts fire on
// series as sift exports them (SiftGuardProbing counts the first refusals
// because every rule's series starts at zero; SiftConfigReloadFailed fires
// on a refused reload and clears on a good one).
func TestAlertRulesFire(t *testing.T) {
	testenv.NeedCommand(t, "promtool", "apt-get install prometheus")
	cmd := exec.Command("promtool", "test", "rules", "sift-alerts.test.yml")
	cmd.Dir = "prometheus"
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("promtool test rules %s: %v\n%s", alertTests, err, out)
	}
}

// TestMetricsPassPromtool lints a scrape of sift's real /metrics, after a
// few requests, the way Prometheus's own linter sees it.
func TestMetricsPassPromtool(t *testing.T) {
	testenv.NeedCommand(t, "promtool", "apt-get install prometheus")
	page := scrapeSift(t)
	cmd := exec.Command("promtool", "check", "metrics")
	cmd.Stdin = strings.NewReader(page)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("promtool check metrics: %v\n%s", err, out)
	}
}

// TestArtefactsNameRealSeries: every series the dashboard and the alert
// rules query is one sift exports, so a renamed series fails here rather
// than leaving a panel empty or an alert that can never fire.
func TestArtefactsNameRealSeries(t *testing.T) {
	page := scrapeSift(t)
	raw, err := os.ReadFile(dashboard)
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(raw, &dash); err != nil {
		t.Fatalf("%s: %v", dashboard, err)
	}
	if len(dash.Panels) == 0 {
		t.Fatalf("%s has no panels", dashboard)
	}
	rules, err := os.ReadFile(alertRules)
	if err != nil {
		t.Fatal(err)
	}
	exprs := []string{string(rules)}
	for _, p := range dash.Panels {
		if len(p.Targets) == 0 {
			t.Errorf("panel %q queries nothing", p.Title)
		}
		for _, tg := range p.Targets {
			exprs = append(exprs, tg.Expr)
		}
	}
	series := regexp.MustCompile(`\bsift_[a-z_]+`)
	for _, e := range exprs {
		for _, name := range series.FindAllString(e, -1) {
			family := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(name, "_bucket"), "_count"), "_sum")
			if !strings.Contains(page, "# TYPE "+family+" ") {
				t.Errorf("%s is not a series sift exports", name)
			}
		}
	}
}

// scrapeSift runs sift's API on a real chain with two callers and returns
// its /metrics after a fetch, a refusal and a 401.
func scrapeSift(t *testing.T) string {
	t.Helper()
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><head><title>T</title></head><body><article><p>Words enough to extract.</p></article></body></html>")
	}))
	t.Cleanup(origin.Close)
	port := origin.Listener.Addr().(*net.TCPAddr).Port
	src := fmt.Sprintf(`
data_dir = %q
caller "agent" {
  key_sha256 = "4525af7e8f344cc741a6e9608adc2f8a4c5d1303103ca9ac907b698232109aea"
}
caller "other" {
  key_sha256 = "1377c1a984d5a3f51cf602be0a02ae75580a1ec45c38b6a3ec2570bdfcb8bf70"
}
pipeline {
  stage "guard" {
    allow_ports = [80, 443, %d]
    allow_cidrs = ["127.0.0.0/8"]
  }
  stage "fetch" {}
  stage "extract" {}
  stage "cache" {}
}
extractor "html" {
  isolation = "none"
}
extractor "json" {
  isolation = "none"
}
extractor "text" {
  isolation = "none"
}
extractor "pdf" {
  isolation = "none"
}
search {
  searxng {
    url = "http://127.0.0.1:1"
  }
}
`, t.TempDir(), port)
	cfg, diags := config.Parse([]byte(src), "test.hcl")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	m := metrics.New()
	quiet := slog.New(slog.DiscardHandler)
	d, diags := daemon.New(context.Background(), cfg, daemon.Options{Logger: quiet, Metrics: m, Extractors: host.Builtins{"html": html.New}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	t.Cleanup(func() { _ = d.Close(context.Background()) })
	// In process (isolation "none") the extractors have no pools; serve
	// starts the series of each pool it runs.
	var plugins []string
	for _, p := range cfg.Extractors {
		plugins = append(plugins, p.Name)
	}
	m.SetPlugins(plugins)
	srv := httptest.NewServer(d)
	t.Cleanup(srv.Close)
	for _, r := range []struct{ key, url string }{
		{"sift-dev-key", origin.URL + "/"},
		{"sift-dev-key", origin.URL + "/"},
		{"sift-dev-key", "http://10.0.0.5/"},
		{"wrong", origin.URL + "/"},
	} {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/fetch", strings.NewReader(`{"url":"`+r.url+`"}`))
		req.Header.Set("Authorization", "Bearer "+r.key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	resp, err := http.Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	page, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(page), `sift_http_requests_total{caller="agent",route="/v1/fetch",status="200"} 2`) {
		t.Fatalf("the scrape does not show the fetches:\n%s", page)
	}
	return string(page)
}
