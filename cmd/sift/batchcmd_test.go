package main

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestParseBatchTargets(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
		wantErr  bool
	}{
		{"object", `{"targets": [{"url": "https://a.example/", "mode": "raw"}]}`, []string{`{"url": "https://a.example/", "mode": "raw"}`}, false},
		{"array of URLs and targets", `["https://a.example/", {"url": "https://b.example/"}]`,
			[]string{`{"url":"https://a.example/"}`, `{"url": "https://b.example/"}`}, false},
		{"lines", "# reading list\nhttps://a.example/\n\n  https://b.example/x  \n",
			[]string{`{"url":"https://a.example/"}`, `{"url":"https://b.example/x"}`}, false},
		{"empty", "  \n", nil, true},
		{"number in array", `[1]`, nil, true},
		{"broken JSON", `{"targets": [`, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseBatchTargets([]byte(tt.in))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err %v, want error %v", err, tt.wantErr)
			}
			var gotS []string
			for _, g := range got {
				gotS = append(gotS, string(g))
			}
			if !reflect.DeepEqual(gotS, tt.want) {
				t.Fatalf("targets %q, want %q", gotS, tt.want)
			}
			for _, g := range got {
				if !json.Valid(g) {
					t.Fatalf("invalid JSON %q", g)
				}
			}
		})
	}
}

func TestProgressBar(t *testing.T) {
	if got := progressBar(3, 8, "running"); got != "[#######-------------] 3/8 running  " {
		t.Fatalf("%q", got)
	}
	if got := progressBar(0, 0, "queued"); got != "[--------------------] 0/0 queued   " {
		t.Fatalf("%q", got)
	}
}

func TestPagesAsFormFeeds(t *testing.T) {
	tests := map[string]string{
		"<!-- page 1 -->\n\nfirst\n\n<!-- page 2 -->\n\n<!-- page 3 -->\n\nthird": "first\f\fthird",
		"no markers here": "no markers here",
		"<!-- page 4 -->": "",
	}
	for in, want := range tests {
		if got := pagesAsFormFeeds(in); got != want {
			t.Errorf("pagesAsFormFeeds(%q) = %q, want %q", in, got, want)
		}
	}
}
