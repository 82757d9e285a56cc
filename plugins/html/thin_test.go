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

// TestChromelessKeepsWrappingForms: a form around most of the page (as
// ASP.NET pages and shops' filter forms have) is content; a sign-up form
// beside the content is chrome.
func TestChromelessKeepsWrappingForms(t *testing.T) {
	posts := strings.Repeat(`<div class="post"><p>POST The update broke the grammar checks in every document we reviewed this morning.</p></div>`, 3)
	signup := `<form action="/subscribe"><p>SIGNUP Get our newsletter</p><input name="email"></form>`
	tests := []struct {
		name, body string
		kept, gone string
	}{
		{"a form around the page stays", `<form id="aspnetForm">` + posts + `</form>` + signup, "POST", "SIGNUP"},
		{"a sign-up form beside the content goes", posts + signup, "POST", "SIGNUP"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := parsePage(t, `<html><body>`+tc.body+`</body></html>`)
			text := textOfNode(chromeless(root))
			if !strings.Contains(text, tc.kept) || strings.Contains(text, tc.gone) {
				t.Errorf("want %s kept and %s gone: %q", tc.kept, tc.gone, text)
			}
		})
	}
}
