package config

import (
	"strings"
	"testing"
)

// TestCallerKeysAreUnique: two caller blocks holding one key (in any case
// of its hex) are an error naming both blocks' file and line; the last
// block would otherwise win, and a copied block could lift a restricted
// key to unrestricted.
func TestCallerKeysAreUnique(t *testing.T) {
	const (
		a = "62af8704764faf8ea82fc61ce9c4c3908b6cb97d463a634e9e587d7c885db0ef"
		b = "1377c1a984d5a3f51cf602be0a02ae75580a1ec45c38b6a3ec2570bdfcb8bf70"
	)
	tests := []struct {
		name string
		src  string
		// want are the texts of the one error expected; none when empty.
		want []string
		// line is the line the error points at.
		line int
	}{
		{"two keys", `caller "x" {
  key_sha256 = "` + a + `"
}
caller "y" {
  key_sha256 = "` + b + `"
}`, nil, 0},
		{"one key twice", `caller "open" {
  key_sha256 = "` + a + `"
}
caller "quiet" {
  key_sha256 = "` + a + `"
  restricted = true
}`, []string{"Duplicate caller key", `caller "quiet" (keys.hcl:4)`, `caller "open" (keys.hcl:1)`}, 4},
		{"one key in two cases", `caller "lower" {
  key_sha256 = "` + a + `"
}

caller "upper" {
  key_sha256 = "` + strings.ToUpper(a) + `"
}`, []string{"Duplicate caller key", `caller "upper" (keys.hcl:5)`, `caller "lower" (keys.hcl:1)`}, 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := Parse([]byte(tc.src+"\n"), "keys.hcl")
			if len(tc.want) == 0 {
				if diags.HasErrors() {
					t.Fatal(diags)
				}
				return
			}
			errs := diags.Errs()
			if len(errs) != 1 {
				t.Fatalf("want one error, got %v", diags)
			}
			d := diags[0]
			text := d.Summary + ": " + d.Detail
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("error %q lacks %q", text, w)
				}
			}
			if d.Subject == nil || d.Subject.Filename != "keys.hcl" || d.Subject.Start.Line != tc.line {
				t.Errorf("error points at %v, want keys.hcl line %d", d.Subject, tc.line)
			}
		})
	}
}
