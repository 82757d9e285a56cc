package html

import "testing"

func TestDropClosedModals(t *testing.T) {
	story := `<p>STORY The council voted on Tuesday to keep the river path open through the winter, after a season in which more people walked it than ever before.</p>`
	modal := func(class, attrs, inner string) string {
		return `<div class="` + class + `"` + attrs + `><div class="modal-dialog"><div class="modal-content"><h4 class="modal-title">Become an approved author!</h4><div class="modal-body">` + inner + `</div></div></div></div>`
	}
	tests := []struct {
		name, body string
		kept, gone []string
	}{
		{"Bootstrap's closed modal", story + modal("col-lg-12 modal fade", ` id="become-author"`, `PROMPT Your account is not approved yet.`),
			[]string{"STORY"}, []string{"PROMPT", "approved author"}},
		{"Bulma's closed modal", story + `<div class="Modal"><div class="modal-background"></div><div class="modal-content"><p>LOGIN Sign in to comment.</p></div></div>`,
			[]string{"STORY"}, []string{"LOGIN"}},
		{"a modal opened by its state class", story + modal("modal fade show", "", `OPEN Your cart holds two items.`),
			[]string{"STORY", "OPEN"}, nil},
		{"a modal opened by Bootstrap 3's class", story + modal("modal in", "", `OPEN Your cart holds two items.`),
			[]string{"STORY", "OPEN"}, nil},
		{"a modal opened inline", story + modal("modal", ` style="display: block"`, `OPEN Your cart holds two items.`),
			[]string{"STORY", "OPEN"}, nil},
		{"a class that says modal without a dialog inside is no modal", `<div class="modal">` + story + `<p>ASIDE A note.</p></div>`,
			[]string{"STORY", "ASIDE"}, nil},
		{"a modal's own parts are no modal", story + `<div class="modal-body"><div class="modal-content"><p>PART Details.</p></div></div>`,
			[]string{"STORY", "PART"}, nil},
		{"a modal that holds most of the page is the page", modal("modal", "", story+story) + `<p>FOOT Contact us.</p>`,
			[]string{"STORY", "FOOT"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := parsePage(t, `<html><body>`+tc.body+`</body></html>`)
			dropClosedModals(root)
			checkText(t, textOfNode(root), tc.kept, tc.gone)
		})
	}
}

// Through the whole extractor: where the content is the page's body (a
// short page, thin.go; a page widened to its body, widen.go; the whole
// page, only_main_content false), a closed modal stays out of it.
func TestClosedModalLeftOutOfTheBody(t *testing.T) {
	page := `<html><head><title>A new board</title></head><body>` +
		`<div class="content"><h1>A new board</h1><p>STORY The foundation released its third board at the same price as the first, with a faster processor, wireless networking and Bluetooth built in, and schools ordered it within days.</p></div>` +
		`<div id="become-author" class="col-lg-12 modal fade"><div class="modal-dialog"><div class="modal-content">` +
		`<h4 class="modal-title">Become an approved author!</h4><div class="modal-body">PROMPT Your account is not approved yet.</div>` +
		`</div></div></div></body></html>`
	for _, opts := range []map[string]string{nil, {OptionMainContent: "false"}} {
		res, err := extractHTML(t, []byte(page), pageURL, opts)
		if err != nil {
			t.Fatal(err)
		}
		checkText(t, res.Content, []string{"STORY"}, []string{"PROMPT", "approved author"})
	}
}
