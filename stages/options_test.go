package stages

import (
	"maps"
	"testing"
)

// TestOptionsFor: an option scoped to a media type reaches that type's
// extractor in place of the unscoped one of its name, and no other type's.
func TestOptionsFor(t *testing.T) {
	opts := map[string]string{"max_pages": "2", "ocr": "always", OptionFor("application/pdf", "ocr"): "never",
		OptionFor("text/csv", "rows"): "3"}
	tests := []struct {
		mediaType string
		want      map[string]string
	}{
		{"application/pdf", map[string]string{"max_pages": "2", "ocr": "never"}},
		{"image/png", map[string]string{"max_pages": "2", "ocr": "always"}},
		{"text/csv", map[string]string{"max_pages": "2", "ocr": "always", "rows": "3"}},
	}
	for _, tc := range tests {
		if got := (Request{Options: opts}).OptionsFor(tc.mediaType); !maps.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.mediaType, got, tc.want)
		}
	}
	plain := map[string]string{"ocr": "auto"}
	if got := (Request{Options: plain}).OptionsFor("image/png"); !maps.Equal(got, plain) {
		t.Errorf("unscoped: %v", got)
	}
}
