package html

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// A page's JSON-LD says what it is in schema.org's terms: a product's
// name, price and brand, a recipe's ingredients, an event's date and
// place, a how-to's steps, a FAQ's questions and answers, an article's
// headline and author. structuredData reads the first item of the types
// it knows (a product before a recipe, an event, a how-to, a FAQ and an
// article, whatever order the page lists them in) into the metadata,
// under schema_* keys. Each script, item and value is bounded: a hostile
// page's JSON-LD costs little.

const (
	maxJSONLDScripts = 16
	maxJSONLDBytes   = 512 << 10
	maxJSONLDItems   = 1000
	maxSchemaValue   = 4096
	maxSchemaList    = 100
)

// schemaTypes are the types read, in the order one is preferred to the
// next when the page has several.
var schemaTypes = []string{"Product", "Recipe", "Event", "HowTo", "FAQPage", "Article"}

// schemaSubtypes are the subtypes counted as the type they refine.
var schemaSubtypes = map[string]string{
	"ProductModel": "Product", "IndividualProduct": "Product", "Vehicle": "Product", "Car": "Product", "Book": "Product",
	"NewsArticle": "Article", "BlogPosting": "Article", "TechArticle": "Article", "ScholarlyArticle": "Article",
	"Report": "Article", "AnalysisNewsArticle": "Article", "OpinionNewsArticle": "Article", "ReportageNewsArticle": "Article",
	"MusicEvent": "Event", "SportsEvent": "Event", "BusinessEvent": "Event", "EducationEvent": "Event", "Festival": "Event",
	"TheaterEvent": "Event", "ComedyEvent": "Event", "ExhibitionEvent": "Event", "SocialEvent": "Event", "ScreeningEvent": "Event",
}

// structuredData is the metadata the page's JSON-LD gives (see above),
// and a warning when some of it went unread: scripts past the first
// maxJSONLDScripts, items past the first maxJSONLDItems or nested deeper
// than collectItems reads.
func structuredData(root *html.Node) (map[string]string, string) {
	var items []map[string]any
	scripts, skipped := 0, 0
	walkElements(root, func(n *html.Node) bool {
		if n.DataAtom != atom.Script {
			return true
		}
		if strings.EqualFold(strings.TrimSpace(attr(n, "type")), "application/ld+json") {
			if scripts++; scripts > maxJSONLDScripts {
				return false
			}
			if src := textOf(n); len(src) <= maxJSONLDBytes {
				var v any
				if json.Unmarshal([]byte(src), &v) == nil {
					collectItems(v, &items, 0, &skipped)
				}
			}
		}
		return false
	})
	var warning string
	switch {
	case scripts > maxJSONLDScripts:
		warning = fmt.Sprintf("JSON-LD read in part: the first %d of its %d scripts", maxJSONLDScripts, scripts)
	case skipped > 0:
		warning = fmt.Sprintf("JSON-LD read in part: %d items past the first %d or nested more than %d lists deep were not read", skipped, maxJSONLDItems, maxItemDepth)
	}
	for _, want := range schemaTypes {
		for _, item := range items {
			if itemType(item) == want {
				return schemaMetadata(want, item), warning
			}
		}
	}
	return nil, warning
}

// Beyond what structuredData reads, go-trafilatura, go-readability,
// go-htmldate and the page type (pagetype.go) each parse every JSON-LD
// script of the page, and go-htmldate, when one does not parse, strips
// its last closing brace and parses it again, once per brace: a script
// nested 20,000 deep (0.7 MB), past the 10,000 levels encoding/json
// parses, took minutes; 8 MB of valid JSON-LD, 4.5 s of CPU, 50 MB 30 s.
// boundJSONLD removes from the page, before any of them reads it, each
// script that would cost more than a small page's worth, and says so.
const (
	// maxJSONLDTotal bounds the bytes of all the page's JSON-LD read: twice
	// maxJSONLDBytes, about half a second of parsing.
	maxJSONLDTotal = 2 * maxJSONLDBytes
	// maxJSONLDDepth bounds a script's nesting: schema.org's items nest a
	// few levels (the benchmark's deepest script, 11).
	maxJSONLDDepth = 64
	// maxJSONLDBraces bounds the closing braces a malformed script ends
	// in, each of which go-htmldate parses it again for (the benchmark's
	// malformed scripts end in 2 at most).
	maxJSONLDBraces = 16
)

// boundedJSONTypes are the script types read as JSON by the libraries:
// go-htmldate reads application/settings+json as it reads JSON-LD.
var boundedJSONTypes = []string{"application/ld+json", "application/settings+json"}

// boundJSONLD removes the JSON scripts of root beyond the bounds above and
// returns a warning for each.
func boundJSONLD(root *html.Node) []string {
	var scripts []*html.Node
	walkElements(root, func(n *html.Node) bool {
		if n.DataAtom != atom.Script {
			return true
		}
		typ := strings.TrimSpace(attr(n, "type"))
		for _, t := range boundedJSONTypes {
			if strings.EqualFold(typ, t) {
				scripts = append(scripts, n)
			}
		}
		return false
	})
	var warnings []string
	total := 0
	for _, n := range scripts {
		src := textOf(n)
		why := ""
		if len(src) > maxJSONLDBytes || total+len(src) > maxJSONLDTotal {
			why = fmt.Sprintf("a script of %d KB, past the %d KiB read of each script and %d KiB of all", len(src)/1000, maxJSONLDBytes>>10, maxJSONLDTotal>>10)
		} else if depth := jsonDepth(src); depth > maxJSONLDDepth {
			why = fmt.Sprintf("a script nests %d levels deep, past the %d read", depth, maxJSONLDDepth)
		} else if braces := closingBraces(src); braces > maxJSONLDBraces && !json.Valid([]byte(strings.TrimSpace(src))) {
			why = fmt.Sprintf("a malformed script ends in %d closing braces, past the %d read", braces, maxJSONLDBraces)
		}
		if why == "" {
			total += len(src)
			continue
		}
		name := "JSON-LD"
		if !strings.EqualFold(strings.TrimSpace(attr(n, "type")), "application/ld+json") {
			name = "settings JSON"
		}
		warnings = append(warnings, name+" not read: "+why)
		n.Parent.RemoveChild(n)
	}
	return warnings
}

// jsonDepth is the deepest nesting of objects and arrays in src, read in
// one pass, strings skipped; malformed JSON gets a depth all the same.
func jsonDepth(src string) int {
	depth, deepest := 0, 0
	inString, escaped := false, false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}

// closingBraces counts the closing braces src ends in, spaces between them
// skipped, as go-htmldate strips them one at a time.
func closingBraces(src string) int {
	n := 0
	for i := len(src) - 1; i >= 0; i-- {
		switch src[i] {
		case '}':
			n++
		case ' ', '\t', '\n', '\r', '\f':
		default:
			return n
		}
	}
	return n
}

// withSchema adds schema's keys to the metadata m.
func withSchema(m, schema map[string]string) map[string]string {
	if len(schema) == 0 {
		return m
	}
	if m == nil {
		m = map[string]string{}
	}
	for k, v := range schema {
		m[k] = v
	}
	return m
}

// collectItems gathers the typed objects of a JSON-LD value: the value
// itself, the members of a list and of an @graph.
// skipped counts the items it leaves unread, past maxJSONLDItems or
// nested deeper than maxItemDepth.
func collectItems(v any, items *[]map[string]any, depth int, skipped *int) {
	if depth > maxItemDepth || len(*items) >= maxJSONLDItems {
		*skipped += countItems(v)
		return
	}
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			collectItems(e, items, depth+1, skipped)
		}
	case map[string]any:
		if _, ok := x["@type"]; ok {
			*items = append(*items, x)
		}
		if g, ok := x["@graph"]; ok {
			collectItems(g, items, depth+1, skipped)
		}
	}
}

// maxItemDepth bounds the lists and @graphs collectItems reads into.
const maxItemDepth = 4

// countItems counts the typed objects collectItems would gather from v
// unbounded.
func countItems(v any) int {
	n := 0
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			n += countItems(e)
		}
	case map[string]any:
		if _, ok := x["@type"]; ok {
			n++
		}
		if g, ok := x["@graph"]; ok {
			n += countItems(g)
		}
	}
	return n
}

// itemType is the type of schemaTypes item is, or "".
func itemType(item map[string]any) string {
	var names []string
	switch t := item["@type"].(type) {
	case string:
		names = []string{t}
	case []any:
		for _, e := range t {
			if s, ok := e.(string); ok {
				names = append(names, s)
			}
		}
	}
	for _, name := range names {
		name = strings.TrimPrefix(strings.TrimPrefix(name, "https://schema.org/"), "http://schema.org/")
		if sub, ok := schemaSubtypes[name]; ok {
			name = sub
		}
		for _, t := range schemaTypes {
			if name == t {
				return t
			}
		}
	}
	return ""
}

// schemaMetadata writes item, of type typ, as metadata.
func schemaMetadata(typ string, item map[string]any) map[string]string {
	out := map[string]string{"schema_type": typ}
	set := func(key string, v any) {
		if s := schemaText(v); s != "" {
			out[key] = s
		}
	}
	// setLines sets a value of several lines, which schemaText would run
	// into one.
	setLines := func(key, s string) {
		if s != "" {
			out[key] = s
		}
	}
	set("schema_name", first(item["name"], item["headline"]))
	set("schema_description", item["description"])
	switch typ {
	case "Product":
		set("schema_brand", item["brand"])
		set("schema_sku", first(item["sku"], item["mpn"], item["gtin13"], item["gtin"]))
		offer := item["offers"]
		if list, ok := offer.([]any); ok && len(list) > 0 {
			offer = list[0]
		}
		if o, ok := offer.(map[string]any); ok {
			set("schema_price", first(o["price"], o["lowPrice"], priceSpec(o)))
			set("schema_price_currency", first(o["priceCurrency"], priceSpecCurrency(o)))
			if a := schemaText(o["availability"]); a != "" {
				out["schema_availability"] = a[strings.LastIndex(a, "/")+1:]
			}
		}
		if r, ok := item["aggregateRating"].(map[string]any); ok {
			set("schema_rating", r["ratingValue"])
			set("schema_rating_count", first(r["ratingCount"], r["reviewCount"]))
		}
	case "Recipe":
		set("schema_yield", item["recipeYield"])
		set("schema_total_time", item["totalTime"])
		setLines("schema_ingredients", lines(item["recipeIngredient"], nil))
		setLines("schema_instructions", lines(item["recipeInstructions"], nil))
	case "HowTo":
		set("schema_total_time", item["totalTime"])
		setLines("schema_steps", lines(item["step"], nil))
	case "Event":
		set("schema_start_date", item["startDate"])
		set("schema_end_date", item["endDate"])
		set("schema_location", place(item["location"]))
	case "FAQPage":
		setLines("schema_questions", questions(item["mainEntity"]))
	case "Article":
		set("schema_author", item["author"])
		set("schema_date_published", item["datePublished"])
		set("schema_date_modified", item["dateModified"])
	}
	return out
}

// first is the first of vs that reads as text.
func first(vs ...any) any {
	for _, v := range vs {
		if schemaText(v) != "" {
			return v
		}
	}
	return nil
}

func priceSpec(o map[string]any) any {
	if ps, ok := o["priceSpecification"].(map[string]any); ok {
		return ps["price"]
	}
	return nil
}

func priceSpecCurrency(o map[string]any) any {
	if ps, ok := o["priceSpecification"].(map[string]any); ok {
		return ps["priceCurrency"]
	}
	return nil
}

// schemaText is a value as one line of text: a string without its markup,
// a number as written, an object by its name (or text), a list's members
// joined by commas.
func schemaText(v any) string {
	var s string
	switch x := v.(type) {
	case string:
		s = plainText(x)
	case float64:
		s = fmt.Sprint(x)
	case bool:
		s = fmt.Sprint(x)
	case map[string]any:
		s = schemaText(first(x["name"], x["text"], x["@value"]))
	case []any:
		var parts []string
		for i, e := range x {
			if i == maxSchemaList {
				break
			}
			if t := schemaText(e); t != "" {
				parts = append(parts, t)
			}
		}
		s = strings.Join(parts, ", ")
	}
	return bounded(strings.Join(strings.Fields(s), " "))
}

// lines is a list of steps or ingredients a line each: strings, HowToStep
// texts, HowToSection's steps under their names.
func lines(v any, out []string) string {
	var walk func(any, int)
	walk = func(v any, depth int) {
		if depth > 4 || len(out) >= maxSchemaList {
			return
		}
		switch x := v.(type) {
		case []any:
			for _, e := range x {
				walk(e, depth+1)
			}
		case map[string]any:
			if steps, ok := x["itemListElement"]; ok {
				if name := schemaText(x["name"]); name != "" {
					out = append(out, name+":")
				}
				walk(steps, depth+1)
				return
			}
			if t := schemaText(first(x["text"], x["name"])); t != "" {
				out = append(out, t)
			}
		default:
			if t := schemaText(x); t != "" {
				out = append(out, t)
			}
		}
	}
	walk(v, 0)
	return bounded(strings.Join(out, "\n"))
}

// place is an event's location: its name and address.
func place(v any) string {
	if list, ok := v.([]any); ok && len(list) > 0 {
		v = list[0]
	}
	p, ok := v.(map[string]any)
	if !ok {
		return schemaText(v)
	}
	var parts []string
	for _, s := range []string{schemaText(p["name"]), address(p["address"]), schemaText(p["url"])} {
		if s != "" && !containsString(parts, s) {
			parts = append(parts, s)
			if len(parts) == 2 {
				break
			}
		}
	}
	return strings.Join(parts, ", ")
}

// address is a PostalAddress as one line.
func address(v any) string {
	a, ok := v.(map[string]any)
	if !ok {
		return schemaText(v)
	}
	var parts []string
	for _, k := range []string{"streetAddress", "addressLocality", "addressRegion", "postalCode", "addressCountry"} {
		if s := schemaText(a[k]); s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, ", ")
}

// questions are a FAQ's questions, each with its accepted answer.
func questions(v any) string {
	list, ok := v.([]any)
	if !ok {
		list = []any{v}
	}
	var out []string
	for i, e := range list {
		q, ok := e.(map[string]any)
		if !ok || i == maxSchemaList {
			break
		}
		name := schemaText(q["name"])
		if name == "" {
			continue
		}
		entry := "Q: " + name
		if a := schemaText(first(q["acceptedAnswer"], q["suggestedAnswer"])); a != "" {
			entry += "\nA: " + a
		}
		out = append(out, entry)
	}
	return bounded(strings.Join(out, "\n\n"))
}

// plainText is s without the markup JSON-LD strings often hold (a FAQ's
// answer as HTML), its entities decoded.
func plainText(s string) string {
	if !strings.ContainsAny(s, "<&") {
		return s
	}
	nodes, err := html.ParseFragment(strings.NewReader(s), &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body})
	if err != nil {
		return s
	}
	var b strings.Builder
	for _, n := range nodes {
		b.WriteString(textOf(n))
		b.WriteByte(' ')
	}
	return b.String()
}

// bounded cuts s at maxSchemaValue bytes, at a character's start.
func bounded(s string) string {
	if len(s) <= maxSchemaValue {
		return s
	}
	cut := maxSchemaValue
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// withProductFacts adds to md, the markdown of a product page, what its
// JSON-LD says of the product and the content misses: its name as the
// heading above, its description and its price below. go-trafilatura
// often takes a product page's reviews or its specifications for the
// content and leaves these out.
func withProductFacts(md string, schema map[string]string) string {
	if schema["schema_type"] != "Product" || md == "" {
		return md
	}
	held := textWords(md)
	if name := schema["schema_name"]; name != "" && !strings.Contains(held, textWords(name)) {
		md = "# " + name + "\n\n" + md
	}
	if desc := schema["schema_description"]; desc != "" && !strings.Contains(held, leadWords(textWords(desc), 12)) {
		md += "\n\n" + desc
	}
	if price := schema["schema_price"]; price != "" && !strings.Contains(md, price) && !strings.Contains(md, strings.TrimSuffix(strings.TrimSuffix(price, ".00"), ".0")) {
		line := "Price: " + price
		if cur := schema["schema_price_currency"]; cur != "" {
			line += " " + cur
		}
		md += "\n\n" + line
	}
	return md
}

// textWords is s's words, lower-cased, one space apart.
func textWords(s string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}), " ")
}

// leadWords is the first n words of words.
func leadWords(words string, n int) string {
	f := strings.Fields(words)
	if len(f) > n {
		f = f[:n]
	}
	return strings.Join(f, " ")
}
