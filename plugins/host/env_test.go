package host

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/plugins/sdk"
)

// A plugin process sees only PATH, TMPDIR, the protocol's variables and the
// names its block lists: a secret in sift's environment stays in sift.
func TestPluginEnvironmentIsOnlyWhatSiftDecides(t *testing.T) {
	t.Setenv("SIFT_TEST_SECRET", "hunter2")
	t.Setenv("SIFT_TEST_LISTED", "visible")
	t.Setenv("TMPDIR", t.TempDir())
	spec := testSpec(t, "")
	spec.Pool = 1
	spec.Env = []string{"SIFT_TEST_LISTED", "SIFT_TEST_UNSET"}
	h := startHost(t, spec)

	res, err := extract(t, h, "env")
	if err != nil {
		t.Fatal(err)
	}
	env := strings.Split(res.Content, "\x00") // values may hold newlines
	if slices.ContainsFunc(env, func(kv string) bool { return strings.Contains(kv, "hunter2") }) {
		t.Error("the plugin received SIFT_TEST_SECRET, which its block does not list")
	}
	for _, want := range []string{"SIFT_TEST_LISTED=visible", "PATH=", "TMPDIR=", sdk.EnvMemoryLimit + "=",
		sdk.Handshake.MagicCookieKey + "=" + sdk.Handshake.MagicCookieValue} {
		if !slices.ContainsFunc(env, func(kv string) bool { return strings.HasPrefix(kv, want) }) {
			t.Errorf("the plugin's environment lacks %s", want)
		}
	}
	allowed := []string{"PATH", "TMPDIR", "SIFT_TEST_LISTED", sdk.EnvMaxMessage, sdk.EnvMemoryLimit, "GOMAXPROCS",
		sdk.Handshake.MagicCookieKey, "PLUGIN_MIN_PORT", "PLUGIN_MAX_PORT", "PLUGIN_PROTOCOL_VERSIONS", "PLUGIN_CLIENT_CERT",
		"PLUGIN_UNIX_SOCKET_DIR", sdk.EnvCacheDir}
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(allowed, name) {
			t.Errorf("the plugin received %s, which sift did not decide to pass", name)
		}
	}
}

// A plugin process has no HOME, so sift hands it a lasting directory of its
// own: the PDF plugin keeps PDFium compiled there, which without it cost
// about 4 s at every start.
func TestPluginGetsItsOwnCacheDirectory(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	h := startHost(t, testSpec(t, ""))
	res, err := extract(t, h, "env")
	if err != nil {
		t.Fatal(err)
	}
	want := sdk.EnvCacheDir + "=" + filepath.Join(cache, "sift", "plugins", "faulty")
	if !slices.Contains(strings.Split(res.Content, "\x00"), want) {
		t.Fatalf("the plugin's environment lacks %s", want)
	}
	if err := checkOwnDir(filepath.Join(cache, "sift", "plugins", "faulty")); err != nil {
		t.Fatal(err)
	}
}

// A cache directory another user could write to, or a symlink to one, is
// not handed to a plugin: what a plugin keeps there may be code it runs.
func TestCacheDirRefusesWhatIsNotPrivate(t *testing.T) {
	tests := []struct {
		name    string
		prepare func(t *testing.T, dir string)
		ok      bool
	}{
		{"new", func(*testing.T, string) {}, true},
		{"existing and private", func(t *testing.T, dir string) { mkdir(t, dir, 0o700) }, true},
		{"group-writable", func(t *testing.T, dir string) { mkdir(t, dir, 0o770) }, false},
		{"a symlink to a private directory", func(t *testing.T, dir string) {
			target := filepath.Join(t.TempDir(), "elsewhere")
			mkdir(t, target, 0o700)
			mkdir(t, filepath.Dir(dir), 0o700)
			if err := os.Symlink(target, dir); err != nil {
				t.Fatal(err)
			}
		}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cache := t.TempDir()
			t.Setenv("XDG_CACHE_HOME", cache)
			tc.prepare(t, filepath.Join(cache, "sift", "plugins", "pdf"))
			dir, err := cacheDir("pdf")
			if (err == nil) != tc.ok {
				t.Fatalf("cacheDir = %q, %v; want ok %v", dir, err, tc.ok)
			}
		})
	}
	for _, name := range []string{"", ".", "..", "a/b"} {
		if dir, err := cacheDir(name); err == nil {
			t.Errorf("cacheDir(%q) = %q, want an error", name, dir)
		}
	}
}

func mkdir(t *testing.T, dir string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, mode); err != nil {
		t.Fatal(err)
	}
}

// keyedDigester reads its key from the variable its api_key_env names.
type keyedDigester struct{}

func (keyedDigester) Info(context.Context) (sdk.Info, error) {
	return sdk.Info{Name: "keyed", Version: "1"}, nil
}

func (keyedDigester) Schema(context.Context) (sdk.Schema, error) {
	return sdk.Schema{Attributes: []sdk.Attribute{
		{Name: "endpoint", Type: sdk.TypeString},
		{Name: "api_key_env", Type: sdk.TypeString, Env: true},
		{Name: "model", Type: sdk.TypeString},
	}}, nil
}

func (keyedDigester) Configure(context.Context, json.RawMessage) (sdk.Diagnostics, error) {
	return nil, nil
}

func (keyedDigester) Digest(context.Context, *sdk.DigestRequest) (*sdk.DigestResult, error) {
	return &sdk.DigestResult{}, nil
}

// The variable an Env attribute of a plugin's block names passes to the
// plugin, once however often the block is checked; other string
// attributes name nothing.
func TestEnvAttributeVariablePasses(t *testing.T) {
	file, diags := hclsyntax.ParseConfig([]byte(`endpoint = "http://127.0.0.1:1/v1"
api_key_env = "LLM_KEY"
model = "NOT_A_VARIABLE"
`), "t.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	specs, diags := PlanDigesters([]config.Plugin{{Name: "keyed", Body: file.Body, Env: []string{"OTHER"}}},
		DigesterBuiltins{"keyed": func() sdk.Digester { return keyedDigester{} }}, 1<<20)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for range 2 {
		if _, diags := Configure(t.Context(), &specs[0]); diags.HasErrors() {
			t.Fatal(diags)
		}
	}
	if got, want := specs[0].Env, []string{"OTHER", "LLM_KEY"}; !slices.Equal(got, want) {
		t.Errorf("Env = %q, want %q", got, want)
	}
}

// A block's cpus is its processes' GOMAXPROCS, over one the block's env
// passes on; without cpus, what env passes on holds.
func TestPluginCPUs(t *testing.T) {
	t.Setenv("GOMAXPROCS", "3")
	for _, tc := range []struct {
		cpus int
		env  []string
		want int
	}{
		{cpus: 1, env: []string{"GOMAXPROCS"}, want: 1},
		{cpus: 2, want: 2},
		{cpus: 0, env: []string{"GOMAXPROCS"}, want: 3},
	} {
		spec := testSpec(t, "")
		spec.Pool, spec.CPUs, spec.Env = 1, tc.cpus, tc.env
		res, err := extract(t, startHost(t, spec), "procs")
		if err != nil {
			t.Fatal(err)
		}
		if res.Content != strconv.Itoa(tc.want) {
			t.Errorf("cpus %d: the plugin runs on %s CPUs, want %d", tc.cpus, res.Content, tc.want)
		}
	}
}
