package service

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/siftd/sift/errclass"
	"github.com/siftd/sift/stages"
)

// maxPluginOptions bounds how many options one request may pass to its
// extractor.
const maxPluginOptions = 32

// PluginOptions turns the extractor's own options of a request (`options`
// of /v1/fetch, `siftOptions` of a scrape) into the strings the plugin
// protocol carries: a JSON string as it is, a number or a boolean as
// written. The extractor that gets the document checks names and values
// against its declaration; here only the JSON shape is checked. It merges
// them into opts, refusing one that a request field already set.
func PluginOptions(field string, raw map[string]json.RawMessage, opts map[string]string) (map[string]string, []string, *Error) {
	if len(raw) == 0 {
		return opts, nil, nil
	}
	if len(raw) > maxPluginOptions {
		return nil, nil, badOption(fmt.Sprintf("%s: at most %d options", field, maxPluginOptions))
	}
	if opts == nil {
		opts = map[string]string{}
	}
	names := slices.Sorted(maps.Keys(raw))
	for _, name := range names {
		v, err := optionValue(raw[name])
		if err != nil {
			return nil, nil, badOption(fmt.Sprintf("%s.%s: %v", field, name, err))
		}
		if _, taken := opts[name]; taken {
			return nil, nil, badOption(fmt.Sprintf("%s.%s: also given as the request's own field; give it once", field, name))
		}
		opts[name] = v
	}
	return opts, names, nil
}

// optionValue is a scalar JSON value as the string a plugin receives.
func optionValue(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		// json.Unmarshal takes null into a string as "", a value the
		// caller never sent.
		return "", fmt.Errorf("want a string, a number or a boolean, not null")
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var b bool
	if err := json.Unmarshal(raw, &b); err == nil {
		return strconv.FormatBool(b), nil
	}
	var n json.Number
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&n); err == nil {
		return n.String(), nil
	}
	return "", fmt.Errorf("want a string, a number or a boolean, not %s", jsonShape(raw))
}

func jsonShape(raw json.RawMessage) string {
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return "null"
	case raw[0] == '{':
		return "an object"
	case raw[0] == '[':
		return "an array"
	}
	return "that"
}

func badOption(msg string) *Error { return ClassError(errclass.BadOption, msg) }

// nativeFieldNames name /v1's request fields by the extractor option each
// becomes: the same names.
var nativeFieldNames = map[string]string{"json_path": "json_path", "jq": "jq", "pages": "pages", "links": "links", "ocr": "ocr", "images": "images"}

// UnappliedWarning names the request fields the document's extractor does
// not take (jq on a web page): it did not apply them, and the caller
// should know. names maps an extractor option to the field the caller
// gave; an option missing from it is not the caller's to hear about.
func UnappliedWarning(doc *stages.Doc, names map[string]string) string {
	ex := doc.Extraction
	if ex == nil {
		return ""
	}
	var fields []string
	for _, opt := range ex.Unapplied {
		if f, ok := names[opt]; ok {
			fields = append(fields, f)
		}
	}
	if len(fields) == 0 {
		return ""
	}
	return fmt.Sprintf("not applied: %s (the %s extractor, which read this %s document, takes no such option)",
		strings.Join(fields, ", "), ex.Extractor, doc.MediaType())
}
