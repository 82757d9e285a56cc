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
		{"mdBook's buttons ahead of the code", `<pre class="playground"><div class="buttons"><button title="Copy" aria-label="Copy to clipboard"><i class="tooltiptext"></i></button></div><code class="language-python hljs">` + codeLines + `</code></pre>`, "python"},
		{"Chroma's line numbers beside the code", `<div class="highlight"><div class="chroma"><table class="lntable"><tr><td class="lntd"><pre class="chroma"><code><span class="lnt">1` + "\n" + `</span><span class="lnt">2` + "\n" +
			`</span></code></pre></td><td class="lntd"><pre class="chroma"><code class="language-python" data-lang="python">` + codeLines + `</code></pre></td></tr></table></div></div>`, "python"},
		{"Pygments' highlighttable", `<table class="highlighttable"><tr><td class="linenos"><div class="linenodiv"><pre>1` + "\n" + `2</pre></div></td><td class="code"><div class="highlight"><pre><span></span>` + codeLines + `</pre></div></td></tr></table>`, ""},
		{"data-lang", `<pre data-lang="Python"><code>` + codeLines + `</code></pre>`, "python"},
		{"rendered tokens inside", `<pre><code class="language-python"><span class="k">for</span> line <span class="ow">in</span> open(path):` + "\n" + `    <span class="nb">print</span>(line)</code></pre>`, "python"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := extractHTML(t, []byte(codePage(tc.markup)), pageURL, nil)
			if err != nil {
				t.Fatal(err)
			}
			// the fence names the language, and the code follows it
			if !strings.Contains(res.Content, "```"+tc.want+"\n") || !strings.Contains(res.Content, "\nfor line in open(path):") && tc.want != "html" {
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

// TestCodeBlockInADefinition: a library reference's example in a <dd>,
// which go-trafilatura put inside the paragraph before it as one code
// span, is a block again, its fence naming its language.
func TestCodeBlockInADefinition(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<html><head><title>functools</title></head><body><div role="main"><dl class="py function"><dt>functools.lru_cache(maxsize)</dt><dd>`)
	for i := 0; i < 4; i++ {
		b.WriteString(`<p>Decorator to wrap a function with a memoizing callable that saves up to the maxsize most recent calls, which saves time.</p>`)
	}
	b.WriteString(`<p>It can be applied directly to a user function, leaving the maxsize at its default value of 128:</p>`)
	b.WriteString(`<div class="highlight-python3 notranslate"><div class="highlight"><pre><span></span><span class="nd">@lru_cache</span>` + "\n" +
		`<span class="k">def</span> count_vowels(sentence):` + "\n" + `    return sum(sentence.count(v) for v in 'AEIOU')</pre></div></div>`)
	b.WriteString(`<p>If maxsize is set to None, the LRU feature is disabled and the cache can grow without bound.</p></dd></dl></div></body></html>`)
	res, err := extractHTML(t, []byte(b.String()), pageURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Content, "```python3\n@lru_cache") || strings.Contains(res.Content, "128:`") {
		t.Errorf("no block naming python3 in:\n%s", res.Content)
	}
}
