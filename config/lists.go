package config

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// StringList decodes an optional list of strings strictly, for the
// stage kinds' own blocks; name is the attribute's, for the diagnostic.
func StringList(expr hcl.Expression, name string) ([]string, hcl.Diagnostics) {
	return stringList(expr, name)
}

// stringList decodes an optional list of strings strictly: HCL would turn
// the 5 of ["text/html", 5] into "5" without a word, and a content type,
// a command's argument or a variable's name written as a number is a
// mistake to point at, not to guess.
func stringList(expr hcl.Expression, name string) ([]string, hcl.Diagnostics) {
	if isUnset(expr) {
		return nil, nil
	}
	v, diags := expr.Value(nil)
	if diags.HasErrors() || !v.IsWhollyKnown() {
		return nil, diags
	}
	if !v.Type().IsTupleType() && !v.Type().IsListType() && !v.Type().IsSetType() {
		return nil, hcl.Diagnostics{attrError(expr.Range().Ptr(), "Invalid "+name,
			fmt.Sprintf("%s is a list of strings, like [\"a\", \"b\"]; got %s.", name, v.Type().FriendlyName()))}
	}
	out := make([]string, 0, v.LengthInt())
	for i, it := 0, v.ElementIterator(); it.Next(); i++ {
		_, el := it.Element()
		if el.IsNull() || !el.IsKnown() || el.Type() != cty.String {
			what := "null"
			if !el.IsNull() {
				what = "a " + el.Type().FriendlyName()
			}
			return nil, hcl.Diagnostics{attrError(elementRange(expr, i), "Invalid "+name,
				fmt.Sprintf("element %d of %s is %s; every element is a quoted string.", i+1, name, what))}
		}
		out = append(out, el.AsString())
	}
	return out, nil
}

// elementRange points at the i-th element of a list literal, or at the
// whole expression when it is not one.
func elementRange(expr hcl.Expression, i int) *hcl.Range {
	if elems, diags := hcl.ExprList(expr); !diags.HasErrors() && i < len(elems) {
		return elems[i].Range().Ptr()
	}
	return expr.Range().Ptr()
}

// mediaTypeList is stringList for content_types: every element is a
// media type or a pattern of one ("text/html", "text/*"), never a bare
// word such as "html", which would match nothing.
func mediaTypeList(expr hcl.Expression) ([]string, hcl.Diagnostics) {
	list, diags := stringList(expr, "content_types")
	for i, mt := range list {
		typ, sub, ok := strings.Cut(mt, "/")
		if !ok || typ == "" || sub == "" || strings.ContainsAny(mt, " ;\t") || strings.Contains(sub, "/") {
			diags = append(diags, attrError(elementRange(expr, i), "Invalid content_types",
				fmt.Sprintf("element %d, %q, is not a media type: write type/subtype, like \"text/html\", or a pattern like \"text/*\".", i+1, mt)))
		}
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return list, diags
}
