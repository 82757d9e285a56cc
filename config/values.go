package config

import (
	"fmt"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/zclconf/go-cty/cty"
)

// The helpers below decode one optional attribute kept as an expression and
// point any diagnostic at it. An unset attribute yields the default.

func isUnset(expr hcl.Expression) bool {
	if expr == nil {
		return true
	}
	v, diags := expr.Value(nil)
	return !diags.HasErrors() && v.IsNull()
}

func optString(expr hcl.Expression, def string, diags hcl.Diagnostics) (string, hcl.Diagnostics) {
	if isUnset(expr) {
		return def, diags
	}
	var s string
	ds := gohcl.DecodeExpression(expr, nil, &s)
	return s, append(diags, ds...)
}

func optInt(expr hcl.Expression, def, lo, hi int, diags hcl.Diagnostics) (int, hcl.Diagnostics) {
	if isUnset(expr) {
		return def, diags
	}
	var n int
	if ds := gohcl.DecodeExpression(expr, nil, &n); ds.HasErrors() {
		return def, append(diags, ds...)
	}
	if n < lo || n > hi {
		diags = append(diags, attrError(expr.Range().Ptr(), "Value out of range",
			fmt.Sprintf("must be between %d and %d, got %d.", lo, hi, n)))
	}
	return n, diags
}

// optDuration accepts Go duration strings such as "20s" or "1m30s".
func optDuration(expr hcl.Expression, def time.Duration, diags hcl.Diagnostics) (time.Duration, hcl.Diagnostics) {
	d, ds := Duration(expr, def)
	return d, append(diags, ds...)
}

// optSize accepts byte sizes such as "5MiB", "512MiB" or "20MB".
func optSize(expr hcl.Expression, def int64, diags hcl.Diagnostics) (int64, hcl.Diagnostics) {
	n, ds := Size(expr, def)
	return n, append(diags, ds...)
}

// Duration decodes an optional duration attribute ("20s", "1m30s").
func Duration(expr hcl.Expression, def time.Duration) (time.Duration, hcl.Diagnostics) {
	if isUnset(expr) {
		return def, nil
	}
	var s string
	if ds := gohcl.DecodeExpression(expr, nil, &s); ds.HasErrors() {
		return def, ds
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return def, hcl.Diagnostics{attrError(expr.Range().Ptr(), "Invalid duration",
			fmt.Sprintf("%q is not a positive duration; write it like \"20s\" or \"1m30s\".", s))}
	}
	return d, nil
}

// Size decodes an optional byte size attribute ("5MiB", "512MiB", "20MB").
func Size(expr hcl.Expression, def int64) (int64, hcl.Diagnostics) {
	if isUnset(expr) {
		return def, nil
	}
	v, ds := expr.Value(nil)
	if ds.HasErrors() {
		return def, ds
	}
	if v.Type() == cty.Number {
		n, _ := v.AsBigFloat().Int64()
		return positiveSize(expr, n, def)
	}
	var s string
	if ds := gohcl.DecodeExpression(expr, nil, &s); ds.HasErrors() {
		return def, ds
	}
	n, err := humanize.ParseBytes(s)
	if err != nil {
		return def, hcl.Diagnostics{attrError(expr.Range().Ptr(), "Invalid size",
			fmt.Sprintf("%q is not a size; write it like \"5MiB\" or \"512MiB\".", s))}
	}
	return positiveSize(expr, int64(n), def)
}

func positiveSize(expr hcl.Expression, n, def int64) (int64, hcl.Diagnostics) {
	if n <= 0 {
		return def, hcl.Diagnostics{attrError(expr.Range().Ptr(), "Invalid size", "a size must be positive.")}
	}
	return n, nil
}
