// Package hclconfig decodes a plugin's HCL block against the plugin's
// schema, as sift does: sift's plugin host and the sdktest helpers share
// it, so a plugin author's test sees the diagnostics an operator would.
package hclconfig

import (
	"encoding/json"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/siftd/sift/plugins/sdk"
)

// SiftAttributes are the attributes of an extractor or digester block that
// sift itself reads (how to run the plugin); the rest of the block is the
// plugin's, decoded by Decode.
var SiftAttributes = []string{"command", "sha256", "content_types", "env", "pool", "timeout", "memory", "cpus", "isolation", "per_caller"}

// Decode decodes the plugin's part of a block against its schema, so
// diagnostics keep the file and line they are about, and returns the
// attributes set as the JSON object the plugin's Configure receives.
func Decode(body hcl.Body, schema sdk.Schema) (json.RawMessage, hcl.Diagnostics) {
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
	if diags := checkIntegers(body, schema, val); diags.HasErrors() {
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
	case sdk.TypeNumber, sdk.TypeInteger:
		return cty.Number, nil
	case sdk.TypeBool:
		return cty.Bool, nil
	case sdk.TypeStringList:
		return cty.List(cty.String), nil
	}
	return cty.NilType, fmt.Errorf("unknown type %q", t)
}

// checkIntegers refuses a fraction where the schema wants an integer, on
// the attribute's line, so the plugin never sees 2.5 for a row count.
func checkIntegers(body hcl.Body, schema sdk.Schema, val cty.Value) hcl.Diagnostics {
	attrs, _ := body.JustAttributes()
	var diags hcl.Diagnostics
	for _, a := range schema.Attributes {
		if a.Type != sdk.TypeInteger {
			continue
		}
		v := val.GetAttr(a.Name)
		if v.IsNull() || !v.IsKnown() || v.AsBigFloat().IsInt() {
			continue
		}
		d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid " + a.Name,
			Detail: fmt.Sprintf("%s must be a whole number, not %s.", a.Name, v.AsBigFloat().Text('g', -1))}
		if attr, ok := attrs[a.Name]; ok {
			d.Subject = attr.Expr.Range().Ptr()
		}
		diags = append(diags, d)
	}
	return diags
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

// PluginDiagnostics turns a plugin's Configure diagnostics into HCL
// diagnostics pointing at the attribute they name, or else at the block
// (def); name is the block's label.
func PluginDiagnostics(name string, body hcl.Body, def hcl.Range, ds sdk.Diagnostics) hcl.Diagnostics {
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
