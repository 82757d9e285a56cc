package config

import (
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
)

// rawFile mirrors the file's top level for gohcl. Attributes that need a
// semantic check keep their expression, so a diagnostic can point at them.
type rawFile struct {
	Listen     hcl.Expression `hcl:"listen,optional" type:"string" doc:"address and port sift listens on (default \"127.0.0.1:8890\"); sift refuses to listen beyond loopback while a caller holds the development key"`
	PublicURL  hcl.Expression `hcl:"public_url,optional" type:"string" doc:"base of every absolute URL sift hands back (scheme, host, optional path prefix); default http:// and the listen address"`
	DataDir    hcl.Expression `hcl:"data_dir,optional" type:"string" doc:"directory of the SQLite store and other state (default \"./data\")"`
	Store      *rawStore      `hcl:"store,block" doc:"the database of the cache and the batch jobs"`
	Callers    []rawCaller    `hcl:"caller,block" doc:"an agent or team allowed to use sift, by the SHA-256 of its key (sift key new NAME); a file needs at least one (no route answers without a key but /healthz and, unless the metrics block requires one, /metrics), and two blocks may not hold one key"`
	Pipeline   *rawPipeline   `hcl:"pipeline,block" doc:"the stage chain, in order; it must hold guard, fetch and extract. Without the block sift starts on guard, fetch, extract (no cache) with a warning; a reload refuses a file without one while the running configuration has one"`
	Extractors []rawPlugin    `hcl:"extractor,block" doc:"an extractor plugin: a built-in one (html, json, text, pdf) tuned, or an external binary"`
	Digesters  []rawPlugin    `hcl:"digester,block" doc:"a digester plugin: the built-in \"llm\" (an OpenAI-compatible local model) or an external binary"`
	Contexts   []rawContext   `hcl:"context,block" doc:"the source of what the caller's team already knows, for the context stage; the one kind is \"honcho\""`
	Search     *rawSearch     `hcl:"search,block" doc:"web search: /v2/search, /v1/search and the MCP search tool"`
	Batch      *rawBatch      `hcl:"batch,block" doc:"asynchronous batch fetches; without the block batch runs with the defaults below"`
	Gates      *rawGates      `hcl:"gates,block" doc:"how long and how many requests wait in line for a full concurrency gate before 429"`
	Metrics    *rawMetrics    `hcl:"metrics,block" doc:"who may scrape /metrics, which names every caller and counts its requests; without the block /metrics needs no key"`
}

type rawStore struct {
	Driver   *string   `hcl:"driver,optional" type:"string" doc:"\"sqlite\" (default; a file under data_dir) or \"postgres\""`
	DSN      *string   `hcl:"dsn,optional" type:"string" doc:"PostgreSQL connection string (prefer dsn_env, which keeps the password out of the file)"`
	DSNEnv   *string   `hcl:"dsn_env,optional" type:"string" doc:"name of the environment variable holding the PostgreSQL connection string"`
	DefRange hcl.Range `hcl:",def_range"`
}

type rawCaller struct {
	Name       string    `hcl:"name,label"`
	KeySHA256  string    `hcl:"key_sha256" type:"string" doc:"the 64 hex digits of the SHA-256 of the caller's key"`
	Workspace  *string   `hcl:"workspace,optional" type:"string" doc:"the caller's workspace in the context source (default \"default\")"`
	Restricted *bool     `hcl:"restricted,optional" type:"bool" doc:"keep the caller's cache entries apart and its hosts and errors out of the log (default false)"`
	DefRange   hcl.Range `hcl:",def_range"`
}

type rawPipeline struct {
	Stages   []rawStage `hcl:"stage,block" doc:"one stage of the chain; its kind is the label"`
	DefRange hcl.Range  `hcl:",def_range"`
}

type rawStage struct {
	Kind         string         `hcl:"kind,label"`
	ContentTypes hcl.Expression `hcl:"content_types,optional" type:"list(string)" doc:"run the stage only for these media types (patterns like \"text/*\"); only after the fetch stage"`
	Remain       hcl.Body       `hcl:",remain"`
	DefRange     hcl.Range      `hcl:",def_range"`
}

type rawPlugin struct {
	Name         string         `hcl:"name,label"`
	Command      hcl.Expression `hcl:"command,optional" type:"list(string)" doc:"an external plugin's program and arguments"`
	SHA256       *string        `hcl:"sha256,optional" type:"string" doc:"the SHA-256 of an external plugin's binary (sha256sum); a binary that differs is refused at start-up"`
	ContentTypes hcl.Expression `hcl:"content_types,optional" type:"list(string)" doc:"media types the plugin handles; an external extractor must list them"`
	Env          hcl.Expression `hcl:"env,optional" type:"list(string)" doc:"names of the environment variables the plugin receives besides PATH and TMPDIR"`
	Pool         hcl.Expression `hcl:"pool,optional" type:"number" doc:"plugin processes kept running (1–64, default 2)"`
	Timeout      hcl.Expression `hcl:"timeout,optional" type:"duration" doc:"deadline of one plugin call (default \"30s\"; a digester's \"60s\")"`
	Memory       hcl.Expression `hcl:"memory,optional" type:"size" doc:"memory limit of each plugin process (default \"512MiB\", or what a plugin that says what it needs per byte of body needs for max_body)"`
	CPUs         hcl.Expression `hcl:"cpus,optional" type:"number" doc:"how many CPUs each plugin process runs Go code on at once, its GOMAXPROCS (1–1024; default every CPU); 1 suits a plugin that reads one document at a time on one thread"`
	Isolation    hcl.Expression `hcl:"isolation,optional" type:"string" doc:"\"subprocess\" (default) or \"none\" (a built-in run inside sift; tests)"`
	PerCaller    hcl.Expression `hcl:"per_caller,optional" type:"number" doc:"at most this many of one caller's documents in the pool at once; busy instead of queueing when full (0, the default, is no per-caller share)"`
	Remain       hcl.Body       `hcl:",remain"`
	DefRange     hcl.Range      `hcl:",def_range"`
}

func (r *rawFile) store(diags hcl.Diagnostics) (Store, hcl.Diagnostics) {
	st := Store{Driver: "sqlite"}
	if r.Store == nil {
		return st, diags
	}
	rs := r.Store
	if rs.Driver != nil {
		st.Driver = *rs.Driver
	}
	if rs.DSN != nil {
		st.DSN = *rs.DSN
	}
	if rs.DSNEnv != nil {
		st.DSNEnv = *rs.DSNEnv
		st.DSN = os.Getenv(*rs.DSNEnv)
	}
	switch {
	case st.Driver != "sqlite" && st.Driver != "postgres":
		diags = append(diags, attrError(rs.DefRange.Ptr(), "Unsupported store driver",
			fmt.Sprintf("driver %q is not supported; use \"sqlite\" or \"postgres\".", st.Driver)))
	case st.Driver == "postgres" && rs.DSN == nil && rs.DSNEnv == nil:
		diags = append(diags, attrError(rs.DefRange.Ptr(), "Missing dsn",
			`driver "postgres" needs dsn = "host=… dbname=…" or dsn_env = "NAME" (an environment variable holding it).`))
	case rs.DSN != nil && rs.DSNEnv != nil:
		diags = append(diags, attrError(rs.DefRange.Ptr(), "Both dsn and dsn_env",
			"give the connection string in dsn or name its environment variable in dsn_env, not both."))
	}
	return st, diags
}

func (r *rawFile) callers(diags hcl.Diagnostics) ([]Caller, hcl.Diagnostics) {
	seen := map[string]bool{}
	// holder is the first block of each key, by its decoded hash: a key
	// names one caller, whatever the case of its hex. Two blocks of one
	// key would leave the last one to win, so a copied block could lift
	// a restricted key to unrestricted.
	holder := map[string]rawCaller{}
	out := make([]Caller, 0, len(r.Callers))
	for _, rc := range r.Callers {
		if seen[rc.Name] {
			diags = append(diags, attrError(rc.DefRange.Ptr(), "Duplicate caller",
				fmt.Sprintf("caller %q is defined more than once.", rc.Name)))
		}
		seen[rc.Name] = true
		hash, err := hex.DecodeString(rc.KeySHA256)
		if err != nil || len(hash) != 32 {
			diags = append(diags, attrError(rc.DefRange.Ptr(), "Invalid key_sha256",
				"key_sha256 must be the 64 hex digits of a SHA-256 hash; `sift key new NAME` prints one."))
			hash = nil
		}
		if hash != nil {
			if first, ok := holder[string(hash)]; ok {
				diags = append(diags, attrError(rc.DefRange.Ptr(), "Duplicate caller key",
					fmt.Sprintf("caller %q (%s) and caller %q (%s) hold the same key_sha256; a key names one caller. "+
						"Give one of them its own key with `sift key new NAME`.",
						rc.Name, blockAt(rc.DefRange), first.Name, blockAt(first.DefRange))))
			} else {
				holder[string(hash)] = rc
			}
		}
		c := Caller{Name: rc.Name, KeySHA256: rc.KeySHA256, KeyHash: hash, Workspace: "default", DefRange: rc.DefRange}
		if rc.Workspace != nil {
			c.Workspace = *rc.Workspace
		}
		if rc.Restricted != nil {
			c.Restricted = *rc.Restricted
		}
		out = append(out, c)
	}
	return out, diags
}

// blockAt is where a block starts, as FILE:LINE.
func blockAt(rng hcl.Range) string {
	return fmt.Sprintf("%s:%d", rng.Filename, rng.Start.Line)
}

func (r *rawFile) stages(cfg *Config, diags hcl.Diagnostics) ([]Stage, hcl.Diagnostics) {
	if r.Pipeline == nil {
		return nil, diags
	}
	cfg.Pipeline = r.Pipeline.DefRange.Ptr()
	out := make([]Stage, 0, len(r.Pipeline.Stages))
	for _, rs := range r.Pipeline.Stages {
		st := Stage{Kind: rs.Kind, Body: rs.Remain, DefRange: rs.DefRange}
		var ds hcl.Diagnostics
		st.ContentTypes, ds = mediaTypeList(rs.ContentTypes)
		diags = append(diags, ds...)
		if st.ContentTypes != nil {
			st.ContentTypesRange = rs.ContentTypes.Range().Ptr()
		}
		out = append(out, st)
	}
	return out, diags
}

// plugins decodes the `extractor` or `digester` blocks (kind names which).
func plugins(kind string, blocks []rawPlugin, diags hcl.Diagnostics) ([]Plugin, hcl.Diagnostics) {
	seen := map[string]bool{}
	out := make([]Plugin, 0, len(blocks))
	for _, rp := range blocks {
		if seen[rp.Name] {
			diags = append(diags, attrError(rp.DefRange.Ptr(), "Duplicate "+kind,
				fmt.Sprintf("%s %q is defined more than once.", kind, rp.Name)))
		}
		seen[rp.Name] = true
		var p Plugin
		p, diags = rp.decode(kind, diags)
		out = append(out, p)
	}
	return out, diags
}

// envName is what a plugin block's env may list: a variable's name, never
// an assignment.
var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// DefaultDigestTimeout is a digester's per-call deadline: a local model
// takes tens of seconds for a long page.
const DefaultDigestTimeout = 60 * time.Second

func (rp *rawPlugin) decode(kind string, diags hcl.Diagnostics) (Plugin, hcl.Diagnostics) {
	p := Plugin{Name: rp.Name, Body: rp.Remain, DefRange: rp.DefRange}
	for _, l := range []struct {
		into *[]string
		expr hcl.Expression
		name string
	}{{&p.Command, rp.Command, "command"}, {&p.ContentTypes, rp.ContentTypes, "content_types"}, {&p.Env, rp.Env, "env"}} {
		var ds hcl.Diagnostics
		if l.name == "content_types" {
			*l.into, ds = mediaTypeList(l.expr)
		} else {
			*l.into, ds = stringList(l.expr, l.name)
		}
		diags = append(diags, ds...)
	}
	for _, name := range p.Env {
		if !envName.MatchString(name) {
			diags = append(diags, attrError(rp.DefRange.Ptr(), "Invalid env",
				fmt.Sprintf("env lists names of environment variables (letters, digits, _), got %q.", name)))
		}
	}
	if rp.SHA256 != nil {
		// sha256sum prints lower case; any case names the same hash.
		p.SHA256 = strings.ToLower(*rp.SHA256)
	}
	defTimeout := DefaultCallTimeout
	if kind == "digester" {
		defTimeout = DefaultDigestTimeout
	}
	p.Pool, diags = optInt(rp.Pool, DefaultPool, 1, 64, diags)
	p.PerCaller, diags = optInt(rp.PerCaller, 0, 0, 64, diags)
	if p.PerCaller > p.Pool {
		diags = append(diags, attrError(rp.PerCaller.Range().Ptr(), "Invalid per_caller",
			fmt.Sprintf("per_caller (%d) cannot exceed pool (%d).", p.PerCaller, p.Pool)))
	}
	p.Timeout, diags = optDuration(rp.Timeout, defTimeout, diags)
	p.Memory, diags = optSize(rp.Memory, DefaultMemory, diags)
	p.MemorySet = !isUnset(rp.Memory)
	p.CPUs, diags = optInt(rp.CPUs, 0, 1, 1024, diags)
	p.Isolation, diags = optString(rp.Isolation, IsolationSubprocess, diags)
	if p.Isolation != IsolationSubprocess && p.Isolation != IsolationNone {
		diags = append(diags, attrError(rp.Isolation.Range().Ptr(), "Invalid isolation",
			fmt.Sprintf("isolation must be %q or %q.", IsolationSubprocess, IsolationNone)))
	}
	if len(p.Command) > 0 && p.Isolation == IsolationNone {
		diags = append(diags, attrError(rp.Isolation.Range().Ptr(), "Invalid isolation",
			"an external plugin (with command) always runs as a subprocess."))
	}
	if len(p.Command) > 0 {
		p.Command = append([]string{besideFile(p.Command[0], rp.DefRange.Filename)}, p.Command[1:]...)
		if b, err := hex.DecodeString(p.SHA256); err != nil || len(b) != 32 {
			diags = append(diags, attrError(rp.DefRange.Ptr(), "Missing or invalid sha256",
				"an external plugin needs sha256 = the 64 hex digits of its binary's SHA-256 (sha256sum prints it)."))
		}
	}
	return p, diags
}

// besideFile resolves a plugin's relative command against the folder of the
// configuration file that names it, never the working directory or PATH:
// the binary sift hashes is the one it runs, wherever sift is started.
func besideFile(command, file string) string {
	if command == "" || filepath.IsAbs(command) {
		return command
	}
	dir, err := filepath.Abs(filepath.Dir(file))
	if err != nil {
		return command
	}
	return filepath.Join(dir, command)
}
