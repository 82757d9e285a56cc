package guard

import (
	"encoding/json"
	"errors"
	"net/netip"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// corpusDir holds the guard's cases, shared with the black-box suite
// (e2e/ssrf); its README says what each file holds.
var corpusDir = filepath.Join("..", "testdata", "ssrf")

type corpusCase struct {
	ID      string `json:"id"`
	URL     string `json:"url"`
	Expect  string `json:"expect"`
	Stage   string `json:"stage"`
	Why     string `json:"why"`
	DNSCase string `json:"dns_case"`
	Config  *struct {
		AllowHosts []string `json:"allow_hosts"`
		AllowCIDRs []string `json:"allow_cidrs"`
		AllowPorts []int    `json:"allow_ports"`
	} `json:"config"`
}

// caseFiles are the public cases and the project's own (ids "sift-...");
// dnsFiles the fake DNS entries each needs.
var (
	caseFiles = []string{"corpus.json", "sift_cases.json"}
	dnsFiles  = []string{"dns_cases.json", "sift_dns.json"}
)

func loadCorpus(t *testing.T, stage string) []corpusCase {
	t.Helper()
	var all []corpusCase
	for _, name := range caseFiles {
		raw, err := os.ReadFile(filepath.Join(corpusDir, name))
		if err != nil {
			t.Fatal(err)
		}
		var cases []corpusCase
		if err := json.Unmarshal(raw, &cases); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		all = append(all, cases...)
	}
	var out []corpusCase
	for _, c := range all {
		if c.Stage == stage {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no %s cases in the corpus", stage)
	}
	return out
}

func (c corpusCase) policy(t *testing.T) *Policy {
	p := DefaultPolicy()
	if c.Config == nil {
		return p
	}
	p.AllowHosts = c.Config.AllowHosts
	if c.Config.AllowPorts != nil {
		p.AllowPorts = c.Config.AllowPorts
	}
	for _, s := range c.Config.AllowCIDRs {
		p.AllowCIDRs = append(p.AllowCIDRs, netip.MustParsePrefix(s))
	}
	return p
}

// verdict turns an error into the corpus's words, failing on an error that
// is not a policy refusal.
func verdict(t *testing.T, c corpusCase, err error) string {
	if err == nil {
		return "allow"
	}
	// A name that does not resolve is blocked too: nothing is dialled.
	if !strings.HasPrefix(err.Error(), "blocked: ") && !errors.Is(err, ErrNoSuchHost) && !errors.Is(err, ErrResolveFailed) {
		t.Errorf("%s: refusal %q is not a policy refusal", c.ID, err)
	}
	return "block"
}

func reportMismatches(t *testing.T, stage string, mismatches []string, total int) {
	t.Helper()
	if len(mismatches) > 0 {
		sort.Strings(mismatches)
		t.Fatalf("%d of %d %s cases disagree with the corpus:\n  %s", len(mismatches), total, stage, strings.Join(mismatches, "\n  "))
	}
}

func TestCorpusPrecheck(t *testing.T) {
	cases := loadCorpus(t, "precheck")
	var mismatches []string
	for _, c := range cases {
		_, err := c.policy(t).PreCheck(c.URL)
		if got := verdict(t, c, err); got != c.Expect {
			mismatches = append(mismatches, c.ID+": got "+got+" ("+errText(err)+"), want "+c.Expect+" — "+c.Why)
		}
	}
	t.Logf("%d precheck cases", len(cases))
	reportMismatches(t, "precheck", mismatches, len(cases))
}

func errText(err error) string {
	if err == nil {
		return "no error"
	}
	return err.Error()
}
