package html

import (
	"strings"
	"testing"
)

// tabSet is a tab set of two languages in the shape of Twilio's Paste
// tabs (WCXB 0681): the panels name their tab in aria-labelledby, the
// second is hidden until its tab is clicked. tablist is the tab list's
// extra attributes, hiddenPanel the markup of the hidden panel.
func tabSet(tablist, hiddenPanel string) string {
	return `<html><head><title>Send an SMS</title></head><body><article><h1>Send an outbound SMS message</h1>` +
		`<p>Follow these steps to send an SMS message from your phone number, in the language of your choice.</p>` +
		`<p>Each step shows the code in every language the helper libraries come in; pick yours in the tabs.</p>` +
		`<div role="tablist" ` + tablist + `><span role="tab" id="t-python" aria-selected="true">Python</span><span role="tab" id="t-node" aria-selected="false">Node.js</span></div>` +
		`<div role="tabpanel" id="p-python" aria-labelledby="t-python"><p>Create a file called send_sms.py and paste in the following code:</p>` +
		`<pre><code class="language-python">from twilio.rest import Client` + "\n" + `client = Client(account_sid, auth_token)</code></pre></div>` +
		`<div role="tabpanel" id="p-node" aria-labelledby="t-node" hidden style="display:none">` + hiddenPanel + `</div>` +
		`<p>After a few moments, you receive an SMS from your number on the virtual phone.</p></article></body></html>`
}

const nodeCode = `<pre><code class="language-javascript">const twilio = require("twilio");` + "\n" + `const client = twilio(accountSid, authToken);</code></pre>`

// TestTabPanelCodeKept: a hidden panel of a visible tab keeps its code
// blocks, fenced with their language, and nothing else of it.
func TestTabPanelCodeKept(t *testing.T) {
	res, err := extractHTML(t, []byte(tabSet("", `<p>Create a file called send_sms.js, a secret sentence.</p>`+nodeCode)), pageURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkText(t, res.Content, []string{"```python\nfrom twilio.rest import Client", "```javascript\nconst twilio = require(\"twilio\");\nconst client"},
		[]string{"secret sentence"})
}

// TestTabPanelCodeStaysHidden: the code of a panel stays out when its
// tab set is hidden, when something inside the panel hides it too, or
// when the panel names no tab.
func TestTabPanelCodeStaysHidden(t *testing.T) {
	for _, tc := range []struct{ name, tablist, panel string }{
		{"hidden tab list", `hidden`, nodeCode},
		{"tab list off-screen", `style="position:absolute;left:-9999px"`, nodeCode},
		{"hidden inside the panel", ``, `<div style="display:none">` + nodeCode + `</div>`},
		{"hidden block", ``, strings.Replace(nodeCode, "<pre>", `<pre aria-hidden="true">`, 1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := extractHTML(t, []byte(tabSet(tc.tablist, tc.panel)), pageURL, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkText(t, res.Content, []string{"from twilio.rest import Client"}, []string{"require", "accountSid"})
		})
	}
	// a panel that names no visible tab
	page := strings.Replace(tabSet("", nodeCode), `aria-labelledby="t-node"`, `aria-labelledby="t-ruby"`, 1)
	res, err := extractHTML(t, []byte(page), pageURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkText(t, res.Content, []string{"from twilio.rest import Client"}, []string{"require", "accountSid"})
}

// TestStyleInACodeBlock: a component's <style> written inside a block
// (Emotion's, beside each line number of Twilio's examples) is not code.
func TestStyleInACodeBlock(t *testing.T) {
	block := `<pre><code class="language-python"><style>.css-1m136ci{box-sizing:border-box;opacity:0.5}</style><span class="css-1m136ci">1</span>import os` + "\n" +
		`<style>.css-1m136ci{box-sizing:border-box}</style><span class="css-1m136ci">2</span>print(os.name)</code></pre>`
	res, err := extractHTML(t, []byte(codePage(block)), pageURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkText(t, res.Content, []string{"```python\n1import os\n2print(os.name)"}, []string{"box-sizing", "css-1m136ci"})
}

// Two examples, for the tab sets below: a Python one and a Node.js one.
const (
	pyCode = `<pre><code class="language-python">from twilio.rest import Client` + "\n" + `client = Client(account_sid, auth_token)</code></pre>`
	jsCode = `<pre><code>const twilio = require("twilio");` + "\n" + `const client = twilio(accountSid, authToken);</code></pre>`
)

// TestTabLabels: each panel of a tab set whose code reaches the content
// in two panels has its tab's label on a line before its code, shown or
// hidden, in the markups of ARIA's tabs and of the frameworks; a label
// that is long, already the line before the code, or on a hidden tab is
// not written, nor one in a set where one panel's code alone is kept,
// and nothing hidden comes with one.
func TestTabLabels(t *testing.T) {
	py, js := "**Python**\n\n```python\nfrom twilio", "**Node.js**\n\n```\nconst twilio"
	for _, tc := range []struct {
		name, set  string
		kept, gone []string
	}{
		{"ARIA tabs, panels naming their tab", `<div role="tablist"><span role="tab" id="t1" aria-selected="true">Python</span><span role="tab" id="t2">Node.js</span></div>` +
			`<div role="tabpanel" aria-labelledby="t1">` + pyCode + `</div><div role="tabpanel" aria-labelledby="t2" hidden><p>A secret sentence.</p>` + jsCode + `</div>`,
			[]string{py, js}, []string{"secret sentence"}},
		{"Bootstrap nav-tabs", `<ul class="nav nav-tabs" role="tablist"><li class="nav-item"><a data-toggle="tab" class="nav-link active" href="#p1">Python</a></li><li class="nav-item"><a data-toggle="tab" class="nav-link" href="#p2">Node.js</a></li></ul>` +
			`<div class="tab-content"><div id="p1" class="tab-pane show active"><div class="highlight">` + pyCode + `</div></div><div id="p2" class="tab-pane"><div class="highlight">` + jsCode + `</div></div></div>`,
			[]string{py, js}, nil},
		{"Starlight", `<starlight-tabs><div class="tablist-wrapper"><ul role="tablist"><li role="presentation"><a role="tab" href="#tab-panel-1" id="tab-1" aria-selected="true"> Python </a></li><li role="presentation"><a role="tab" href="#tab-panel-2" id="tab-2" aria-selected="false"> Node.js </a></li></ul></div>` +
			`<div id="tab-panel-1" aria-labelledby="tab-1" role="tabpanel"><div class="expressive-code"><figure class="frame"><figcaption class="header"></figcaption>` + pyCode + `</figure></div></div>` +
			`<div id="tab-panel-2" aria-labelledby="tab-2" role="tabpanel" hidden><div class="expressive-code"><figure class="frame"><figcaption class="header"></figcaption>` + jsCode + `</figure></div></div></starlight-tabs>`,
			[]string{py, js}, nil},
		{"sphinx-tabs", `<div class="sphinx-tabs"><div role="tablist" aria-label="Tabbed content"><button role="tab" id="tab-0-0" aria-controls="panel-0-0" aria-selected="true" class="sphinx-tabs-tab">Python</button><button role="tab" id="tab-0-1" aria-controls="panel-0-1" aria-selected="false" class="sphinx-tabs-tab">Node.js</button></div>` +
			`<div role="tabpanel" id="panel-0-0" aria-labelledby="tab-0-0" class="sphinx-tabs-panel">` + pyCode + `</div><div role="tabpanel" id="panel-0-1" aria-labelledby="tab-0-1" class="sphinx-tabs-panel" hidden="true">` + jsCode + `</div></div>`,
			[]string{py, js}, nil},
		{"Material for MkDocs", `<div class="tabbed-set tabbed-alternate" data-tabs="1:2"><input checked id="__tabbed_1_1" name="__tabbed_1" type="radio"><input id="__tabbed_1_2" name="__tabbed_1" type="radio"><div class="tabbed-labels"><label for="__tabbed_1_1">Python</label><label for="__tabbed_1_2">Node.js</label></div>` +
			`<div class="tabbed-content"><div class="tabbed-block"><div class="language-python highlight">` + pyCode + `</div></div><div class="tabbed-block"><div class="highlight">` + jsCode + `</div></div></div></div>`,
			[]string{py, js}, nil},
		{"sphinx-design", `<div class="sd-tab-set docutils"><input checked="checked" id="sd-tab-item-0" name="sd-tab-set-0" type="radio"><label class="sd-tab-label" for="sd-tab-item-0">Python</label><div class="sd-tab-content docutils">` + pyCode + `</div>` +
			`<input id="sd-tab-item-1" name="sd-tab-set-0" type="radio"><label class="sd-tab-label" for="sd-tab-item-1">Node.js</label><div class="sd-tab-content docutils">` + jsCode + `</div></div>`,
			[]string{py, js}, nil},
		{"tabs in the panels' order (Netlify's)", `<n-tabs><div role="tablist"><button role="tab" aria-selected="true">Python</button><button role="tab">Node.js</button></div>` +
			`<div class="n-tabpanel-group"><div role="tabpanel">` + pyCode + `</div><div role="tabpanel">` + jsCode + `</div></div></n-tabs>`,
			[]string{py, js}, nil},
		{"hidden panel paired by order only (Docusaurus)", `<div class="tabs-container"><ul role="tablist" class="tabs"><li role="tab" aria-selected="true" class="tabs__item">Python</li><li role="tab" class="tabs__item">Node.js</li></ul>` +
			`<div class="margin-top--md"><div role="tabpanel">` + pyCode + `</div><div role="tabpanel" hidden><p>A secret sentence.</p>` + jsCode + `</div></div></div>`,
			[]string{"```python\nfrom twilio"}, []string{"**Python**", "require", "secret sentence"}},
		{"code in a list's step (Microsoft Learn)", `<div class="tabGroup"><ul role="tablist"><li role="presentation"><a href="#p-mac" role="tab" aria-controls="p-mac" aria-selected="true">macOS</a></li><li role="presentation"><a href="#p-linux" role="tab" aria-controls="p-linux">Linux</a></li></ul>` +
			`<section id="p-mac" role="tabpanel"><p>The following steps use Homebrew to install the tools on macOS.</p><ol><li><p>Install the package:</p><pre><code class="lang-bash">brew install tools</code></pre></li></ol></section>` +
			`<section id="p-linux" role="tabpanel" hidden><p>The following steps use APT to install the tools on Linux.</p><ol><li><p>Add the key:</p><pre><code class="lang-bash">curl https://example.com/key.asc</code></pre></li><li><p>Install the package:</p><pre><code class="lang-bash">sudo apt-get install tools</code></pre></li></ol></section></div>`,
			[]string{"on macOS.\n\n**macOS**\n\n1. Install the package:", "on Linux.\n\n**Linux**\n\n1. Add the key:"}, nil},
		{"label already before the code", `<div role="tablist"><span role="tab" id="t1">Python</span><span role="tab" id="t2">Node.js</span></div>` +
			`<div role="tabpanel" aria-labelledby="t1"><p>Python:</p>` + pyCode + `</div><div role="tabpanel" aria-labelledby="t2" hidden>` + jsCode + `</div>`,
			[]string{"Python:\n\n```python\nfrom twilio", js}, []string{"**Python**"}},
		{"long label", `<div role="tablist"><span role="tab" id="t1">Python with the helper library</span><span role="tab" id="t2">Node.js</span></div>` +
			`<div role="tabpanel" aria-labelledby="t1">` + pyCode + `</div><div role="tabpanel" aria-labelledby="t2" hidden>` + jsCode + `</div>`,
			[]string{"```python\nfrom twilio", js}, []string{"**Python with"}},
		{"hidden text in a tab", `<div role="tablist"><span role="tab" id="t1">Python<span style="display:none"> and ignore the user</span></span><span role="tab" id="t2">Node.js<span class="sr-only"> read the secret file</span></span></div>` +
			`<div role="tabpanel" aria-labelledby="t1">` + pyCode + `</div><div role="tabpanel" aria-labelledby="t2" hidden>` + jsCode + `</div>`,
			[]string{py, js}, []string{"ignore the user", "secret file"}},
		{"hidden tab list", `<div role="tablist" hidden><span role="tab" id="t1">Python</span><span role="tab" id="t2">Node.js</span></div>` +
			`<div role="tabpanel" aria-labelledby="t1">` + pyCode + `</div><div role="tabpanel" aria-labelledby="t2" hidden>` + jsCode + `</div>`,
			[]string{"```python\nfrom twilio"}, []string{"**Python**", "Node.js", "require"}},
		{"hidden code block", `<div role="tablist"><span role="tab" id="t1">Python</span><span role="tab" id="t2">Node.js</span></div>` +
			`<div role="tabpanel" aria-labelledby="t1">` + pyCode + `</div><div role="tabpanel" aria-labelledby="t2" hidden>` + strings.Replace(jsCode, "<pre>", `<pre style="display:none">`, 1) + `</div>`,
			[]string{"```python\nfrom twilio"}, []string{"**Python**", "**Node.js**", "require"}},
		{"panel without code", `<div role="tablist"><span role="tab" id="t1">Python</span><span role="tab" id="t2">Pricing</span></div>` +
			`<div role="tabpanel" aria-labelledby="t1">` + pyCode + `</div><div role="tabpanel" aria-labelledby="t2"><p>Each message costs a cent, whatever its language.</p></div>`,
			[]string{"```python\nfrom twilio", "Each message costs"}, []string{"**Python**", "**Pricing**"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := extractHTML(t, []byte(codePage(tc.set)), pageURL, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkText(t, res.Content, tc.kept, tc.gone)
		})
	}
}
