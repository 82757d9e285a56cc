package html

import (
	"strings"
	"testing"
)

// TestListStartKept: a numbered list that goes on after a code block is
// numbered from where it starts, in main-content mode (go-trafilatura
// keeps no attribute) as on the whole page; a start that is no number,
// or past a million, numbers from 1; no mark is left in the text.
func TestListStartKept(t *testing.T) {
	intro := "<p>" + strings.Repeat("Follow these steps to set the server up on a fresh machine. ", 4) + "</p>"
	outro := "<p>" + strings.Repeat("That is all there is to the setup of this server. ", 4) + "</p>"
	for _, tc := range []struct {
		name, start, want string
	}{
		{"after a code block", `start="3"`, "3. Run the server with the config.\n4. Check the health endpoint answers."},
		{"from zero", `start="0"`, "0. Run the server with the config.\n1. Check the health endpoint answers."},
		{"no number", `start="three"`, "1. Run the server with the config.\n2. Check the health endpoint answers."},
		{"past a million", `start="99999999"`, "1. Run the server with the config.\n2. Check the health endpoint answers."},
	} {
		page := `<html><body><article><h1>Steps</h1>` + intro +
			`<ol><li>Install the tool.</li><li>Configure it.</li></ol><pre>make build` + "\n" + `make test</pre>` +
			`<ol ` + tc.start + `><li>Run the server with the config.</li><li>Check the health endpoint answers.</li></ol>` + outro + `</article></body></html>`
		for _, opts := range []map[string]string{nil, {OptionMainContent: "false"}} {
			res, err := extractHTML(t, []byte(page), "https://x.example/steps", opts)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(res.Content, tc.want) {
				t.Errorf("%s %v: want\n%s\nin\n%s", tc.name, opts, tc.want, res.Content)
			}
			if strings.ContainsAny(res.Content, string([]rune{listStartOpen, listStartClose})) {
				t.Errorf("%s %v: a list's mark left in the text", tc.name, opts)
			}
		}
	}
}
