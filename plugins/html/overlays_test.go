package html

import "testing"

func TestDropOverlays(t *testing.T) {
	story := `<p>STORY The council voted on Tuesday to keep the river path open through the winter, after a season in which more people walked it than ever before.</p>`
	tests := []struct {
		name, body string
		kept, gone []string
	}{
		{"a consent banner", `<div role="dialog" aria-label="Cookies"><p>CONSENT We and our partners store cookies.</p></div>` + story,
			[]string{"STORY"}, []string{"CONSENT"}},
		{"an alert dialog, role in capitals", `<section role=" AlertDialog "><p>SIGNUP Join our newsletter.</p></section>` + story,
			[]string{"STORY"}, []string{"SIGNUP"}},
		{"a modal by aria-modal alone", story + `<div aria-modal="true"><p>CART Your cart is empty.</p></div>`,
			[]string{"STORY"}, []string{"CART"}},
		{"a dialog that holds most of the page is the page", `<div role="dialog">` + story + story + `</div><p>FOOT Contact us.</p>`,
			[]string{"STORY", "FOOT"}, nil},
		{"a dialog inside the dialog that is the page goes", `<div role="dialog">` + story + story + `<div aria-modal="true"><p>PROMPT Subscribe.</p></div></div>`,
			[]string{"STORY"}, []string{"PROMPT"}},
		{"a class that says modal is no declaration", `<div class="modal-body">` + story + `</div>`,
			[]string{"STORY"}, nil},
		{"aria-modal false", `<div aria-modal="false"><p>PANEL Shipping times.</p></div>` + story,
			[]string{"STORY", "PANEL"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := parsePage(t, `<html><body>`+tc.body+`</body></html>`)
			dropOverlays(root)
			checkText(t, textOfNode(root), tc.kept, tc.gone)
		})
	}
}

// Through the whole extractor, a consent banner stays out of the content,
// even where the content is the page's body (a short page, thin.go).
func TestConsentBannerLeftOut(t *testing.T) {
	page := `<html><head><title>Opening hours</title></head><body>` +
		`<div id="consent" role="dialog" aria-modal="true"><p>CONSENT We and our partners store cookies on your device.</p><button>Accept</button></div>` +
		`<div class="hours"><h1>Opening hours</h1><p>STORY The library opens daily from nine to five, and until eight on Thursdays.</p></div>` +
		`</body></html>`
	res, err := extractHTML(t, []byte(page), pageURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkText(t, res.Content, []string{"STORY"}, []string{"CONSENT"})
}
