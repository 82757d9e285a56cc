package html

import (
	"testing"

	"github.com/PuerkitoBio/goquery"
)

func TestDropReviews(t *testing.T) {
	description := `<div class="product-description"><p>DESCRIPTION A steel bottle that keeps ice frozen for a day, with a lid that seals and a loop to carry it by, in three sizes and six colours. The steel is food grade, the paint is powder coated, and the lid comes apart for cleaning in a dishwasher.</p></div>`
	review := func(mark string) string {
		return `<p>` + mark + ` Keeps my water cold all day at work, and it has not leaked once in my bag.</p>`
	}
	tests := []struct {
		name, body string
		kept, gone []string
	}{
		{"a reviews section by class", description + `<section class="product-reviews">` + review("REVIEW-A") + review("REVIEW-B") + `</section>`,
			[]string{"DESCRIPTION"}, []string{"REVIEW-A", "REVIEW-B"}},
		{"reviews marked in microdata", description + `<div itemprop="review" itemscope itemtype="https://schema.org/Review">` + review("REVIEW-A") + `</div>`,
			[]string{"DESCRIPTION"}, []string{"REVIEW-A"}},
		{"a preview is no review", `<div class="cart-preview">` + description + `</div>`,
			[]string{"DESCRIPTION"}, nil},
		{"a page that is mostly reviews keeps them", `<p>Bottle</p><div id="reviews">` + review("REVIEW-A") + review("REVIEW-B") + `</div>`,
			[]string{"REVIEW-A", "REVIEW-B"}, nil},
		{"a product test keeps the parts of its review", `<h1>Bottle tested</h1><div class="review-intro"><p>INTRO We carried the bottle for a month.</p></div><div class="review-body">` + description + `</div><div class="review-verdict"><p>VERDICT Cold all day.</p></div>`,
			[]string{"INTRO", "DESCRIPTION", "VERDICT"}, nil},
		{"a box of reviews beside a list of them", `<p>Bottle</p><div class="highlight-reviews">` + review("HIGHLIGHT") + `</div><div class="reviews"><div class="review">` + review("REVIEW-A") + review("REVIEW-B") + review("REVIEW-C") + `</div><p>Every review is checked before it is published, by hand, by our team.</p></div>`,
			nil, []string{"HIGHLIGHT"}},
		{"reviews short beside the description", description + `<div class="review">` + review("REVIEW-A") + `</div><div class="review">` + review("REVIEW-B") + `</div>`,
			[]string{"DESCRIPTION"}, []string{"REVIEW-A", "REVIEW-B"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := parsePage(t, `<html><body class="has-reviews">`+tc.body+`</body></html>`)
			dropReviews(root)
			checkText(t, goquery.NewDocumentFromNode(root).Text(), tc.kept, tc.gone)
		})
	}
}
