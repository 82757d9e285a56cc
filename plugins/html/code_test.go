package html

import (
	"strings"
	"testing"
)

// TestCodeBlocksInADefinitionKeepTheirLines: go-trafilatura reads a
// <pre> in a <dd> as the paragraph's text and collapses its whitespace;
// the blocks of a Python library reference's entry (functools'
// singledispatch, WCXB 2857) came out as one line each, the ones after
// the first lifted still in their paragraph as a code span led by the
// language's name ("`python3>>> @fun.register …`").
func TestCodeBlocksInADefinitionKeepTheirLines(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<html><head><title>functools</title></head><body><div role="main"><dl class="py function"><dt>@functools.singledispatch</dt><dd>`)
	for i := 0; i < 3; i++ {
		b.WriteString(`<p>Transform a function into a single-dispatch generic function, which dispatches on the type of its first argument.</p>`)
	}
	block := func(code string) string {
		return `<div class="highlight-python3 notranslate"><div class="highlight"><pre><span></span>` + code + `</pre></div></div>`
	}
	b.WriteString(`<p>To add overloaded implementations to the function, use the register() attribute:</p>`)
	b.WriteString(block(`<span class="gp">&gt;&gt;&gt; </span><span class="nd">@fun</span><span class="o">.</span><span class="n">register</span>` + "\n" +
		`<span class="gp">... </span><span class="k">def</span> <span class="nf">_</span>(arg: int, verbose=False):` + "\n" +
		`<span class="gp">... </span>    <span class="k">if</span> verbose:` + "\n" +
		`<span class="gp">... </span>        print("Strength in numbers, eh?", end=" ")` + "\n" +
		`<span class="gp">... </span>    print(arg)`))
	b.WriteString(`<p>The register() attribute returns the undecorated function, which enables decorator stacking and pickling:</p>`)
	b.WriteString(block(`<span class="gp">&gt;&gt;&gt; </span>fun_num <span class="ow">is</span> fun` + "\n" + `False`))
	b.WriteString(`<p>When called, the generic function dispatches on the type of the first argument.</p></dd></dl></div></body></html>`)
	res, err := extractHTML(t, []byte(b.String()), pageURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"```python3\n>>> @fun.register\n... def _(arg: int, verbose=False):\n...     if verbose:\n" +
			`...         print("Strength in numbers, eh?", end=" ")` + "\n...     print(arg)\n```",
		"pickling:\n\n```python3\n>>> fun_num is fun\nFalse\n```",
	} {
		if !strings.Contains(res.Content, want) {
			t.Errorf("no %q in:\n%s", want, res.Content)
		}
	}
	if strings.Contains(strings.ReplaceAll(res.Content, "```", ""), "`python3") || strings.ContainsAny(res.Content, string([]rune{lineMark, indentMark, tabMark})) {
		t.Errorf("a mark or a language's name is left in:\n%q", res.Content)
	}
}

// TestMarkLines: the marks stand for the line breaks and blanks that
// collapsing whitespace would lose, and only those.
func TestMarkLines(t *testing.T) {
	for _, s := range []string{
		"one line  with  runs",
		"def f():\n    return 1\n",
		"a\n\n\tb\t c\n... x     y",
	} {
		marked := markLines(s)
		if got := unmarkLines(marked); got != s {
			t.Errorf("unmarkLines(markLines(%q)) = %q", s, got)
		}
		collapsed := unmarkLines(strings.Join(strings.Fields(marked), " "))
		if strings.Contains(s, "\n") && collapsed != strings.TrimRight(s, "\n")+strings.Repeat("\n", len(s)-len(strings.TrimRight(s, "\n"))) {
			t.Errorf("collapsed %q came back as %q", s, collapsed)
		}
	}
}

// TestCodeListingFigureKept: a numbered listing in a <figure> (mdBook's,
// the Rust book's chapters, WCXB 2996) stays with its caption;
// go-trafilatura removes figures whole.
func TestCodeListingFigureKept(t *testing.T) {
	listing := `<figure class="listing" id="listing-9-3"><span class="file-name">Filename: src/main.rs</span>` +
		`<pre class="playground"><div class="buttons"><button class="play-button" title="Run this code"><svg viewBox="0 0 384 512"><path d="M73 39c"></path></svg></button></div>` +
		`<code class="language-rust edition2024 hljs"><span class="hljs-keyword">use</span> std::fs::File;` + "\n\n" + `fn main() {` + "\n" +
		`    let greeting_file_result = File::open("hello.txt");` + "\n" + `}</code></pre>` +
		`<figcaption><a href="#listing-9-3">Listing 9-3</a>: Opening a file</figcaption></figure>`
	res, err := extractHTML(t, []byte(codePage(listing)), pageURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkText(t, res.Content, []string{"```rust\nuse std::fs::File;\n\nfn main() {\n    let greeting_file_result", "Opening a file"}, nil)
	// a figure with an image beside its code stays a figure
	withImage := strings.Replace(listing, `<figcaption>`, `<img src="/listing.png" alt="the output"><figcaption>`, 1)
	res, err = extractHTML(t, []byte(codePage(withImage)), pageURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkText(t, res.Content, nil, []string{"Opening a file"})
}

// TestCodeLinesWithoutBreaks: a highlighter that writes each line as a
// <span class="line"> and no line break between them (a stylesheet sets
// them one under another; WCXB 2834) still gives a block of lines.
func TestCodeLinesWithoutBreaks(t *testing.T) {
	block := `<pre><code class="language-tsx"><span class="line"><span class="k">import</span> React from 'react'</span>` +
		`<span class="line"><span class="k">import</span> { View } from 'react-native'</span>` + "\n" +
		`<span class="line">export default View</span></code></pre>`
	res, err := extractHTML(t, []byte(codePage(block)), pageURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkText(t, res.Content, []string{"```tsx\nimport React from 'react'\nimport { View } from 'react-native'\nexport default View\n```"}, nil)
}

// TestOneLineCodeBlockFenced: a <pre> is a block, of one line too.
// go-trafilatura writes <pre><code> as a <code>, and one without a
// language and without a line break came out as an inline code span.
func TestOneLineCodeBlockFenced(t *testing.T) {
	para := `<p>Apple trees are pruned in late winter, while they are dormant, so that the cuts heal before the sap rises in spring.</p>`
	for _, tc := range []struct{ name, block, want string }{
		{"pre and code", `<pre><code>go build ./...</code></pre>`, "```\ngo build ./...\n```"},
		{"pre alone", `<pre>go build ./...</pre>`, "```\ngo build ./...\n```"},
		{"with a language", `<pre><code class="language-sh">go build ./...</code></pre>`, "```sh\ngo build ./...\n```"},
		{"in a definition", `<dl><dt>build</dt><dd><p>Builds every package:</p><pre><code>go build ./...</code></pre></dd></dl>`, "```\ngo build ./...\n```"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := `<html><head><title>Build</title></head><body><article><h1>Building</h1>` + para + tc.block + para + para + `</article></body></html>`
			res, err := extractHTML(t, []byte(page), pageURL, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(res.Content, tc.want) {
				t.Errorf("no %q in:\n%s", tc.want, res.Content)
			}
			if strings.ContainsRune(res.Content, langOpen) || strings.ContainsRune(res.Content, langClose) {
				t.Errorf("a mark is left in:\n%q", res.Content)
			}
		})
	}
}
