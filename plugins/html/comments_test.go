package html

import (
	"strings"
	"testing"
)

// TestCommentsOption: readers' comments are left out of an article unless
// the comments option is true; a value other than true or false is a bad
// option.
func TestCommentsOption(t *testing.T) {
	para := "<p>" + strings.Repeat("The irrigation guide explains how drip lines water the beds evenly. ", 6) + "</p>"
	page := []byte(`<html><head><title>Drip irrigation</title></head><body><article><h1>Drip irrigation</h1>` +
		strings.Repeat(para, 4) + `</article>
<div id="comments" class="comments"><h2>Comments</h2><ul class="comment-list">
<li class="comment"><p>READER-REMARK one: I put the lines under mulch and it worked well for tomatoes all summer.</p></li>
<li class="comment"><p>READER-REMARK two: the pressure regulator made all the difference on my sloped garden.</p></li>
</ul></div></body></html>`)
	for _, tc := range []struct {
		value string
		want  bool
	}{{"", false}, {"false", false}, {"true", true}} {
		opts := map[string]string{}
		if tc.value != "" {
			opts[OptionComments] = tc.value
		}
		res, err := extractHTML(t, page, pageURL, opts)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(res.Content, "READER-REMARK"); got != tc.want {
			t.Errorf("comments=%q: comments kept %v, want %v:\n%s", tc.value, got, tc.want, res.Content)
		}
		if !strings.Contains(res.Content, "drip lines") {
			t.Errorf("comments=%q: the article lost", tc.value)
		}
	}
	if _, err := extractHTML(t, page, pageURL, map[string]string{OptionComments: "yes"}); err == nil {
		t.Error(`comments "yes" accepted`)
	}
}
