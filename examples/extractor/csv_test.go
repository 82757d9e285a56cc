package main

import (
	"context"
	"encoding/json"
	"errors"
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
