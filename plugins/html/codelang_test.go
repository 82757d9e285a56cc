package html

import (
	"strings"
	"testing"
)

// codePage puts a code block, as markup, in an article long enough to be
// read as the page's content.
func codePage(markup string) string {
	return `<html><head><title>Notes</title></head><body><article><h1>Reading a file line by line</h1>` +
		`<p>Most languages read a file one line at a time with a loop over a reader, and this note shows the shape of that loop.</p>` +
		markup +
		`<p>The loop ends at the end of the file, and the reader is closed when the function returns, whatever happened in between.</p>` +
		`</article></body></html>`
}

const codeLines = "for line in open(path):\n    print(line)"

// TestCodeFenceLanguage: the fence names the language the page names for
// the block, whichever highlighter's convention names it.
func TestCodeFenceLanguage(t *testing.T) {
	for _, tc := range []struct{ name, markup, want string }{
		{"language- on code", `<pre><code class="language-python">` + codeLines + `</code></pre>`, "python"},
		{"lang- on pre", `<pre class="lang-python">` + codeLines + `</pre>`, "python"},
		{"highlight- on a wrapper", `<div class="highlight-python notranslate"><div class="highlight"><pre>` + codeLines + `</pre></div></div>`, "python"},
		{"GitHub's highlight-source-", `<div class="highlight highlight-source-python"><pre>` + codeLines + `</pre></div>`, "python"},
		{"GitHub's highlight-text-html-basic", `<div class="highlight highlight-text-html-basic"><pre>&lt;p&gt;a&lt;/p&gt;` + "\n" + `&lt;p&gt;b&lt;/p&gt;</pre></div>`, "html"},
		{"SyntaxHighlighter's brush:", `<pre class="brush: python; gutter: false">` + codeLines + `</pre>`, "python"},
		{"highlight.js's bare name", `<pre><code class="hljs python">` + codeLines + `</code></pre>`, "python"},
		{"Pandoc's sourceCode", `<div class="sourceCode"><pre class="sourceCode python"><code class="sourceCode python">` + codeLines + `</code></pre></div>`, "python"},
		{"Prism's language- on pre", `<pre class="language-python line-numbers"><code class="language-python">` + codeLines + `</code></pre>`, "python"},
		{"data-lang", `<pre data-lang="Python"><code>` + codeLines + `</code></pre>`, "python"},
		{"rendered tokens inside", `<pre><code class="language-python"><span class="k">for</span> line <span class="ow">in</span> open(path):` + "\n" + `    <span class="nb">print</span>(line)</code></pre>`, "python"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := extractHTML(t, []byte(codePage(tc.markup)), pageURL, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(res.Content, "```"+tc.want+"\n") {
				t.Errorf("no fence naming %s in:\n%s", tc.want, res.Content)
			}
			if strings.ContainsAny(res.Content, string([]rune{langOpen, langClose})) {
				t.Errorf("a language mark is left in:\n%q", res.Content)
			}
		})
	}
}

// TestCodeFenceNoLanguage: a block the page names no language for, or
// one a highlighter marks plain, or whose "lang" is a natural language's,
// gets a bare fence.
func TestCodeFenceNoLanguage(t *testing.T) {
	for _, tc := range []struct{ name, markup string }{
		{"no class", `<pre><code>` + codeLines + `</code></pre>`},
		{"nohighlight", `<pre><code class="nohighlight">` + codeLines + `</code></pre>`},
		{"language-none", `<pre><code class="language-none">` + codeLines + `</code></pre>`},
		{"a natural language's lang", `<pre lang="en"><code>` + codeLines + `</code></pre>`},
		{"a name that is no fence's", `<pre><code class="language-a{b}">` + codeLines + `</code></pre>`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := extractHTML(t, []byte(codePage(tc.markup)), pageURL, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(res.Content, "```\nfor line in open(path):") {
				t.Errorf("want a bare fence in:\n%s", res.Content)
			}
		})
	}
}

// TestCodeFenceLanguageWholePage: with main_content false the fences name
// their language too.
func TestCodeFenceLanguageWholePage(t *testing.T) {
	res, err := extractHTML(t, []byte(codePage(`<div class="highlight-python"><pre>`+codeLines+`</pre></div>`)), pageURL,
		map[string]string{OptionMainContent: "false"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Content, "```python\n") {
		t.Errorf("no fence naming python in:\n%s", res.Content)
	}
}
