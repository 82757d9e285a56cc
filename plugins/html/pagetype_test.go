package html

import "testing"

// TestHAtomPost: one element classed hentry and post (a blog post in
// hAtom, as Blogger and WordPress mark it) makes an article of a page that
// declares nothing else; a WordPress page (hentry page), several posts (an
// index) and a declared product or list do not.
func TestHAtomPost(t *testing.T) {
	post := `<div class="post hentry uncustomized-post-template"><p>x</p></div>`
	for _, tc := range []struct {
		name, head, body string
		want             bool
	}{
		{"Blogger post", ``, post, true},
		{"WordPress post", ``, `<article class="post-12 post type-post status-publish hentry"><p>x</p></article>`, true},
		{"WordPress page", ``, `<article class="post-12 page type-page status-publish hentry"><p>x</p></article>`, false},
		{"hentry alone", ``, `<div class="hentry"><p>x</p></div>`, false},
		{"an index of posts", ``, post + post, false},
		{"a declared product", `<meta property="og:type" content="product">`, post, false},
		{"a declared list", `<script type="application/ld+json">{"@type":"ItemList"}</script>`, post, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := parsePage(t, `<html><head>`+tc.head+`</head><body>`+tc.body+`</body></html>`)
			if got := pageTypeOf(root).article; got != tc.want {
				t.Errorf("article = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestBlogPostIsAnArticle: a blog platform's post page that declares
// nothing but its hAtom classes is read as an article, so its header,
// sidebar widgets and readers' comments stay out, as they do on a page
// that declares its article.
func TestBlogPostIsAnArticle(t *testing.T) {
	md := extractFile(t, "blogpost").Content
	checkText(t, md, []string{"Mulch laid before the first hot week", "before the heat arrives rather than after it"},
		[]string{"COMMENT-", "SIDEBAR-", "Blog Archive", "About Me"})
}
