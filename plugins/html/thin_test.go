package html

import (
	"strings"
	"testing"
)

func TestTitleOnly(t *testing.T) {
	tests := []struct {
		content, title string
		want           bool
	}{
		{"# Beatrice Tan Rug", "Beatrice Tan Rug | Ruggable US", true},
		{"Ruggable US", "Beatrice Tan Rug | Ruggable US", true},
		{"Beatrice Tan Rug: a low pile rug", "Beatrice Tan Rug | Ruggable US", false},
		{"", "Beatrice Tan Rug", false},
		{"[Beatrice Tan Rug](https://shop.example/rug)", "Beatrice Tan Rug", false},
	}
	for _, tc := range tests {
		if got := titleOnly(tc.content, tc.title); got != tc.want {
			t.Errorf("titleOnly(%q, %q) = %v, want %v", tc.content, tc.title, got, tc.want)
		}
	}
}

// TestShellPageHasNoContent: a page whose only text is its title is
// returned with no content and a warning saying why.
func TestShellPageHasNoContent(t *testing.T) {
	page := `<html><head><title>Beatrice Tan Rug | Ruggable US</title></head><body><div id="root"><h1>Beatrice Tan Rug</h1><p>Ruggable US</p></div><script src="/app.js"></script></body></html>`
	res, err := extractHTML(t, []byte(page), pageURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Content != "" || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "nothing to read") {
		t.Errorf("content %q, warnings %q; want no content and one warning", res.Content, res.Warnings)
	}
	if !strings.HasPrefix(res.Title, "Beatrice Tan Rug") {
		t.Errorf("title %q", res.Title)
	}
}
