package html

import (
	"context"
	"strings"
	"testing"

	"github.com/siftd/sift/plugins/sdk"
)

// ldPage is a page whose JSON-LD is ld and whose body is body.
func ldPage(ld, body string) string {
	return `<html><head><title>Page</title><script type="application/ld+json">` + ld + `</script></head><body><main>` + body + `</main></body></html>`
}

const ldBody = `<h1>Walnut standing desk</h1><p>Our best desk, built to last a lifetime and adjustable from sitting to standing height in seconds.</p>` +
	`<p>Every desk is made to order in our workshop and shipped within three weeks, flat-packed, with the tools to build it.</p>`

// TestStructuredData: each type's JSON-LD reaches the metadata under
// schema_* keys, in a list or an @graph, its markup stripped.
func TestStructuredData(t *testing.T) {
	for _, tc := range []struct {
		name, ld string
		want     map[string]string
	}{
		{"product in a graph, beside a web page", `{"@context":"https://schema.org","@graph":[{"@type":"WebPage","name":"Shop"},` +
			`{"@type":"Product","name":"Walnut standing desk","description":"A desk of <b>solid</b> walnut &amp; steel.","brand":{"@type":"Brand","name":"Uplift"},` +
			`"sku":"UP-1","offers":[{"@type":"Offer","price":"599.00","priceCurrency":"USD","availability":"https://schema.org/InStock"}],` +
			`"aggregateRating":{"@type":"AggregateRating","ratingValue":4.7,"reviewCount":212}}]}`,
			map[string]string{"schema_type": "Product", "schema_name": "Walnut standing desk", "schema_description": "A desk of solid walnut & steel.",
				"schema_brand": "Uplift", "schema_sku": "UP-1", "schema_price": "599.00", "schema_price_currency": "USD",
				"schema_availability": "InStock", "schema_rating": "4.7", "schema_rating_count": "212"}},
		{"recipe", `{"@type":"Recipe","name":"Pancakes","recipeYield":["4","4 servings"],"totalTime":"PT20M","recipeIngredient":["2 eggs","200 g flour"],` +
			`"recipeInstructions":[{"@type":"HowToStep","text":"Whisk."},{"@type":"HowToSection","name":"Cook","itemListElement":[{"@type":"HowToStep","text":"Fry."}]}]}`,
			map[string]string{"schema_type": "Recipe", "schema_name": "Pancakes", "schema_yield": "4, 4 servings", "schema_total_time": "PT20M",
				"schema_ingredients": "2 eggs\n200 g flour", "schema_instructions": "Whisk.\nCook:\nFry."}},
		{"event", `[{"@type":"Organization","name":"Club"},{"@type":"MusicEvent","name":"Spring concert","startDate":"2027-04-01T19:00","endDate":"2027-04-01T22:00",` +
			`"location":{"@type":"Place","name":"Town hall","address":{"@type":"PostalAddress","streetAddress":"1 High St","addressLocality":"Leeds"}}}]`,
			map[string]string{"schema_type": "Event", "schema_name": "Spring concert", "schema_start_date": "2027-04-01T19:00",
				"schema_end_date": "2027-04-01T22:00", "schema_location": "Town hall, 1 High St, Leeds"}},
		{"how-to", `{"@type":"HowTo","name":"Oil a desk","totalTime":"PT1H","step":[{"@type":"HowToStep","name":"Sand","text":"Sand it."},"Wipe it."]}`,
			map[string]string{"schema_type": "HowTo", "schema_name": "Oil a desk", "schema_total_time": "PT1H", "schema_steps": "Sand it.\nWipe it."}},
		{"faq", `{"@type":"FAQPage","mainEntity":[{"@type":"Question","name":"Is it solid?","acceptedAnswer":{"@type":"Answer","text":"<p>Yes, solid walnut.</p>"}},` +
			`{"@type":"Question","name":"Ships abroad?"}]}`,
			map[string]string{"schema_type": "FAQPage", "schema_questions": "Q: Is it solid?\nA: Yes, solid walnut.\n\nQ: Ships abroad?"}},
		{"article", `{"@type":["NewsArticle"],"headline":"Desks compared","author":[{"@type":"Person","name":"A. Writer"},{"@type":"Person","name":"B. Editor"}],"datePublished":"2026-11-30"}`,
			map[string]string{"schema_type": "Article", "schema_name": "Desks compared", "schema_author": "A. Writer, B. Editor", "schema_date_published": "2026-11-30"}},
		{"a product before an article, whatever the order", `[{"@type":"Article","headline":"Review"},{"@type":"Product","name":"Desk"}]`,
			map[string]string{"schema_type": "Product", "schema_name": "Desk"}},
		{"no type read", `{"@type":"Organization","name":"Club"}`, map[string]string{}},
		{"not JSON", `{"@type":"Product",`, map[string]string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := extractHTML(t, []byte(ldPage(tc.ld, ldBody)), pageURL, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for k, v := range res.Metadata {
				if strings.HasPrefix(k, "schema_") {
					got[k] = v
				}
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("%s = %q, want %q", k, got[k], v)
				}
			}
			for k, v := range got {
				if _, ok := tc.want[k]; !ok {
					t.Errorf("unexpected %s = %q", k, v)
				}
			}
		})
	}
}

// TestProductFacts: a product page's content that misses the product's
// name, description or price gets them from its JSON-LD; one that holds
// them is left as it is.
func TestProductFacts(t *testing.T) {
	ld := `{"@type":"Product","name":"Walnut standing desk","description":"A desk of solid walnut and steel, oiled by hand.","offers":{"price":"599.00","priceCurrency":"USD"}}`
	res, err := extractHTML(t, []byte(ldPage(ld, ldBody[len(`<h1>Walnut standing desk</h1>`):])), pageURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res.Content, "# Walnut standing desk\n\n") || !strings.HasSuffix(res.Content, "\n\nA desk of solid walnut and steel, oiled by hand.\n\nPrice: 599.00 USD") {
		t.Errorf("facts missing:\n%s", res.Content)
	}
	held := ldBody + `<p>A desk of solid walnut and steel, oiled by hand. Now $599.</p>`
	res, err = extractHTML(t, []byte(ldPage(ld, held)), pageURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(res.Content, "Walnut standing desk") != 1 || strings.Contains(res.Content, "Price:") || strings.Count(res.Content, "oiled by hand") != 1 {
		t.Errorf("facts repeated:\n%s", res.Content)
	}
}

// TestStructuredDataBounded: a hostile page's JSON-LD is read within
// bounds.
func TestStructuredDataBounded(t *testing.T) {
	long := strings.Repeat("walnut ", 10_000)
	many := strings.Repeat(`{"@type":"Thing"},`, 5000)
	ld := `[` + many + `{"@type":"Product","name":"` + long + `"}]`
	root := parsePage(t, ldPage(ld, ldBody))
	m, warning := structuredData(root)
	if len(m["schema_name"]) > maxSchemaValue+len("…") {
		t.Errorf("name of %d bytes", len(m["schema_name"]))
	}
	if want := "JSON-LD read in part: 4001 items past the first 1000"; !strings.HasPrefix(warning, want) {
		t.Errorf("warning %q, want one starting %q", warning, want)
	}
	deep := strings.Repeat(`{"@graph":[`, 20) + `{"@type":"Product","name":"x"}` + strings.Repeat(`]}`, 20)
	if m, warning := structuredData(parsePage(t, ldPage(deep, ldBody))); m["schema_type"] != "" || !strings.HasPrefix(warning, "JSON-LD read in part: 1 items") {
		t.Errorf("read %d levels deep: %v, warning %q", 20, m, warning)
	}
	if m, warning := structuredData(parsePage(t, ldPage(`{"@type":"Product","name":"x"}`, ldBody))); m["schema_name"] != "x" || warning != "" {
		t.Errorf("a small script: %v, warning %q", m, warning)
	}
}

// TestJSONLDNotRead: a JSON-LD script too large, nested too deep or
// malformed with too many closing braces to parse in bounded time is
// removed before go-trafilatura, go-readability, go-htmldate or the page
// type read it, with a warning that says why, and the page's other JSON-LD
// is still read. Before the bound a 20,000-deep script took minutes in
// go-htmldate, and a script past 512 KiB was left out without a word.
func TestJSONLDNotRead(t *testing.T) {
	product := `{"@type":"Product","name":"Walnut desk","offers":{"@type":"Offer","price":"499","priceCurrency":"EUR"}}`
	article := func(body string) string { return `{"@type":"Article","headline":"h","articleBody":"` + body + `"}` }
	tests := []struct {
		name, ld, warning string
	}{
		{"deep", strings.Repeat(`{"@type":"Product","name":"D","a":`, 10_000) + "1" + strings.Repeat("}", 10_000),
			"JSON-LD not read: a script nests 10000 levels deep"},
		{"large", `{"@type":"Product","name":"Big","description":"` + strings.Repeat("word ", 200_000) + `"}`,
			"JSON-LD not read: a script of 1000 KB"},
		{"graph", `{"@graph":[` + strings.Repeat(`{"@type":"Thing","name":"thing"},`, 100_000) + `{"@type":"Thing"}]}`,
			"JSON-LD not read: a script of 3300 KB"},
		{"braces", `{"@type":"Product","name":"B",}` + strings.Repeat("}", 5_000),
			"JSON-LD not read: a malformed script ends in 5001 closing braces"},
		{"all scripts", article(strings.Repeat("a", 400_000)) + `</script><script type="application/ld+json">` + article(strings.Repeat("b", 400_000)) +
			`</script><script type="application/ld+json">` + article(strings.Repeat("c", 400_000)),
			"JSON-LD not read: a script of 400 KB, past the 512 KiB read of each script and 1024 KiB of all"},
		{"within the bounds", `{"@type":"Product","name":"Small","description":"` + strings.Repeat("word ", 1000) + `"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page := ldPage(tt.ld+`</script><script type="application/ld+json">`+product, ldBody)
			res, err := New().Extract(context.Background(), &sdk.ExtractRequest{Body: []byte(page), ContentType: "text/html", URL: "https://example.com/"})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range res.Warnings {
				if strings.Contains(w, "JSON-LD") {
					got = append(got, w)
				}
			}
			if tt.warning == "" && len(got) > 0 || tt.warning != "" && (len(got) != 1 || !strings.HasPrefix(got[0], tt.warning)) {
				t.Errorf("warnings %q, want one starting %q", got, tt.warning)
			}
			if tt.warning != "" && res.Metadata["schema_name"] != "Walnut desk" {
				t.Errorf("schema_name %q, want the other script's product", res.Metadata["schema_name"])
			}
		})
	}
}

// TestJSONDepth: objects and arrays nest, brackets in strings do not, an
// escaped quote does not end a string.
func TestJSONDepth(t *testing.T) {
	for src, want := range map[string]int{
		`1`: 0, `{}`: 1, `{"a":[{"b":1}]}`: 3, `{"a":"{[{[\"{"}`: 1, `[[]`: 2, `{"a":"\\"}`: 1,
	} {
		if got := jsonDepth(src); got != want {
			t.Errorf("jsonDepth(%s) = %d, want %d", src, got, want)
		}
	}
}
