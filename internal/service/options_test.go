package service

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestPluginOptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		raw     string
		want    map[string]string
		wantErr string
	}{
		{`{"rows": 20, "name": "x", "on": true, "ratio": 2.5}`, map[string]string{"rows": "20", "name": "x", "on": "true", "ratio": "2.5"}, ""},
		{`{"rows": null}`, nil, "options.rows: want a string, a number or a boolean, not null"},
		{`{"rows": [1]}`, nil, "options.rows: want a string, a number or a boolean, not an array"},
		{`{"rows": {"a": 1}}`, nil, "options.rows: want a string, a number or a boolean, not an object"},
		{`{"max_pages": 2}`, nil, "options.max_pages: also given as the request's own field"},
	}
	for _, tc := range tests {
		var raw map[string]json.RawMessage
		if err := json.Unmarshal([]byte(tc.raw), &raw); err != nil {
			t.Fatal(err)
		}
		got, _, ae := PluginOptions("options", raw, map[string]string{"max_pages": "1"})
		if tc.wantErr != "" {
			if ae == nil || !strings.Contains(ae.Message, tc.wantErr) {
				t.Errorf("%s: %v, want an error with %q", tc.raw, ae, tc.wantErr)
			}
			continue
		}
		if ae != nil {
			t.Fatalf("%s: %v", tc.raw, ae)
		}
		for k, v := range tc.want {
			if got[k] != v {
				t.Errorf("%s: %s = %q, want %q", tc.raw, k, got[k], v)
			}
		}
	}
}
