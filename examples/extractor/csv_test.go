package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/plugins/sdk/sdktest"
)

func TestExtract(t *testing.T) {
	tests := []struct {
		name, body, want string
		warnings         int
	}{
		{"table", "name,qty\nbolt,3\nnut,5\n", "| name | qty |\n| --- | --- |\n| bolt | 3 |\n| nut | 5 |", 0},
		{"pipes and newlines", "a\n\"x|y\nz\"\n", "| a |\n| --- |\n| x\\|y z |", 0},
		{"ragged rows padded", "a,b\n1\n", "| a | b |\n| --- | --- |\n| 1 |  |", 0},
		{"cut", "h\n1\n2\n3\n", "| h |\n| --- |\n| 1 |\n| 2 |", 1},
	}
	ex := sdktest.Extractor(t, &csvExtractor{maxRows: 2})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := ex.Extract(context.Background(), &sdk.ExtractRequest{Body: []byte(tc.body), ContentType: "text/csv"})
			if err != nil {
				t.Fatal(err)
			}
			if res.Content != tc.want || len(res.Warnings) != tc.warnings {
				t.Errorf("got %q %q, want %q with %d warnings", res.Content, res.Warnings, tc.want, tc.warnings)
			}
		})
	}
}

func TestMalformed(t *testing.T) {
	ex := sdktest.Extractor(t, &csvExtractor{maxRows: 10})
	_, err := ex.Extract(context.Background(), &sdk.ExtractRequest{Body: []byte("a,\"b\nc")})
	var de *sdk.DocError
	if !errors.As(err, &de) || de.Class != sdk.ClassInvalid {
		t.Fatalf("err = %v, want an invalid DocError", err)
	}
}

func TestConfigure(t *testing.T) {
	ex := sdktest.Extractor(t, &csvExtractor{maxRows: defaultMaxRows})
	diags, err := ex.Configure(context.Background(), json.RawMessage(`{"max_rows": 0}`))
	if err != nil || len(diags) != 1 || diags[0].Attribute != "max_rows" {
		t.Fatalf("diags %v, err %v", diags, err)
	}
}

// readmeBlock returns the first fenced block of README.md whose info string
// is lang.
func readmeBlock(t *testing.T, lang string) string {
	t.Helper()
	raw, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?ms)^```" + regexp.QuoteMeta(lang) + "\n(.*?)^```\n").FindStringSubmatch(string(raw))
	if m == nil {
		t.Fatalf("README.md has no ```%s block", lang)
	}
	return m[1]
}

// TestREADME: the block README.md tells an operator to write configures
// the plugin (sift's own attributes aside), and the CSV it shows converts
// into the table it shows.
func TestREADME(t *testing.T) {
	ex := sdktest.ConfiguredExtractor(t, &csvExtractor{maxRows: defaultMaxRows}, readmeBlock(t, "hcl"))
	res, err := ex.Extract(t.Context(), &sdk.ExtractRequest{Body: []byte(readmeBlock(t, "csv")), ContentType: "text/csv"})
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.TrimSuffix(readmeBlock(t, "markdown"), "\n"); res.Content != want || len(res.Warnings) != 0 {
		t.Errorf("README's CSV gives %q %q, want README's table %q", res.Content, res.Warnings, want)
	}
	res, err = ex.Extract(t.Context(), &sdk.ExtractRequest{Body: []byte(readmeBlock(t, "csv")), ContentType: "text/csv",
		Options: map[string]string{"rows": "1"}})
	if err != nil || len(res.Warnings) != 1 || res.Warnings[0] != "table cut at 1 of 3 rows" {
		t.Errorf("rows = 1: %v %+v, want the warning README names", err, res)
	}
	if diags := sdktest.Configure(t, ex, strings.Replace(readmeBlock(t, "hcl"), "max_rows = 200", "max_rows = 2.5", 1)); !strings.Contains(diags.Error(), "config.hcl:4") || !strings.Contains(diags.Error(), "whole number") {
		t.Errorf("max_rows = 2.5: %v, want a diagnostic on line 4", diags)
	}
}
