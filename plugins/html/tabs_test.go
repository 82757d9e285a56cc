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
