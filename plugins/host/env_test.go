package host

import (
	"slices"
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
	allowed := []string{"PATH", "TMPDIR", "SIFT_TEST_LISTED", sdk.EnvMaxMessage, sdk.EnvMemoryLimit,
		sdk.Handshake.MagicCookieKey, "PLUGIN_MIN_PORT", "PLUGIN_MAX_PORT", "PLUGIN_PROTOCOL_VERSIONS", "PLUGIN_CLIENT_CERT",
		"PLUGIN_UNIX_SOCKET_DIR"}
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(allowed, name) {
			t.Errorf("the plugin received %s, which sift did not decide to pass", name)
		}
	}
}

// The variable a built-in digester's api_key_env names passes to it, since
// the digester reads its key from there.
func TestDigesterKeyVariablePasses(t *testing.T) {
	file, diags := hclsyntax.ParseConfig([]byte(`endpoint = "http://127.0.0.1:1/v1"
api_key_env = "LLM_KEY"
`), "t.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	specs, diags := PlanDigesters([]config.Plugin{{Name: "llm", Body: file.Body, Env: []string{"OTHER"}}},
		DigesterBuiltins{"llm": func() sdk.Digester { return nil }}, 1<<20)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if got, want := specs[0].Env, []string{"OTHER", "LLM_KEY"}; !slices.Equal(got, want) {
		t.Errorf("Env = %q, want %q", got, want)
	}
}
