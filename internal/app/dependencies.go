package app

import (
	"os"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"

	"github.com/siftd/sift/health"
)

// Dependencies returns a probe for each outside service the configuration
// names: the chat endpoint of every digester ("digester/NAME") and the
// context source ("context/honcho"). Honcho is only dialled: sift calls no
// route of it but search.
func (a *App) Dependencies() map[string]health.Probe {
	probes := map[string]health.Probe{}
	for _, d := range a.Config.Digesters {
		if endpoint, keyEnv, ok := digesterEndpoint(d.Body); ok {
			probes["digester/"+d.Name] = health.Models(endpoint, os.Getenv(keyEnv))
		}
	}
	if c := a.Config.Context; c != nil {
		probes["context/"+c.Kind] = health.Dial(c.URL)
	}
	return probes
}

// digesterEndpoint reads the endpoint a digester block names; the block's
// other attributes belong to the plugin's schema and are left alone.
func digesterEndpoint(body hcl.Body) (endpoint, keyEnv string, ok bool) {
	if body == nil {
		return "", "", false
	}
	content, _, diags := body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{
		{Name: "endpoint"}, {Name: "api_key_env"},
	}})
	if diags.HasErrors() || content.Attributes["endpoint"] == nil {
		return "", "", false
	}
	if gohcl.DecodeExpression(content.Attributes["endpoint"].Expr, nil, &endpoint).HasErrors() {
		return "", "", false
	}
	if a := content.Attributes["api_key_env"]; a != nil {
		_ = gohcl.DecodeExpression(a.Expr, nil, &keyEnv)
	}
	return endpoint, keyEnv, true
}
