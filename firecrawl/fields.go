package firecrawl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/siftd/sift/errclass"
	"github.com/siftd/sift/internal/httpapi"
	"github.com/siftd/sift/internal/service"
)

// fieldRule says what sift does with one Firecrawl request field: an empty
// refusal means honoured; otherwise the field is named in a warning with
// that reason, unless its value asks for nothing (see asksNothing).
type fieldRule struct {
	refusal string
	// noop, when set, is one more value that asks for nothing, such as
	// proxy "basic".
	noop string
}

// Reasons sift gives for the Firecrawl options it does not apply.
const (
	noBrowser   = "sift runs no browser and no JavaScript"
	noHeaders   = "sift never forwards a caller's headers or cookies to an origin"
	noProxy     = "sift fetches from its own address only"
	tlsAlways   = "sift always verifies TLS"
	noWebhook   = "sift calls no webhooks; poll the job's status"
	noRetention = "sift keeps answers in its cache and batch store as configured"
	notServed   = "not supported by sift"
)

// scrapeFields are the scrape options of /v2/scrape, of /v2/batch/scrape
// (flattened) and of a search's scrapeOptions.
var scrapeFields = map[string]fieldRule{
	"formats": {}, "maxAge": {}, "minAge": {}, "lockdown": {}, "storeInCache": {}, "timeout": {}, "parsers": {}, "jsonOptions": {},
	"siftOptions": {},                    // the extractor's own per-request options
	"origin":      {}, "integration": {}, // the client's own label
	"removeBase64Images": {}, // false keeps them, within the html extractor's bound (scrapeOptions.RemoveBase64Images)
	"onlyMainContent":    {}, "includeTags": {}, "excludeTags": {},
	"blockAds":              {refusal: "sift runs no ads: it never runs a page's scripts", noop: "true"},
	"actions":               {refusal: noBrowser},
	"waitFor":               {refusal: noBrowser},
	"mobile":                {refusal: noBrowser},
	"fastMode":              {refusal: notServed},
	"useMock":               {refusal: notServed},
	"headers":               {refusal: noHeaders},
	"location":              {refusal: noProxy},
	"proxy":                 {refusal: noProxy, noop: `"basic"`},
	"skipTlsVerification":   {refusal: tlsAlways},
	"zeroDataRetention":     {refusal: noRetention},
	"changeTrackingOptions": {}, // v1's, read with the changeTracking format
	"domainTools":           {refusal: notServed},
	"redactPII":             {refusal: "sift does not redact personal data; the page comes back as published"},
	"profile":               {refusal: noBrowser},
}

// batchFields are the fields /v2/batch/scrape adds to the scrape options.
var batchFields = merge(scrapeFields, map[string]fieldRule{
	"urls": {}, "ignoreInvalidURLs": {},
	"webhook":        {refusal: noWebhook},
	"maxConcurrency": {refusal: "sift's per-caller limits set the concurrency"},
	"appendToId":     {refusal: "a batch job takes no more URLs once started"},
})

// searchFields are the fields of /v2/search.
var searchFields = map[string]fieldRule{
	"query": {}, "limit": {}, "scrapeOptions": {}, "origin": {}, "integration": {},
	"sources":           {}, // sourcesWarning
	"domainTools":       {}, // sourcesWarning
	"toolDetail":        {}, // sourcesWarning
	"categories":        {refusal: notServed},
	"tbs":               {refusal: notServed},
	"location":          {refusal: noProxy},
	"country":           {refusal: noProxy},
	"lang":              {refusal: notServed},
	"timeout":           {refusal: notServed},
	"ignoreInvalidURLs": {refusal: notServed},
	"enterprise":        {refusal: notServed},
	"includeDomains":    {refusal: notServed},
	"excludeDomains":    {refusal: notServed},
	"highlights":        {refusal: notServed},
}

func merge(a, b map[string]fieldRule) map[string]fieldRule {
	out := make(map[string]fieldRule, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// decodeFirecrawl decodes a Firecrawl request body into v (a pointer to a
// struct) and returns a warning for every field sift does not apply: the
// refused ones with their reason, the unknown ones as such. A field of the
// wrong type is a 400 that names it.
func decodeFirecrawl(raw []byte, v any, rules map[string]fieldRule) ([]string, *service.Error) {
	var fields map[string]json.RawMessage
	if be := httpapi.DecodeBody(raw, &fields, false); be != nil || fields == nil {
		msg := "malformed JSON: want an object"
		if be != nil {
			msg = be.Error()
		}
		return nil, withCode(badRequest(msg), errclass.CodeInvalidJSON)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return nil, fieldError(fields, v, err)
	}
	return fieldWarnings(fields, rules), nil
}

// fieldWarnings names the fields of a request that sift does not apply.
func fieldWarnings(fields map[string]json.RawMessage, rules map[string]fieldRule) []string {
	byReason := map[string][]string{}
	var unknown []string
	for name, value := range fields {
		rule, known := rules[name]
		switch {
		case !known:
			unknown = append(unknown, name)
		case rule.refusal != "" && !asksNothing(value, rule.noop):
			byReason[rule.refusal] = append(byReason[rule.refusal], name)
		}
	}
	nestedUnknown, warnings := nestedWarnings(fields)
	unknown = append(unknown, nestedUnknown...)
	for reason, names := range byReason {
		sort.Strings(names)
		warnings = append(warnings, fmt.Sprintf("not applied: %s (%s)", strings.Join(names, ", "), reason))
	}
	sort.Strings(warnings)
	if len(unknown) > 0 {
		sort.Strings(unknown)
		warnings = append(warnings, "unknown fields ignored: "+strings.Join(unknown, ", "))
	}
	return warnings
}

// asksNothing reports whether a refused field's value is its default: the
// rule's no-op value where it has one, else false, 0, "", [] or {}; null
// always.
func asksNothing(value json.RawMessage, noop string) bool {
	v := string(bytes.TrimSpace(value))
	if v == "null" {
		return true
	}
	if noop == "" {
		switch v {
		case "false", "0", `""`, "[]", "{}":
			return true
		}
		return false
	}
	var a, b any
	return json.Unmarshal(value, &a) == nil && json.Unmarshal([]byte(noop), &b) == nil && reflect.DeepEqual(a, b)
}

// fieldError names the field a decode failed on: encoding/json's type
// errors carry it; an error from a field's own decoder is found by
// decoding the fields one by one.
func fieldError(fields map[string]json.RawMessage, v any, err error) *service.Error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return badRequest(httpapi.DescribeDecodeError(err).Error())
	}
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		one, _ := json.Marshal(map[string]json.RawMessage{name: fields[name]})
		fresh := reflect.New(reflect.TypeOf(v).Elem()).Interface()
		if ferr := json.Unmarshal(one, fresh); ferr != nil {
			return badField(name, ferr.Error())
		}
	}
	return badRequest(httpapi.DescribeDecodeError(err).Error())
}

func badField(name, why string) *service.Error {
	return badRequest(fmt.Sprintf("field %q: %s", name, why))
}
