package service

import "testing"

// TestNoScheme: a URL without a scheme is told to send one; one whose
// scheme sift does not read is told which; one with "://" is the guard's.
func TestNoScheme(t *testing.T) {
	t.Parallel()
	tests := []struct{ url, want string }{
		{"https://example.com/", ""},
		{"ftp://example.com/", ""},
		{"example.com/page", `url "example.com/page" has no scheme: send an absolute URL, such as https://example.com/page`},
		{"//example.com/page", `url "//example.com/page" has no scheme: send an absolute URL, such as https://example.com/page`},
		{"localhost:8080/x", `url "localhost:8080/x" has no scheme: send an absolute URL, such as https://localhost:8080/x`},
		{"javascript:alert(1)", `url "javascript:alert(1)": scheme "javascript" is not supported: send an http or https URL`},
		{"JavaScript:alert(1)", `url "JavaScript:alert(1)": scheme "javascript" is not supported: send an http or https URL`},
		{"mailto:a@example.com", `url "mailto:a@example.com": scheme "mailto" is not supported: send an http or https URL`},
		{"data:text/html,hi", `url "data:text/html,hi": scheme "data" is not supported: send an http or https URL`},
		{"https:example.com", `url "https:example.com" has no host after its scheme: send an absolute URL, such as https://example.com`},
		{"user@host:x", `url "user@host:x" has no scheme: send an absolute URL, such as https://user@host:x`},
	}
	for _, tc := range tests {
		if got := NoScheme(tc.url); got != tc.want {
			t.Errorf("NoScheme(%q) = %q, want %q", tc.url, got, tc.want)
		}
	}
}
