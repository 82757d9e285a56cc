// Package host starts, pools, health-checks and restarts plugin processes,
// and routes each media type to the extractor that handles it.
//
// Built-in plugins are started by re-executing sift's own binary as
// `sift plugin NAME`, through exactly the client code that third-party
// plugins use; only the command differs. Companions (the html extractor)
// are built-ins that ship as binaries of their own beside sift's.
package host

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/plugins/sdk"
)

// Builtins maps the name of each built-in extractor to its constructor.
type Builtins map[string]func() sdk.Extractor

// Companion is a built-in extractor that ships as a binary of its own beside
// sift's, because linking its code into sift would cost every other sift
// process (the CLI, every other plugin) its start-up time and memory.
type Companion struct {
	// Binary is the file name, looked for beside sift's binary, then on PATH.
	Binary       string
	ContentTypes []string
}

// Companions maps the name of each companion extractor to how it ships.
type Companions map[string]Companion

// Spec says how to run one extractor.
type Spec struct {
	Name         string
	ContentTypes []string
	Command      []string // the external binary and its arguments; nil for built-ins
	SHA256       string
	Pool         int
	// PerCaller, when above 0, puts the pool behind admission: no
	// queueing, at most PerCaller documents of one caller at once, one
	// extraction per document however many ask for it.
	PerCaller int
	Timeout   time.Duration
	Memory    int64
	// MemorySet is set when the block gave memory itself (FitMemory).
	MemorySet bool
	// CPUs, when above 0, is each process's GOMAXPROCS.
	CPUs      int
	Isolation string
	// Env names the variables of sift's environment passed to the
	// plugin's processes besides those every plugin gets (see pluginEnv).
	Env []string
	// MaxMessage bounds gRPC messages both ways, sized from the fetch body cap.
	MaxMessage int
	// Builtin is the in-process implementation of a built-in plugin (an
	// sdk.Extractor or an sdk.Digester): it answers GetInfo and GetSchema
	// without a process and runs the plugin under isolation "none".
	Builtin described
	// Digester marks a digester; the zero value is an extractor.
	Digester bool
	// Companion marks a built-in that runs from its own binary (Command);
	// its SHA-256 is taken from that binary when it is first started.
	Companion bool
	// DevOverride marks an external plugin whose binary a development
	// override replaced, unpinned; listings and /healthz show it.
	DevOverride bool
	// Body and DefRange are the operator's block, decoded against the
	// plugin's schema.
	Body     hcl.Body
	DefRange hcl.Range
	// Info and Schema are what the plugin announces; Describe and
	// Configure fill them in.
	Info   sdk.Info
	Schema sdk.Schema
	// sniffers are Info.Sniff compiled; Plan fills them in.
	sniffers []*sdk.Sniffer
	// Warnings are the plugin's own warnings at Configure ("OCR engine
	// missing: …"), which /healthz reports beside its pool.
	Warnings []string
}

// described is what extractors and digesters share.
type described interface {
	Info(ctx context.Context) (sdk.Info, error)
	Schema(ctx context.Context) (sdk.Schema, error)
	Configure(ctx context.Context, config json.RawMessage) (sdk.Diagnostics, error)
}

func (s *Spec) kind() string {
	if s.Digester {
		return sdk.KindDigester
	}
	return sdk.KindExtractor
}

// External reports whether the plugin runs from a binary of its own: a
// third-party plugin or a companion.
func (s *Spec) External() bool { return len(s.Command) > 0 }

// thirdParty reports whether the plugin is an operator's external plugin,
// not one that ships with sift.
func (s *Spec) thirdParty() bool { return s.External() && !s.Companion }

// Plan merges the built-in extractors with the configured `extractor`
// blocks: a block named like a built-in tunes it, a block with a command
// adds an external plugin. maxMessage bounds each plugin's gRPC messages.
//
// Companions are built-ins too; a compiled-in built-in of the same name wins
// (tests run the html extractor in-process that way).
func Plan(ctx context.Context, blocks []config.Plugin, builtins Builtins, companions Companions, maxMessage int) ([]Spec, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	byName := map[string]config.Plugin{}
	for _, b := range blocks {
		byName[b.Name] = b
	}
	builtinBlock := func(name string) (config.Plugin, bool) {
		b, ok := byName[name]
		if !ok {
			return config.Plugin{Name: name, Pool: config.DefaultPool, Timeout: config.DefaultCallTimeout,
				Memory: config.DefaultMemory, Isolation: config.IsolationSubprocess, Body: hcl.EmptyBody()}, true
		}
		if len(b.Command) > 0 {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Built-in extractor name taken",
				Detail: fmt.Sprintf("%q is a built-in extractor; give the external plugin another name.", name), Subject: b.DefRange.Ptr()})
			return b, false
		}
		return b, true
	}
	var specs []Spec
	for _, name := range sortedNames(companions) {
		if _, compiledIn := builtins[name]; compiledIn {
			continue
		}
		b, ok := builtinBlock(name)
		if !ok {
			continue
		}
		if b.Isolation == config.IsolationNone {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid isolation",
				Detail:  fmt.Sprintf("extractor %q runs from its own binary, %s, so it cannot run in-process.", name, companions[name].Binary),
				Subject: b.DefRange.Ptr()})
			continue
		}
		s := specFrom(b, maxMessage)
		s.Command, s.Companion = []string{companionPath(companions[name].Binary)}, true
		s.ContentTypes = companions[name].ContentTypes
		if len(b.ContentTypes) > 0 {
			s.ContentTypes = b.ContentTypes
		}
		specs = append(specs, s)
	}
	for _, name := range sortedNames(builtins) {
		impl := builtins[name]()
		info, err := impl.Info(ctx)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Built-in extractor broken",
				Detail: fmt.Sprintf("extractor %q: %v", name, err)})
			continue
		}
		b, ok := builtinBlock(name)
		if !ok {
			continue
		}
		s := specFrom(b, maxMessage)
		s.ContentTypes, s.Builtin, s.Info = info.ContentTypes, impl, info
		s.PerCaller = perCaller(s)
		if len(b.ContentTypes) > 0 {
			s.ContentTypes = b.ContentTypes
		}
		if err := compileSniff(&s); err != nil {
			diags = append(diags, startError(&s, err))
			continue
		}
		if err := checkContainers(&s); err != nil {
			diags = append(diags, startError(&s, err))
			continue
		}
		specs = append(specs, s)
	}
	for _, b := range blocks {
		_, isBuiltin := builtins[b.Name]
		if _, isCompanion := companions[b.Name]; isBuiltin || isCompanion {
			continue
		}
		if len(b.Command) == 0 {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unknown extractor",
				Detail: fmt.Sprintf("%q is not a built-in extractor (%v); an external one needs command and sha256.",
					b.Name, slices.Sorted(slices.Values(append(sortedNames(builtins), sortedNames(companions)...)))), Subject: b.DefRange.Ptr()})
			continue
		}
		s := specFrom(b, maxMessage)
		if err := Describe(ctx, &s); err != nil {
			diags = append(diags, startError(&s, err))
			continue
		}
		if len(s.ContentTypes) == 0 {
			s.ContentTypes = s.Info.ContentTypes
		}
		if len(s.ContentTypes) == 0 {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Extractor handles no media type",
				Detail:  fmt.Sprintf("extractor %q announces no content types; list them in its block's content_types.", s.Name),
				Subject: b.DefRange.Ptr()})
			continue
		}
		s.PerCaller = perCaller(s)
		if err := compileSniff(&s); err != nil {
			diags = append(diags, startError(&s, err))
			continue
		}
		if err := checkContainers(&s); err != nil {
			diags = append(diags, startError(&s, err))
			continue
		}
		specs = append(specs, s)
	}
	return specs, append(diags, contestedClaims(specs)...)
}

// contestedClaims refuses two external plugins that claim the same media
// type pattern: Route could only pick one of them by the order of the file.
// An external plugin claiming a built-in's pattern is no conflict: it wins
// (see Route).
func contestedClaims(specs []Spec) hcl.Diagnostics {
	var diags hcl.Diagnostics
	owner := map[string]*Spec{}
	for i := range specs {
		s := &specs[i]
		if !s.thirdParty() {
			continue
		}
		for _, ct := range s.ContentTypes {
			key := strings.ToLower(strings.TrimSpace(ct))
			if first, ok := owner[key]; ok && first.Name != s.Name {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Media type claimed twice",
					Detail: fmt.Sprintf("extractors %q (%s) and %q both claim %s; remove it from the content_types of one of them.",
						first.Name, first.DefRange, s.Name, key),
					Subject: s.DefRange.Ptr()})
				continue
			}
			owner[key] = s
		}
	}
	return diags
}

// perCaller is the admission share of a spec: the block's per_caller, else
// half the pool for a plugin that announces the costly capability, else 0
// (no admission step).
func perCaller(s Spec) int {
	if s.PerCaller == 0 && slices.Contains(s.Info.Capabilities, sdk.CapabilityCostly) {
		return max(1, s.Pool/2)
	}
	return s.PerCaller
}

// Describe fills in s.Info and s.Schema: from the implementation of a
// compiled-in built-in, else from a process of the plugin's binary (whose
// hash is checked first), started for the purpose and closed.
func Describe(ctx context.Context, s *Spec) error {
	impl := s.Builtin
	if s.External() {
		if err := checkBinary(s); err != nil {
			return err
		}
		l := &launcher{spec: s, log: slog.Default()}
		pr, err := l.start(ctx)
		if err != nil {
			return err
		}
		defer pr.close()
		impl = pr.impl()
	}
	if impl == nil {
		return fmt.Errorf("extractor %q has no implementation", s.Name)
	}
	return describe(ctx, s, impl)
}

func describe(ctx context.Context, s *Spec, impl described) error {
	info, err := impl.Info(ctx)
	if err != nil {
		return fmt.Errorf("info: %w", err)
	}
	schema, err := impl.Schema(ctx)
	if err != nil {
		return fmt.Errorf("schema: %w", err)
	}
	s.Info, s.Schema = info, schema
	return nil
}

func specFrom(b config.Plugin, maxMessage int) Spec {
	return Spec{
		Name: b.Name, ContentTypes: b.ContentTypes, Command: b.Command, SHA256: b.SHA256,
		Pool: b.Pool, PerCaller: b.PerCaller, Timeout: b.Timeout, Memory: b.Memory, MemorySet: b.MemorySet, CPUs: b.CPUs, Isolation: b.Isolation,
		Env: b.Env, MaxMessage: maxMessage, DevOverride: b.DevOverride, Body: b.Body, DefRange: b.DefRange,
	}
}

func sortedNames[T any](m map[string]T) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// companionPath finds a companion binary beside sift's own, then on PATH;
// when it is in neither, the path beside sift's is returned so that
// starting it fails naming where it was looked for.
func companionPath(binary string) string {
	beside := binary
	if self, err := os.Executable(); err == nil {
		beside = filepath.Join(filepath.Dir(self), binary)
	}
	if _, err := os.Stat(beside); err == nil {
		return beside
	}
	if onPath, err := exec.LookPath(binary); err == nil {
		return onPath
	}
	return beside
}

// checkBinary refuses an external plugin whose binary is missing or whose
// SHA-256 differs from the configured one. A companion's hash is taken from
// its binary here, and every start checks it again on the file it runs
// (openPinned).
func checkBinary(s *Spec) error {
	f, err := os.Open(s.Command[0])
	if err != nil {
		if s.Companion && errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("extractor %q runs as %s, which is neither beside sift's binary nor on PATH: build both with `make build`", s.Name, filepath.Base(s.Command[0]))
		}
		return fmt.Errorf("extractor %q: %w", s.Name, err)
	}
	f.Close()
	got, err := FileSHA256(s.Command[0])
	if err != nil {
		return fmt.Errorf("extractor %q: %w", s.Name, err)
	}
	if s.Companion && s.SHA256 == "" {
		s.SHA256 = got
	}
	if !strings.EqualFold(got, s.SHA256) {
		return fmt.Errorf("extractor %q: binary %s has SHA-256 %s but the configuration says %s; refusing to run it",
			s.Name, s.Command[0], got, s.SHA256)
	}
	return nil
}

// FileSHA256 is the hex SHA-256 of the file at path, as a pin names it.
func FileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// DigesterBuiltins maps the name of each built-in digester to its
// constructor.
type DigesterBuiltins map[string]func() sdk.Digester

// PlanDigesters turns the configured `digester` blocks into specs. A
// digester needs its block (its endpoint at least), so none runs unless
// configured; a block with a command is an external plugin.
func PlanDigesters(blocks []config.Plugin, builtins DigesterBuiltins, maxMessage int) ([]Spec, hcl.Diagnostics) {
	var specs []Spec
	var diags hcl.Diagnostics
	for _, b := range blocks {
		s := specFrom(b, maxMessage)
		s.Digester = true
		if newDg, ok := builtins[b.Name]; ok && len(b.Command) == 0 {
			s.Builtin = newDg()
		} else if len(b.Command) == 0 {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unknown digester",
				Detail:  fmt.Sprintf("%q is not a built-in digester; an external one needs command and sha256.", b.Name),
				Subject: b.DefRange.Ptr()})
			continue
		}
		specs = append(specs, s)
	}
	return specs, diags
}
