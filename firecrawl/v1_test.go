package firecrawl

import "testing"

// TestFromJSV1: firecrawl-js 1.x is known by its origin, or by none, as
// 1.21 and older send no origin; another client's label is not taken.
func TestFromJSV1(t *testing.T) {
	t.Parallel()
	tests := []struct {
		body string
		want bool
	}{
		{`{"url": "https://example.org/", "origin": "js-sdk@1.29.3"}`, true},
		{`{"url": "https://example.org/"}`, true},
		{`{"url": "https://example.org/", "origin": "python-sdk@1.4.0"}`, false},
		{`{"url": "https://example.org/", "origin": "js-sdk@4.42.0"}`, false},
		{`not json`, false},
	}
	for _, tc := range tests {
		if got := fromJSV1([]byte(tc.body)); got != tc.want {
			t.Errorf("fromJSV1(%s) = %v, want %v", tc.body, got, tc.want)
		}
	}
}
