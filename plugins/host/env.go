package host

import (
	"encoding/json"
	"os"
	"slices"
	"strconv"

	"github.com/siftd/sift/plugins/sdk"
)

// inherited are the variables every plugin receives from sift's
// environment: what a program needs to find its tools and a scratch
// directory, and nothing that could hold a secret.
var inherited = []string{"PATH", "TMPDIR"}

// pluginEnv is the whole environment of a plugin process: inherited, the
// names the spec lists, and the limits the host passes (the block's cpus
// as GOMAXPROCS among them). Plugins parse hostile documents, so sift's
// keys and DSN never reach them; go-plugin adds its own protocol variables.
func pluginEnv(s *Spec) []string {
	var env []string
	for _, name := range slices.Concat(inherited, s.Env) {
		if v, ok := os.LookupEnv(name); ok {
			env = append(env, name+"="+v)
		}
	}
	env = append(env,
		sdk.EnvMaxMessage+"="+strconv.Itoa(s.MaxMessage),
		sdk.EnvMemoryLimit+"="+strconv.FormatInt(s.Memory, 10))
	if s.CPUs > 0 {
		// Go's runtime reads it at start; last, so that it wins over a
		// GOMAXPROCS the block's env passes on.
		env = append(env, "GOMAXPROCS="+strconv.Itoa(s.CPUs))
	}
	return env
}

// envAttributes are the variables the plugin's block names in the
// attributes its schema marks Env (sdk.Attribute.Env), read from the
// block as decoded: the plugin's processes receive them.
func envAttributes(schema sdk.Schema, cfg []byte) []string {
	var values map[string]any
	if json.Unmarshal(cfg, &values) != nil {
		return nil
	}
	var names []string
	for _, a := range schema.Attributes {
		if name, ok := values[a.Name].(string); a.Env && ok && name != "" {
			names = append(names, name)
		}
	}
	return names
}
