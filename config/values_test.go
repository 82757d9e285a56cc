package config

import (
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

func expr(t *testing.T, src string) hcl.Expression {
	t.Helper()
	e, diags := hclsyntax.ParseExpression([]byte(src), "t.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return e
}

func TestSize(t *testing.T) {
	tests := []struct {
		src     string
		want    int64
		wantErr bool
	}{
		{`"5MiB"`, 5 << 20, false},
		{`"512MiB"`, 512 << 20, false},
		{`"20MB"`, 20_000_000, false},
		{`1024`, 1024, false},
		{`null`, 7, false}, // unset: the default
		{`"lots"`, 7, true},
		{`"-5MiB"`, 7, true},
		{`0`, 7, true},
		{`true`, 7, true},
	}
	for _, tc := range tests {
		got, diags := Size(expr(t, tc.src), 7)
		if got != tc.want || diags.HasErrors() != tc.wantErr {
			t.Errorf("Size(%s) = %d, %v; want %d, error %v", tc.src, got, diags, tc.want, tc.wantErr)
		}
		if tc.wantErr && (diags[0].Subject == nil || diags[0].Subject.Filename != "t.hcl") {
			t.Errorf("Size(%s): diagnostic without a position", tc.src)
		}
	}
}

func TestDuration(t *testing.T) {
	tests := []struct {
		src     string
		want    time.Duration
		wantErr bool
	}{
		{`"20s"`, 20 * time.Second, false},
		{`"1m30s"`, 90 * time.Second, false},
		{`null`, time.Second, false},
		{`"soon"`, time.Second, true},
		{`"-1s"`, time.Second, true},
		{`20`, time.Second, true}, // a bare number has no unit
	}
	for _, tc := range tests {
		got, diags := Duration(expr(t, tc.src), time.Second)
		if got != tc.want || diags.HasErrors() != tc.wantErr {
			t.Errorf("Duration(%s) = %s, %v; want %s, error %v", tc.src, got, diags, tc.want, tc.wantErr)
		}
	}
}
