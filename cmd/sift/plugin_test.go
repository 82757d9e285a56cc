package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/internal/app"
	"github.com/siftd/sift/internal/testkit/testwait"
)

// buildPlugin builds the Go module in dir into a binary and returns its
// path and SHA-256.
func buildPlugin(t *testing.T, dir, name string) (string, string) {
	t.Helper()
	bin := filepath.Join(t.TempDir(), name)
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build %s: %v\n%s", dir, err, out)
	}
	raw, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(raw)
	return bin, hex.EncodeToString(sum[:])
}

// originServing is a loopback origin answering every path with body as
// contentType.
func originServing(t *testing.T, contentType, body string) (*httptest.Server, uint16) {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", contentType)
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv, netip.MustParseAddrPort(srv.Listener.Addr().String()).Port()
}

// serveConfig starts `sift serve` on a config holding the caller "test",
// a guard that admits the loopback origin's port, and extra; it returns
// the listen address once /healthz answers.
func serveConfig(t *testing.T, originPort uint16, extra string) string {
	t.Helper()
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	dir := t.TempDir()
	src := fmt.Sprintf(`listen = %q
data_dir = %q
%s
pipeline {
  stage "guard" {
    allow_ports = [80, 443, %d]
    allow_cidrs = ["127.0.0.0/8"]
  }
  stage "fetch" {}
  stage "extract" {}
}
%s
`, addr, dir, testCaller, originPort, extra)
	cfg := filepath.Join(dir, "config.hcl")
	if err := os.WriteFile(cfg, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	serve := exec.Command(siftBin, "serve", "--config", cfg)
	serve.Stderr = &stderr
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = serve.Wait(); close(exited) }()
	t.Cleanup(func() { _ = serve.Process.Kill(); <-exited })
	testwait.For(t, "sift serve to answer /healthz", func() bool {
		select {
		case <-exited:
			t.Fatalf("sift serve exited:\n%s", stderr.String())
		default:
		}
		resp, err := http.Get("http://" + addr + "/healthz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
	return addr
}

// postJSON sends body to path with the test caller's key and decodes the
// answer into out; it returns the status.
func postJSON(t *testing.T, addr, path string, body any, out any) int {
	t.Helper()
	raw, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, "http://"+addr+path, bytes.NewReader(raw))
	req.Header.Set("Authorization", "Bearer test-key")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		t.Fatalf("%s: decode: %v", path, err)
	}
	return resp.StatusCode
}

// exampleBlock returns the first fenced block of examples/extractor's
// README.md whose info string is lang.
func exampleBlock(t *testing.T, lang string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "examples", "extractor", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?ms)^```" + regexp.QuoteMeta(lang) + "\n(.*?)^```\n").FindStringSubmatch(string(raw))
	if m == nil {
		t.Fatalf("the example's README.md has no ```%s block", lang)
	}
	return m[1]
}

// TestExamplePluginAsDocumented: examples/extractor, built, pinned and
// declared with the block its README.md shows (no content_types: the
// built-in text extractor claims text/csv too), is listed by sift plugins
// as the README shows, and `sift fetch` of the README's CSV through sift
// serve prints the README's markdown table.
func TestExamplePluginAsDocumented(t *testing.T) {
	const (
		docPath = "/usr/local/lib/sift/sift-csv"
		docHash = "<the hash sha256sum printed>"
	)
	bin, sum := buildPlugin(t, filepath.Join("..", "..", "examples", "extractor"), "sift-csv")
	pinned := strings.NewReplacer(docPath, bin, docHash, sum)
	block := exampleBlock(t, "hcl")
	if !strings.Contains(block, docPath) || !strings.Contains(block, docHash) {
		t.Fatalf("the README's block names neither %s nor %s:\n%s", docPath, docHash, block)
	}
	block = pinned.Replace(block)

	cfg := filepath.Join(t.TempDir(), "config.hcl")
	if err := os.WriteFile(cfg, []byte(block), 0o600); err != nil {
		t.Fatal(err)
	}
	listing, stderr, code := runSift(t, nil, "plugins", "--config", cfg)
	if code != 0 {
		t.Fatalf("sift plugins: exit %d\n%s", code, stderr)
	}
	if want := pinned.Replace(exampleBlock(t, "text")); !strings.Contains(listing, want) {
		t.Errorf("sift plugins lists\n%s\nnot the README's\n%s", listing, want)
	}

	_, port := originServing(t, "text/csv", exampleBlock(t, "csv"))
	addr := serveConfig(t, port, block)
	url := fmt.Sprintf("http://127.0.0.1:%d/parts.csv", port)
	t.Setenv("SIFT_URL", "http://"+addr)
	t.Setenv("SIFT_KEY", "test-key")
	stdout, stderr, code := runSift(t, nil, "fetch", url)
	if want := exampleBlock(t, "markdown"); code != 0 || stdout != want {
		t.Fatalf("sift fetch: exit %d, printed %q, want the README's table %q\n%s", code, stdout, want, stderr)
	}
	var out struct {
		Content  string
		Warnings []string
		Error    string
	}
	// The plugin's declared per-request option, through /v1/fetch.
	if code := postJSON(t, addr, "/v1/fetch", map[string]any{"url": url, "options": map[string]any{"rows": 1}}, &out); code != http.StatusOK {
		t.Fatalf("options: status %d: %s", code, out.Error)
	}
	if want := "| name | qty | note |\n| --- | --- | --- |\n| bolt | 3 | M6 |"; out.Content != want ||
		len(out.Warnings) != 1 || out.Warnings[0] != "table cut at 1 of 3 rows" {
		t.Errorf("options.rows = 1: content %q, warnings %q; want %q and the README's warning", out.Content, out.Warnings, want)
	}

	// The same option through a Firecrawl scrape's siftOptions.
	var scrape struct {
		Success bool
		Data    struct{ Markdown string }
		Error   string
	}
	if code := postJSON(t, addr, "/v2/scrape", map[string]any{"url": url, "siftOptions": map[string]any{"rows": "1"}}, &scrape); code != http.StatusOK {
		t.Fatalf("siftOptions: status %d: %s", code, scrape.Error)
	}
	if want := "| name | qty | note |\n| --- | --- | --- |\n| bolt | 3 | M6 |"; scrape.Data.Markdown != want {
		t.Errorf("siftOptions.rows = 1: markdown %q, want %q", scrape.Data.Markdown, want)
	}

	// Undeclared or ill-fitting options are the request's fault: 400
	// bad_option naming each of them.
	for _, tc := range []struct {
		options map[string]any
		want    []string
	}{
		{map[string]any{"nope": 1}, []string{`"nope" is not an option`, "rows (integer)"}},
		{map[string]any{"rows": 0}, []string{`rows "0"`, "minimum, 1"}},
		{map[string]any{"rows": 2.5, "jq": "."}, []string{`rows "2.5": want an integer`, `"jq" is not an option`}},
		{map[string]any{"rows": []int{1}}, []string{"options.rows", "not an array"}},
	} {
		out.Error = ""
		code := postJSON(t, addr, "/v1/fetch", map[string]any{"url": url, "options": tc.options}, &out)
		if code != http.StatusBadRequest || !strings.HasPrefix(out.Error, "bad_option: ") {
			t.Errorf("options %v: status %d, error %q; want 400 bad_option", tc.options, code, out.Error)
		}
		for _, w := range tc.want {
			if !strings.Contains(out.Error, w) {
				t.Errorf("options %v: error %q does not say %q", tc.options, out.Error, w)
			}
		}
	}
}

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// TestPluginsCommandListsBuiltinsAndExternals: `sift plugins` names every
// built-in and the configured example with what each announces, and says
// which of the text extractor's types the example takes.
func TestPluginsCommandListsBuiltinsAndExternals(t *testing.T) {
	bin, sum := buildPlugin(t, filepath.Join("..", "..", "examples", "extractor"), "sift-csv")
	feedBin, feedSum := buildPlugin(t, filepath.Join("testdata", "sift-feed"), "sift-feed")
	cfg := filepath.Join(t.TempDir(), "config.hcl")
	src := fmt.Sprintf("extractor \"csv\" {\n  command = [%q]\n  sha256 = %q\n  max_rows = 3\n}\n", bin, sum) +
		fmt.Sprintf("extractor \"feed\" {\n  command = [%q]\n  sha256 = %q\n}\n", feedBin, feedSum)
	if err := os.WriteFile(cfg, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runSift(t, nil, "plugins", "--config", cfg, "--json")
	if code != 0 {
		t.Fatalf("sift plugins: exit %d\n%s", code, stderr)
	}
	var list []pluginListing
	if err := json.Unmarshal([]byte(stdout), &list); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	byName := map[string]pluginListing{}
	for _, l := range list {
		byName[l.Name] = l
	}
	for _, name := range []string{"html", "json", "pdf", "text", "csv"} {
		if byName[name].Version == "" {
			t.Errorf("%s: no version in %+v", name, byName[name])
		}
	}
	csv := byName["csv"]
	if csv.Source != "external" || csv.Path != bin || csv.SHA256 != sum || csv.Version != "0.1.0" ||
		strings.Join(csv.ContentTypes, ",") != "text/csv" {
		t.Errorf("csv listed as %+v", csv)
	}
	if len(csv.Attributes) != 1 || csv.Attributes[0].Name != "max_rows" || csv.Attributes[0].Type != "integer" ||
		!strings.Contains(csv.Attributes[0].Description, "Rows rendered") {
		t.Errorf("csv attributes %+v", csv.Attributes)
	}
	if len(csv.Options) != 1 || csv.Options[0].Name != "rows" || *csv.Options[0].Min != 1 {
		t.Errorf("csv options %+v", csv.Options)
	}
	if sn := byName["feed"].Sniff; len(sn) != 1 || strings.Join(sn[0].ContentTypes, ",") != "application/xml,text/xml" ||
		strings.Join(sn[0].RootElements, ",") != "rss,feed" {
		t.Errorf("feed's sniff rules listed as %+v", sn)
	}
	if byName["delimited"].Shadowed["text/csv"] != "csv" {
		t.Errorf("delimited's text/csv is not shown as taken by csv: %+v", byName["delimited"].Shadowed)
	}
	if !slices.Contains(byName["pdf"].Capabilities, "costly") || byName["pdf"].Options[0].Name != "pages" {
		t.Errorf("pdf listed as %+v", byName["pdf"])
	}

	checkKeys(t, stdout, filepath.Join("testdata", "plugins-json-keys.golden"))

	human, stderr, code := runSift(t, nil, "plugins", "--config", cfg)
	if code != 0 {
		t.Fatalf("sift plugins: exit %d\n%s", code, stderr)
	}
	for _, want := range []string{"csv (extractor, external) version 0.1.0", "sha256:         " + sum,
		"max_rows (integer): Rows rendered", "rows (integer, min 1, max 100000)", "text/csv (taken by csv)",
		"sniffs:         application/xml, text/xml with root element rss or feed"} {
		if !strings.Contains(human, want) {
			t.Errorf("sift plugins does not print %q:\n%s", want, human)
		}
	}
}

// checkKeys compares every key path of a JSON document (`[].options[].max`)
// with a golden list, so a key cannot change case or spelling unnoticed.
func checkKeys(t *testing.T, doc, golden string) {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(doc), &v); err != nil {
		t.Fatal(err)
	}
	paths := map[string]bool{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch v := v.(type) {
		case []any:
			for _, e := range v {
				walk(prefix+"[]", e)
			}
		case map[string]any:
			for k, e := range v {
				if prefix == "[].shadowed" {
					k = "*" // its keys are media types
				}
				paths[prefix+"."+k] = true
				walk(prefix+"."+k, e)
			}
		}
	}
	walk("", v)
	got := slices.Sorted(maps.Keys(paths))
	if *update {
		if err := os.WriteFile(golden, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if g := strings.Join(got, "\n") + "\n"; g != string(want) {
		t.Errorf("JSON keys differ from %s (go test -update rewrites it):\n%s", golden, g)
	}
	for _, p := range got {
		if strings.ToLower(p) != p {
			t.Errorf("key %s is not snake_case", p)
		}
	}
}

// thirdPartyMain is a plugin written outside sift's repository against the
// SDK module alone: it keeps the last lines of a log file, as many as the
// request's "tail" option asks.
const thirdPartyMain = `package main

import (
	"context"
	"strconv"
	"strings"

	"github.com/siftd/sift/plugins/sdk"
)

type tail struct{ sdk.NoConfig }

func (tail) Info(context.Context) (sdk.Info, error) {
	return sdk.Info{Name: "tail", Version: "2.0.1", ContentTypes: []string{"text/x-log"}}, nil
}

func (tail) Schema(context.Context) (sdk.Schema, error) {
	return sdk.Schema{Options: []sdk.Option{{Name: "tail", Type: sdk.TypeInteger, Min: sdk.Bound(1),
		Description: "lines kept from the end"}}}, nil
}

func (tail) Extract(_ context.Context, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	if string(req.Body) == "PANIC\n" {
		panic("asked to")
	}
	lines := strings.Split(strings.TrimRight(string(req.Body), "\n"), "\n")
	n := len(lines)
	if v, ok := req.Options["tail"]; ok {
		n, _ = strconv.Atoi(v)
	}
	if n < len(lines) {
		lines = lines[len(lines)-n:]
	}
	return &sdk.ExtractResult{Format: sdk.FormatText, Content: strings.Join(lines, "\n")}, nil
}

func main() { sdk.Serve(sdk.ServeConfig{Extractor: tail{}}) }
`

// pluginModule writes a plugin module of its own in dir, requiring the SDK
// module by version (replaced by the local folder, as nothing is published
// here), with main as its main.go, and tidies it; it returns a runner of go
// commands in dir.
func pluginModule(t *testing.T, dir, main string) func(args ...string) string {
	t.Helper()
	sdkDir, err := filepath.Abs(filepath.Join("..", "..", "plugins", "sdk"))
	if err != nil {
		t.Fatal(err)
	}
	goMod := fmt.Sprintf(`module example.org/sift-tail

go 1.26.0

require github.com/siftd/sift/plugins/sdk v0.1.0

replace github.com/siftd/sift/plugins/sdk v0.1.0 => %s
`, sdkDir)
	sums, err := os.ReadFile(filepath.Join(sdkDir, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"go.mod": goMod, "go.sum": string(sums), "main.go": main} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	goCmd := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		out, err := cmd.Output()
		if err != nil {
			stderr := ""
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = string(ee.Stderr)
			}
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, stderr)
		}
		return string(out)
	}
	goCmd("mod", "tidy")
	return goCmd
}

// TestThirdPartyPluginOutsideTheRepository: a plugin module in a folder of
// its own requires the SDK module by version (replaced by the local folder,
// as nothing is published here), and its module graph holds the SDK and its
// dependencies only; built, pinned by hash and served by sift serve, it
// answers /v1/fetch with a per-request option.
func TestThirdPartyPluginOutsideTheRepository(t *testing.T) {
	dir := t.TempDir()
	goCmd := pluginModule(t, dir, thirdPartyMain)
	mods := strings.Split(strings.TrimSpace(goCmd("list", "-m", "all")), "\n")
	t.Logf("the plugin's module graph: %d modules", len(mods))
	for _, m := range mods {
		path := strings.Fields(m)[0]
		if path == "github.com/siftd/sift" {
			t.Errorf("the plugin's module graph holds sift's own module: %s", m)
		}
		for _, heavy := range []string{"gorm.io", "jackc/pgx", "sqlite", "go-trafilatura", "go-pdfium", "wazero", "html-to-markdown", "gojq"} {
			if strings.Contains(path, heavy) {
				t.Errorf("the plugin's module graph holds %s", m)
			}
		}
	}
	bin, sum := buildPlugin(t, dir, "sift-tail")

	_, port := originServing(t, "text/x-log", "one\ntwo\nthree\nfour\n")
	addr := serveConfig(t, port, fmt.Sprintf("extractor \"tail\" {\n  command = [%q]\n  sha256  = %q\n}\n", bin, sum))
	var out struct {
		Content string
		Error   string
	}
	url := fmt.Sprintf("http://127.0.0.1:%d/app.log", port)
	if code := postJSON(t, addr, "/v1/fetch", map[string]any{"url": url, "options": map[string]any{"tail": 2}}, &out); code != http.StatusOK {
		t.Fatalf("status %d: %s", code, out.Error)
	}
	if out.Content != "three\nfour" {
		t.Errorf("content %q, want the last two lines", out.Content)
	}
}

// TestPluginNewScaffoldsAWorkingModule: `sift plugin new` writes a module
// whose own test passes against the SDK, and refuses a bad name or a folder
// that exists.
func TestPluginNewScaffoldsAWorkingModule(t *testing.T) {
	sdkDir, err := filepath.Abs(filepath.Join("..", "..", "plugins", "sdk"))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "sift-feed")
	if _, stderr, code := runSift(t, nil, "plugin", "new", "feed", "--dir", dir, "--sdk", sdkDir); code != 0 {
		t.Fatalf("sift plugin new: exit %d\n%s", code, stderr)
	}
	for _, args := range [][]string{{"mod", "tidy"}, {"vet", "./..."}, {"test", "-count=1", "./..."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s in the scaffold: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	if _, stderr, code := runSift(t, nil, "plugin", "new", "feed", "--dir", dir); code == 0 || !strings.Contains(stderr, "exists") {
		t.Errorf("an existing folder: exit %d, %s", code, stderr)
	}
	if _, stderr, code := runSift(t, nil, "plugin", "new", "Feed!"); code == 0 || !strings.Contains(stderr, "plugin name") {
		t.Errorf("a bad name: exit %d, %s", code, stderr)
	}
	for _, name := range []string{"json", "html", "llm"} {
		if _, stderr, code := runSift(t, nil, "plugin", "new", name); code == 0 || !strings.Contains(stderr, "built-in plugin's") {
			t.Errorf("built-in %s's name: exit %d, %s", name, code, stderr)
		}
	}
	if _, stderr, code := runSift(t, nil, "plugin", "list"); code == 0 || !strings.Contains(stderr, "sift plugins lists") {
		t.Errorf("sift plugin list: exit %d, does not point to sift plugins: %s", code, stderr)
	}
}

// TestWarmSocketChangesWithThePluginBinary: a rebuilt plugin binary, or a
// development override, is served by a fresh warm extractor, not by the one
// that holds the old build.
func TestWarmSocketChangesWithThePluginBinary(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	dir := t.TempDir()
	bin := filepath.Join(dir, "sift-x")
	if err := os.WriteFile(bin, []byte("build 1"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(dir, "config.hcl")
	src := fmt.Sprintf("extractor \"x\" {\n  command = [%q]\n  sha256 = %q\n}\n", bin, strings.Repeat("0", 64))
	if err := os.WriteFile(cfgPath, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, diags := config.LoadFile(cfgPath)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	cmd := extractCommand()
	socket := func() string {
		s, err := warmSocket(cmd, siftBin, cfgPath, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	first := socket()
	if again := socket(); again != first {
		t.Fatalf("the same binaries give two sockets: %s, %s", first, again)
	}
	if err := os.WriteFile(bin, []byte("build 2, longer"), 0o755); err != nil {
		t.Fatal(err)
	}
	rebuilt := socket()
	if rebuilt == first {
		t.Error("a rebuilt plugin binary keeps the warm extractor of the old build")
	}
	t.Setenv(app.EnvDevOverrides, "x="+bin)
	if socket() == rebuilt {
		t.Error("a development override keeps the warm extractor without it")
	}
}
