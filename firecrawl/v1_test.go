package firecrawl

import "testing"

// TestIsV1Search: a /v1/search body is Firecrawl v1's when it has a field
// only Firecrawl's search has and none only sift's has.
func TestIsV1Search(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		body string
		v1   bool
	}{
		{`{"query":"q","limit":5,"lang":"en","country":"us","origin":"js-sdk@1.29.3","timeout":60000,"scrapeOptions":{"formats":[]}}`, true},
		{`{"query":"q","limit":3}`, true},
		{`{"query":"q"}`, false},
		{`{"query":"q","k":3,"question":"why"}`, false},
		{`{"query":"q","limit":3,"k":3}`, false}, // sift's, which then names limit as unknown
		{`not json`, false},
	} {
		if got := IsV1Search([]byte(tc.body)); got != tc.v1 {
			t.Errorf("%s: v1 %v, want %v", tc.body, got, tc.v1)
		}
	}
}
