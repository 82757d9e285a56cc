package html

import (
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"
)

func TestRejoinParagraphs(t *testing.T) {
	tests := []rewriteCase{
		{"a tail cut off in mid-sentence goes back",
			`<div><p>The mechanics of </p><code>cached()</code> are different.<p>Next.</p></div>`,
			`<div><p>The mechanics of <code>cached()</code> are different.</p><p>Next.</p></div>`},
		{"texts that would touch get a space",
			`<div><p>a question of</p><em>if</em> they will</div>`,
			`<div><p>a question of <em>if</em> they will</p></div>`},
		{"after a full stop the tail is a block of its own",
			`<div><p>Done.</p><a href="/b">Check price</a></div>`,
			`<div><p>Done.</p><a href="/b">Check price</a></div>`},
		{"an image stands on its own line",
			`<div><p>See</p><img src="/a.png"/></div>`,
			`<div><p>See</p><img src="/a.png"/></div>`},
		{"the tail ends at the next block",
			`<section><p>one</p>two<ul><li>three</li></ul></section>`,
			`<section><p>one two</p><ul><li>three</li></ul></section>`},
	}
	checkRewrite(t, rejoinParagraphs, tests)
}

// Through the whole extractor: go-trafilatura cuts a paragraph inside a
// definition (Python's library reference) before its code spans, and the
// markdown keeps the sentence whole.
func TestParagraphKeepsItsCodeSpans(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<html><head><title>functools</title></head><body><div role="main">`)
	b.WriteString(`<dl class="py function"><dt>functools.cached_property(func)</dt><dd>`)
	for i := 0; i < 4; i++ {
		b.WriteString(`<p>The cache is threadsafe so that the wrapped function can be used in multiple threads, and the data structure stays coherent.</p>`)
	}
	b.WriteString(`<p>The mechanics of <code class="xref py py-func docutils literal notranslate"><span class="pre">cached_property()</span></code> are somewhat different from <code class="xref"><span class="pre">property()</span></code>. A regular property blocks attribute writes.</p>`)
	b.WriteString(`</dd></dl></div></body></html>`)
	res, err := extractHTML(t, []byte(b.String()), pageURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "The mechanics of `cached_property()` are somewhat different from `property()`. A regular property blocks attribute writes."
	if !strings.Contains(res.Content, want) {
		t.Errorf("sentence broken:\n%s", res.Content)
	}
}

// rewriteCase is a page body before and after a rewrite of its tree.
type rewriteCase struct{ name, in, want string }

// checkRewrite runs rewrite on the <body> of each case's page and compares
// the body's markup with the case's want.
func checkRewrite(t *testing.T, rewrite func(body *html.Node), tests []rewriteCase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := parsePage(t, "<html><body>"+tc.in+"</body></html>")
			rewrite(root.FirstChild.LastChild)
			if got := renderBody(t, root); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// renderBody renders the children of root's <body> as HTML.
func renderBody(t *testing.T, root *html.Node) string {
	t.Helper()
	var b strings.Builder
	body := goquery.NewDocumentFromNode(root).Find("body").Nodes[0]
	for c := body.FirstChild; c != nil; c = c.NextSibling {
		if err := html.Render(&b, c); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}

func TestSeparateTopLevel(t *testing.T) {
	tests := []rewriteCase{
		{"side by side, each its own paragraph",
			`<p>a.</p><code>LIMIT</code><code>OFFSET</code><p>b.</p>`,
			`<p>a.</p><p><code>LIMIT</code></p><p><code>OFFSET</code></p><p>b.</p>`},
		{"an element with text after it stays",
			`<p>a.</p><b>Note</b> the tail<p>b.</p>`,
			`<p>a.</p><b>Note</b> the tail<p>b.</p>`},
		{"one element alone stays",
			`<p>a.</p><code>x</code><p>b.</p>`,
			`<p>a.</p><code>x</code><p>b.</p>`},
	}
	for i := range tests {
		tests[i].in, tests[i].want = "<div>"+tests[i].in+"</div>", "<div>"+tests[i].want+"</div>"
	}
	checkRewrite(t, func(body *html.Node) { separateTopLevel(body.FirstChild) }, tests)
}

// A reference page's heading made of code spans, which go-trafilatura
// keeps as bare <code> elements, does not come out as one run-together
// word.
func TestCodeHeadingsStaySeparate(t *testing.T) {
	para := "<p>" + strings.Repeat("Words of a paragraph that is long enough to count as text. ", 4) + "</p>"
	page := `<html><body><div class="refentry"><div class="refsect1"><h2>Compatibility</h2>` + para +
		`<div class="refsect2"><h3><code class="literal">LIMIT</code> and <code class="literal">OFFSET</code></h3>` + para +
		`</div></div></div></body></html>`
	res, err := extractHTML(t, []byte(page), "https://docs.example/select.html", nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(res.Content, "LIMITOFFSET") || !strings.Contains(res.Content, "`LIMIT`") || !strings.Contains(res.Content, "`OFFSET`") {
		t.Fatalf("the heading's code spans ran together or went: %q", res.Content)
	}
}

func TestFlattenPreformatted(t *testing.T) {
	tests := []rewriteCase{
		{"inline elements become their text",
			`<pre><em><code>select</code></em> UNION <em><code>select</code></em></pre>`,
			"<pre>\uE007\uE008select UNION select</pre>"},
		{"one line without a language is marked a block",
			`<pre><code>go build ./...</code></pre>`,
			"<pre><code>\uE007\uE008go build ./...</code></pre>"},
		{"several lines go in a code",
			"<pre><em>select</em>\nUNION</pre>",
			"<pre><code>select\nUNION</code></pre>"},
		{"one code around it all stays, its language marked ahead of its text",
			`<pre><code class="language-go"><span class="k">func</span> main()</code></pre>`,
			"<pre><code class=\"language-go\">\uE007go\uE008func main()</code></pre>"},
		{"a line break is a newline",
			`<pre>a<br/><b>b</b></pre>`,
			"<pre><code>a\nb</code></pre>"},
		{"a block a line",
			`<pre><div>let a;</div><div>let b;</div></pre>`,
			"<pre><code>let a;\nlet b;\n</code></pre>"},
		{"a table's cells apart, its rows a line each",
			`<pre><table><tr><td>A1</td><td>B1</td></tr><tr><td>A2</td><td>B2</td></tr></table></pre>`,
			"<pre><code>A1\tB1\nA2\tB2\n</code></pre>"},
		{"an editor's textarea over the lines gives nothing",
			"<pre><code><span class=\"line\">a</span>\n<span class=\"line\">b</span><textarea>a\nb</textarea></code></pre>",
			"<pre><code>a\nb</code></pre>"},
		{"outside pre nothing changes",
			`<p><em><code>x</code></em> y</p>`,
			`<p><em><code>x</code></em> y</p>`},
	}
	// the lines' marks (code.go) read as the lines they stand for
	checkRewrite(t, func(body *html.Node) { flattenPreformatted(body); restoreLines(body) }, tests)
}

// Preformatted text keeps its lines and its words in their order, whatever
// shape its markup has.
func TestPreformattedKeepsItsLines(t *testing.T) {
	para := "<p>" + strings.Repeat("Words of a paragraph that is long enough to count as text. ", 4) + "</p>"
	tests := []struct{ name, pre, want string }{
		{"plain", "<pre>line one\nline two\n    line three</pre>", "line one\nline two\n    line three"},
		{"line breaks", "<pre>delta<br>epsilon<br><b>zeta</b> eta</pre>", "delta\nepsilon\nzeta eta"},
		{"a block a line", "<pre><div>let alpha = 1;</div><div>let beta = 2;</div></pre>", "let alpha = 1;\nlet beta = 2;"},
		{"indented after a line break", "<pre>valve north<br>  open at 05:30<br>  <b>close</b> at 06:10<br>valve south</pre>",
			"valve north\n  open at 05:30\n  close at 06:10\nvalve south"},
		{"indented blocks", "<pre><div>alpha</div><div>    beta</div><div>        <span>gamma</span></div></pre>", "alpha\n    beta\n        gamma"},
		{"a table", "<pre><table><tr><td>cellA1</td><td>cellB1</td></tr><tr><td>cellA2</td><td>cellB2</td></tr></table></pre>", "cellA1\tcellB1\ncellA2\tcellB2"},
		{"a synopsis", "<pre class=\"synopsis\">\n<em><code>select_statement</code></em> UNION [ ALL | DISTINCT ] <em><code>select_statement</code></em>\n[ LIMIT { <em><code>count</code></em> | ALL } ]\n</pre>",
			"select_statement UNION [ ALL | DISTINCT ] select_statement\n[ LIMIT { count | ALL } ]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			page := `<html><body><article><h1>Reference</h1>` + para + tc.pre + para + `</article></body></html>`
			res, err := extractHTML(t, []byte(page), "https://docs.example/ref.html", nil)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(res.Content, "```\n"+tc.want+"\n```") {
				t.Errorf("no code block of\n%s\nin\n%s", tc.want, res.Content)
			}
		})
	}
}

// A synopsis whose placeholders are inline elements keeps its words in
// their order and apart.
func TestSynopsisKeepsItsOrder(t *testing.T) {
	para := "<p>" + strings.Repeat("Words of a paragraph that is long enough to count as text. ", 4) + "</p>"
	page := `<html><body><article><h1>SELECT</h1>` + para + `<pre class="synopsis">
<em class="replaceable"><code>select_statement</code></em> UNION [ ALL | DISTINCT ] <em class="replaceable"><code>select_statement</code></em>
</pre>` + para + `</article></body></html>`
	res, err := extractHTML(t, []byte(page), "https://docs.example/select.html", nil)
	if err != nil {
		t.Fatal(err)
	}
	checkText(t, res.Content, []string{"select_statement UNION [ ALL | DISTINCT ] select_statement"}, []string{"select_statementselect_statement"})
}

// TestHighlighterTableKeepsItsCode: a highlighter's table (line numbers in
// one cell, the code's <pre> in the next) keeps the code; a <code> added
// inside the cell had go-trafilatura drop every example of a page.
func TestHighlighterTableKeepsItsCode(t *testing.T) {
	para := "<p>" + strings.Repeat("Words of a paragraph that is long enough to count as text. ", 4) + "</p>"
	table := `<div class="geshi"><table><tr><td class="ln"><pre>1
2</pre></td><td class="code"><pre class="javascript">fetch<span>(</span>"/data.json"<span>)</span>
  .then(checkValveStatus);</pre></td></tr></table></div>`
	page := `<html><body><article><h1>Fetch</h1>` + para + table + para + `</article></body></html>`
	res, err := extractHTML(t, []byte(page), "https://docs.example/fetch.html", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Content, "checkValveStatus") {
		t.Errorf("the highlighted code was lost:\n%s", res.Content)
	}
}

func TestRestoreCodeBlocks(t *testing.T) {
	link := string(linkOpen) + string(rune(linkBase)) + "valid_referers" + string(linkClose)
	tests := []rewriteCase{
		{"a code of several lines is a block again",
			"<div><code>if ($slow) {\n    limit_rate 10k;\n}</code></div>",
			"<div><pre>if ($slow) {\n    limit_rate 10k;\n}</pre></div>"},
		{"a code of one line stays",
			"<div><code>limit_rate 10k;</code></div>",
			"<div><code>limit_rate 10k;</code></div>"},
		{"prose with a marked link stays, though it runs over lines",
			"<div><code>A value is set by the\n" + link + " directive.</code></div>",
			"<div><code>A value is set by the\n" + link + " directive.</code></div>"},
	}
	checkRewrite(t, func(body *html.Node) { restoreCodeBlocks(body) }, tests)
}
