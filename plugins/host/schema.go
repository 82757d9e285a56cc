package host

import (
	"encoding/json"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/siftd/sift/plugins/sdk"
)

// decodeBody decodes the plugin-specific part of an extractor block against
// the plugin's schema, so diagnostics keep the operator's file and line.
// It returns the attributes as a JSON object for Configure.
func decodeBody(body hcl.Body, schema sdk.Schema) (json.RawMessage, hcl.Diagnostics) {
	spec := hcldec.ObjectSpec{}
	for _, a := range schema.Attributes {
		typ, err := ctyType(a.Type)
		if err != nil {
			return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid plugin schema",
				Detail: fmt.Sprintf("attribute %q: %v", a.Name, err)}}
		}
		spec[a.Name] = &hcldec.AttrSpec{Name: a.Name, Type: typ, Required: a.Required}
	}
	val, diags := hcldec.Decode(body, spec, nil)
	if diags.HasErrors() {
		return nil, diags
	}
	raw, err := ctyjson.Marshal(dropNulls(val), dropNulls(val).Type())
	if err != nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot encode plugin config", Detail: err.Error()}}
	}
	return raw, nil
}

func ctyType(t sdk.AttrType) (cty.Type, error) {
	switch t {
	case sdk.TypeString:
		return cty.String, nil
	case sdk.TypeNumber:
		return cty.Number, nil
	case sdk.TypeBool:
		return cty.Bool, nil
	case sdk.TypeStringList:
		return cty.List(cty.String), nil
	}
	return cty.NilType, fmt.Errorf("unknown type %q", t)
}

// dropNulls removes unset attributes so the plugin sees only what the
// operator wrote.
func dropNulls(v cty.Value) cty.Value {
	attrs := map[string]cty.Value{}
	for k, av := range v.AsValueMap() {
		if !av.IsNull() {
			attrs[k] = av
		}
	}
	return cty.ObjectVal(attrs)
}

// pluginDiags turns a plugin's Configure diagnostics into HCL diagnostics
// pointing at the attribute they name, or at the block.
func pluginDiags(name string, body hcl.Body, def hcl.Range, ds sdk.Diagnostics) hcl.Diagnostics {
	attrs, _ := body.JustAttributes()
	var out hcl.Diagnostics
	for _, d := range ds {
		subject := def.Ptr()
		if a, ok := attrs[d.Attribute]; ok {
			subject = a.Expr.Range().Ptr()
		}
		sev := hcl.DiagError
		if d.Severity == sdk.SeverityWarning {
			sev = hcl.DiagWarning
		}
		out = append(out, &hcl.Diagnostic{Severity: sev, Summary: fmt.Sprintf("extractor %q: %s", name, d.Summary),
			Detail: d.Detail, Subject: subject})
	}
	return out
}
