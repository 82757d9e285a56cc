// Package config decodes sift's HCL configuration strictly: every problem is
// an HCL diagnostic with file and line, unknown attributes suggest the
// nearest name, and all problems are reported at once.
//
// This package decodes the envelope. The bodies of `stage` blocks are
// decoded by the stage kinds (package stages), and the plugin-specific
// attributes of `extractor` blocks against the plugin's own schema (package
// plugins/host), so that each owner of a schema decodes its own block.
package config

import (
	"net"
	"os"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// DefaultFile is the configuration read when none is named.
const DefaultFile = "config.hcl"

// Config is a decoded configuration file.
type Config struct {
	Listen string
	// PublicURL is the base of every absolute URL sift hands back (a
	// batch's status URL, a page's `next`): scheme and host, no path. It
	// defaults to http:// and the listen address (localhost for a
	// wildcard one); sift never builds it from a request's Host header.
	PublicURL string
	DataDir   string
	Store     Store
	Callers   []Caller
	Stages    []Stage
	// Pipeline points at the pipeline block; nil when the file has none
	// (the default chain runs, with a warning).
	Pipeline   *hcl.Range
	Extractors []Plugin
	Digesters  []Plugin
	// Context is nil when the file has no context block.
	Context *Context
	// Search is nil when the file has no search block.
	Search *Search
	// Batch is the batch block, or its defaults.
	Batch Batch
	// Gates is the gates block, or its defaults.
	Gates Gates
	// Metrics is who may scrape /metrics: the metrics block, or open.
	Metrics Metrics
	// Environment lists the variables the file names for secrets.
	Environment []EnvVar

	// File is the name the configuration was read under, as its
	// diagnostics name it.
	File string
	// Files holds the parsed sources, for printing diagnostics with context.
	Files map[string]*hcl.File
}

// Empty reports whether the file sets nothing at all: no attribute and no
// block (an empty file, or one of blank lines and comments).
func (c *Config) Empty() bool {
	f := c.Files[c.File]
	if f == nil {
		return false
	}
	body, ok := f.Body.(*hclsyntax.Body)
	return ok && len(body.Attributes) == 0 && len(body.Blocks) == 0
}

// Store selects the database: "sqlite" (a file under data_dir) or
// "postgres" (DSN, or the environment variable DSNEnv names, which keeps
// the secret out of the file).
type Store struct {
	Driver string
	DSN    string
	DSNEnv string
}

// Caller is one agent or team allowed to use sift.
type Caller struct {
	Name      string
	KeySHA256 string
	// KeyHash is KeySHA256 decoded: keys are compared as bytes, so the
	// hex's case never matters.
	KeyHash    []byte
	Workspace  string
	Restricted bool
	DefRange   hcl.Range
}

// Stage is one `stage "KIND" { … }` block, in the order written. Body holds
// the attributes that belong to the stage kind.
type Stage struct {
	Kind         string
	ContentTypes []string
	Body         hcl.Body
	DefRange     hcl.Range
	// ContentTypesRange points at the content_types attribute, if set.
	ContentTypesRange *hcl.Range
}

// Plugin is an `extractor "NAME" { … }` or `digester "NAME" { … }` block. Body holds the attributes
// that belong to the plugin's own schema.
type Plugin struct {
	Name         string
	Command      []string
	SHA256       string
	ContentTypes []string
	// Env names the variables of sift's environment the plugin receives
	// besides PATH and TMPDIR; a plugin gets none of the others.
	Env     []string
	Pool    int
	Timeout time.Duration
	Memory  int64
	// MemorySet is set when the block gives memory itself; otherwise a
	// plugin that says what it needs per byte of body gets that (see
	// host.FitMemory).
	MemorySet bool
	// CPUs is the GOMAXPROCS of each plugin process, or 0 for Go's
	// default (every CPU).
	CPUs      int
	Isolation string
	// PerCaller, when set, admits at most that many of one caller's
	// documents into the pool at once, answers busy when the pool or the
	// caller's share is full instead of queueing, and lets requests for
	// the same document share one extraction.
	PerCaller int
	// DevOverride is set when a development override (SIFT_PLUGIN_DEV_OVERRIDES)
	// has replaced Command[0] and SHA256 with a local, unpinned binary.
	DevOverride bool
	Body        hcl.Body
	DefRange    hcl.Range
}

// Defaults for a configuration that leaves things out.
const (
	DefaultListen      = "127.0.0.1:8890"
	DefaultDataDir     = "./data"
	DefaultPool        = 2
	DefaultCallTimeout = 30 * time.Second
	DefaultMemory      = 512 << 20
)

// Isolation modes of a plugin.
const (
	IsolationSubprocess = "subprocess"
	IsolationNone       = "none"
)

// LoadFile reads and decodes a configuration file.
func LoadFile(path string) (*Config, hcl.Diagnostics) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Cannot read configuration",
			Detail:   err.Error(),
		}}
	}
	return Parse(src, path)
}

// Parse decodes configuration source; filename is used in diagnostics.
func Parse(src []byte, filename string) (*Config, hcl.Diagnostics) {
	parser := hclparse.NewParser()
	file, diags := parser.ParseHCL(src, filename)
	cfg := &Config{File: filename, Files: parser.Files()}
	if diags.HasErrors() {
		return cfg, diags
	}
	var raw rawFile
	diags = append(diags, gohcl.DecodeBody(file.Body, nil, &raw)...)
	diags = append(diags, raw.apply(cfg)...)
	return cfg, diags
}

func (r *rawFile) apply(cfg *Config) hcl.Diagnostics {
	var diags hcl.Diagnostics
	cfg.Listen, diags = optString(r.Listen, DefaultListen, diags)
	if _, _, err := net.SplitHostPort(cfg.Listen); err != nil {
		diags = append(diags, attrError(r.Listen.Range().Ptr(), "Invalid listen address", err.Error()))
	}
	cfg.PublicURL, diags = publicURL(r.PublicURL, cfg.Listen, diags)
	cfg.DataDir, diags = optString(r.DataDir, DefaultDataDir, diags)
	cfg.Store, diags = r.store(diags)
	cfg.Callers, diags = r.callers(diags)
	cfg.Stages, diags = r.stages(cfg, diags)
	cfg.Extractors, diags = plugins("extractor", r.Extractors, diags)
	cfg.Digesters, diags = plugins("digester", r.Digesters, diags)
	cfg.Context, diags = r.context(diags)
	cfg.Batch, diags = r.batch(diags)
	cfg.Gates, diags = r.gates(diags)
	cfg.Metrics, diags = r.metrics(cfg.Callers, diags)
	if r.Search != nil {
		var ds hcl.Diagnostics
		cfg.Search, ds = r.Search.decode()
		diags = append(diags, ds...)
	}
	cfg.Environment = r.environment(cfg)
	return diags
}

// EnvVar is an environment variable the file names for a secret: sift
// reads it at start and on a reload, so `sift validate` and `sift serve`
// check it is set (app.CheckEnvironment).
type EnvVar struct {
	// Name is the variable; Attr the attribute naming it, as the file
	// spells it ("dsn_env", "search.brave.api_key_env").
	Name, Attr string
	// Required: sift cannot serve without it (the PostgreSQL DSN); else
	// what needs it fails on every use (a search backend's key).
	Required bool
	// Set reports whether the variable held a value when the file was read.
	Set bool
	// Range is the block that names it.
	Range hcl.Range
}

// environment lists the variables the file names for secrets.
func (r *rawFile) environment(cfg *Config) []EnvVar {
	var out []EnvVar
	add := func(name, attr string, required bool, rng hcl.Range) {
		out = append(out, EnvVar{Name: name, Attr: attr, Required: required, Set: os.Getenv(name) != "", Range: rng})
	}
	if r.Store != nil && r.Store.DSNEnv != nil && cfg.Store.Driver == "postgres" {
		add(*r.Store.DSNEnv, "store.dsn_env", true, r.Store.DefRange)
	}
	if r.Search != nil && r.Search.Brave != nil {
		add(r.Search.Brave.APIKeyEnv, "search.brave.api_key_env", false, r.Search.DefRange)
	}
	if len(r.Contexts) > 0 && r.Contexts[0].APIKeyEnv != nil {
		add(*r.Contexts[0].APIKeyEnv, "context.api_key_env", false, r.Contexts[0].DefRange)
	}
	return out
}

func attrError(rng *hcl.Range, summary, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: rng}
}
