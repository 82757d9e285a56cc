package html

import (
	"strings"
	"testing"

	"github.com/go-shiori/dom"
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

func TestChromeOnly(t *testing.T) {
	const chrome = `<nav><a href="/help">Help Center</a> <a href="/returns">Returns and refunds</a></nav>` +
		`<div role="contentinfo"><p>Shipping policy Privacy notice Terms of use</p></div>`
	tests := []struct {
		name, content string
		want          bool
	}{
		{"the menu and footer again", "Help Center, Returns and refunds\n\nShipping policy · Privacy notice · Terms of use", true},
		{"nine words in ten from the chrome", "Help Center Returns and refunds Shipping policy Privacy notice Desk", true},
		{"a product beside its menu", "Help Center Returns and refunds: the desk frame lifts 120 kg", false},
		{"a chrome word twice counts once", "Help Help Help Center", false},
		{"no words", "", false},
	}
	root := parsePage(t, `<html><body>`+chrome+`<div id="app"></div></body></html>`)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := chromeOnly(tc.content, root); got != tc.want {
				t.Errorf("chromeOnly(%q) = %v, want %v", tc.content, got, tc.want)
			}
		})
	}
}

// TestChromePageHasNoContent: a page whose scripts would build its
// content holds, as served, only its menus and footer; it is returned
// with no content and a warning, not with its footer's links.
func TestChromePageHasNoContent(t *testing.T) {
	page := `<html><head><title>Desk converter | Shop</title></head><body><div id="root"></div><footer><div class="site-footer">` +
		`<dl><dt><h5>Help</h5></dt><dd><a href="/help">Help Center</a>, <a href="/disputes">Disputes and reports</a>, ` +
		`<a href="/returns">Return and refund policy</a>, <a href="/ipr">Report an infringement</a>, ` +
		`<a href="/transparency">Transparency center</a>, <a href="/compliance">Integrity compliance</a></dd></dl>` +
		`<dl><dt><h5>Shop in your language</h5></dt><dd><a href="//ru.shop.example">Russian</a>, ` +
		`<a href="//pt.shop.example">Portuguese</a>, <a href="//es.shop.example">Spanish</a>, <a href="//fr.shop.example">French</a>, ` +
		`<a href="//de.shop.example">German</a>, <a href="//it.shop.example">Italian</a></dd></dl>` +
		`<p>Copyright 2010-2026 Shop.com. All rights reserved. Intellectual property protection, privacy policy, sitemap.</p>` +
		`</div></footer><script src="/app.js"></script></body></html>`
	res, err := extractHTML(t, []byte(page), pageURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Content != "" || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "menus and footer") {
		t.Errorf("content %q, warnings %q; want no content and one warning", res.Content, res.Warnings)
	}
}

// wordsInCount counts what wordsIn returns, in every script and on
// broken UTF-8.
func TestWordsInCount(t *testing.T) {
	for _, s := range []string{"", "Home · About us", "İSTANBUL'DA ŞİŞLİ", "数据 data 2024", "a\xffb \xc3", "— — —", "x1y2 z"} {
		if got, want := wordsInCount(s), len(wordsIn(s)); got != want {
			t.Errorf("%q: counted %d, wordsIn has %d", s, got, want)
		}
	}
}

// TestFlattenedPageKeepsItsStructure: on a page of sections whose
// paragraphs sit in <div class="para">, go-trafilatura fell back to the
// page's text run into one paragraph, headings and all.
func TestFlattenedPageKeepsItsStructure(t *testing.T) {
	page := `<html><head><title>Backups</title></head><body><section><h2>Backing up the diary</h2>
<div class="para"><div>The diary is one file, so a backup is a copy of that file taken while no command is being written to it.</div></div>
<div class="para"><div>Run quokka backup to make a consistent copy even while shells are open; it uses the online backup and never blocks a prompt.</div></div>
<h3>Restoring</h3>
<div class="para"><div>To restore, stop every shell that uses Quokka, put the copy in place of the diary file, and open a new shell.</div></div>
</section></body></html>`
	res, err := extractHTML(t, []byte(page), pageURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Backing up the diary\n\nThe diary is one file", "written to it.\n\nRun quokka", "### Restoring\n\nTo restore"} {
		if !strings.Contains(res.Content, want) {
			t.Errorf("%q missing from:\n%s", want, res.Content)
		}
	}
}

func TestFlattened(t *testing.T) {
	for _, tc := range []struct {
		name, content string
		want          bool
	}{
		{"one paragraph of text", `<p>All the text of the page.</p>`, true},
		{"a paragraph with markup", `<p>Some <b>bold</b> text.</p>`, false},
		{"two paragraphs", `<p>One.</p><p>Two.</p>`, false},
		{"a heading and a paragraph", `<h2>Title</h2><p>Text.</p>`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := dom.QuerySelector(parsePage(t, "<html><body>"+tc.content+"</body></html>"), "body")
			if got := flattened(body); got != tc.want {
				t.Errorf("flattened = %v, want %v", got, tc.want)
			}
		})
	}
}
