package host

import (
	"os"
	"slices"
	"strconv"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"

	"github.com/siftd/sift/plugins/sdk"
)

// inherited are the variables every plugin receives from sift's
// environment: what a program needs to find its tools and a scratch
// directory, and nothing that could hold a secret.
var inherited = []string{"PATH", "TMPDIR"}

// pluginEnv is the whole environment of a plugin process: inherited, the
// names the spec lists, and the limits the host passes. Plugins parse
// hostile documents, so sift's keys and DSN never reach them; go-plugin
// adds its own protocol variables.
func pluginEnv(s *Spec) []string {
	var env []string
	for _, name := range slices.Concat(inherited, s.Env) {
		if v, ok := os.LookupEnv(name); ok {
			env = append(env, name+"="+v)
		}
	}
	return append(env,
		sdk.EnvMaxMessage+"="+strconv.Itoa(s.MaxMessage),
		sdk.EnvMemoryLimit+"="+strconv.FormatInt(s.Memory, 10))
}

// keyEnv reads the api_key_env a built-in digester block names: the
// digester reads its key from that variable, so the variable passes to it.
func keyEnv(body hcl.Body) string {
	if body == nil {
		return ""
	}
	content, _, diags := body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "api_key_env"}}})
	if diags.HasErrors() || content.Attributes["api_key_env"] == nil {
		return ""
	}
	var name string
	if gohcl.DecodeExpression(content.Attributes["api_key_env"].Expr, nil, &name).HasErrors() {
		return ""
	}
	return name
}
