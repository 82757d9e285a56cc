package config

import (
	"fmt"
	"net/netip"
	"net/url"
	"os"
	"time"

	"github.com/hashicorp/hcl/v2"
)

// Search configures the search backends. Each is optional; with none,
// search answers "not configured".
type Search struct {
	Timeout time.Duration
	// AllowHosts, AllowCIDRs and AllowPorts let backend traffic reach what
	// the guard otherwise refuses, such as a SearXNG on loopback.
	AllowHosts []string
	AllowCIDRs []netip.Prefix
	AllowPorts []int
	SearXNG    *SearXNG
	Brave      *Brave
	Embed      *Embed
}

// SearXNG is a SearXNG instance with its JSON format enabled.
type SearXNG struct{ URL string }

// Brave is Brave's LLM Context API; the key comes from an environment
// variable so it stays out of the file.
type Brave struct {
	URL string
	Key string
}

// Embed is an OpenAI-compatible embeddings endpoint for reranking.
type Embed struct {
	Endpoint string
	Model    string
	InputCap int
	Timeout  time.Duration
}

type rawSearch struct {
	Timeout    hcl.Expression `hcl:"timeout,optional" type:"duration" doc:"deadline of one search (default \"8s\")"`
	AllowHosts hcl.Expression `hcl:"allow_hosts,optional" type:"list(string)" doc:"host names the search backends may be reached at despite the guard's rules"`
	AllowCIDRs hcl.Expression `hcl:"allow_cidrs,optional" type:"list(string)" doc:"address ranges the search backends may be reached at (a local SearXNG)"`
	AllowPorts []int          `hcl:"allow_ports,optional" type:"list(number)" doc:"ports allowed besides 80 and 443"`
	SearXNG    *struct {
		URL string `hcl:"url" type:"string" doc:"the SearXNG instance's base URL"`
	} `hcl:"searxng,block" doc:"a SearXNG instance"`
	Brave *struct {
		URL       *string `hcl:"url,optional" type:"string" doc:"the Brave API's base URL (default \"https://api.search.brave.com\")"`
		APIKeyEnv string  `hcl:"api_key_env" type:"string" doc:"name of the environment variable holding the Brave API key"`
	} `hcl:"brave,block" doc:"the Brave Search API (LLM context endpoint)"`
	Embed *struct {
		Endpoint string         `hcl:"endpoint" type:"string" doc:"the embeddings server's base URL (…/v1)"`
		Model    *string        `hcl:"model,optional" type:"string" doc:"model name sent with each request"`
		InputCap *int           `hcl:"input_cap,optional" type:"number" doc:"characters of each text sent to be embedded at most (default 2000)"`
		Timeout  hcl.Expression `hcl:"timeout,optional" type:"duration" doc:"deadline of one embeddings call (default \"5s\")"`
	} `hcl:"embed,block" doc:"an OpenAI-compatible embeddings endpoint: reranks search results and max_tokens' parts"`
	DefRange hcl.Range `hcl:",def_range"`
}

// Defaults of the search block.
const (
	DefaultSearchTimeout = 8 * time.Second
	DefaultBraveURL      = "https://api.search.brave.com"
	DefaultEmbedCap      = 2000
	DefaultEmbedTimeout  = 5 * time.Second
)

func (r *rawSearch) decode() (*Search, hcl.Diagnostics) {
	s := &Search{AllowPorts: r.AllowPorts}
	var diags hcl.Diagnostics
	s.AllowHosts, diags = stringList(r.AllowHosts, "allow_hosts")
	cidrs, ds := stringList(r.AllowCIDRs, "allow_cidrs")
	diags = append(diags, ds...)
	s.Timeout, diags = optDuration(r.Timeout, DefaultSearchTimeout, diags)
	for _, c := range cidrs {
		p, err := netip.ParsePrefix(c)
		if err != nil {
			diags = append(diags, attrError(r.DefRange.Ptr(), "Invalid CIDR", fmt.Sprintf("allow_cidrs holds %q: %v.", c, err)))
			continue
		}
		s.AllowCIDRs = append(s.AllowCIDRs, p)
	}
	if r.SearXNG != nil {
		diags = append(diags, checkURL(r.DefRange, "searxng url", r.SearXNG.URL)...)
		s.SearXNG = &SearXNG{URL: r.SearXNG.URL}
	}
	if r.Brave != nil {
		b := &Brave{URL: DefaultBraveURL, Key: os.Getenv(r.Brave.APIKeyEnv)}
		if r.Brave.URL != nil {
			b.URL = *r.Brave.URL
		}
		diags = append(diags, checkURL(r.DefRange, "brave url", b.URL)...)
		s.Brave = b
	}
	if r.Embed != nil {
		e := &Embed{Endpoint: r.Embed.Endpoint, InputCap: DefaultEmbedCap}
		if r.Embed.Model != nil {
			e.Model = *r.Embed.Model
		}
		if r.Embed.InputCap != nil {
			e.InputCap = *r.Embed.InputCap
		}
		e.Timeout, diags = optDuration(r.Embed.Timeout, DefaultEmbedTimeout, diags)
		diags = append(diags, checkURL(r.DefRange, "embed endpoint", e.Endpoint)...)
		s.Embed = e
	}
	return s, diags
}

func checkURL(rng hcl.Range, what, raw string) hcl.Diagnostics {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return hcl.Diagnostics{attrError(rng.Ptr(), "Invalid URL", fmt.Sprintf("%s %q is not an http(s) URL.", what, raw))}
	}
	return nil
}
