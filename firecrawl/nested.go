package firecrawl

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
)

// The fields sift reads in the objects of a scrape's formats and parsers
// lists, by the object's type; a field outside them is named in a warning,
// as a top-level field is. A format sift does not serve is named by the
// formats check; its object's fields are not listed again.
var (
	formatFields = map[string][]string{
		"markdown": {"type"}, "html": {"type"}, "rawHtml": {"type"}, "links": {"type"}, "summary": {"type"},
		"json": {"type", "schema", "prompt"}, "question": {"type", "question"}, "highlights": {"type", "query"},
		"query":      {"type", "prompt", "mode"},
		"attributes": {"type", "selectors"}, "changeTracking": {"type", "modes", "tag", "prompt", "schema"},
	}
	parserFields = map[string][]string{"pdf": {"type", "maxPages", "mode"}}
)

// pdfModes are the values of a pdf parser's mode, as the value of the
// pdf extractor's ocr option: fast reads the text layer only, auto reads
// the pages without one by OCR (sift's default too), ocr reads every page
// by OCR.
var pdfModes = map[string]string{"fast": "never", "auto": "auto", "ocr": "always"}

// nestedWarnings names what sift does not apply inside the formats and
// parsers lists of fields: unknown fields of their objects, and a pdf
// parser's mode it does not know.
func nestedWarnings(fields map[string]json.RawMessage) (unknown, warnings []string) {
	unknown = append(unknownIn("formats", fields["formats"], formatFields), unknownIn("parsers", fields["parsers"], parserFields)...)
	var parsers []json.RawMessage
	_ = json.Unmarshal(fields["parsers"], &parsers) // decoded already, or refused
	for i, raw := range parsers {
		var p struct {
			Type string `json:"type"`
			Mode string `json:"mode"`
		}
		if json.Unmarshal(raw, &p) != nil || p.Type != "pdf" || p.Mode == "" {
			continue
		}
		if _, known := pdfModes[p.Mode]; !known {
			warnings = append(warnings, fmt.Sprintf("not applied: parsers[%d].mode %q (want fast, auto or ocr)", i, p.Mode))
		}
	}
	return unknown, warnings
}

// unknownIn lists the fields, as paths (formats[0].bogus), of the objects
// in the list raw that known does not name for the object's type.
func unknownIn(list string, raw json.RawMessage, known map[string][]string) []string {
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return nil
	}
	var out []string
	for i, item := range items {
		var obj map[string]json.RawMessage
		if json.Unmarshal(item, &obj) != nil {
			continue // a string: nothing nested
		}
		var typ string
		_ = json.Unmarshal(obj["type"], &typ)
		names, served := known[typ]
		if !served {
			continue
		}
		var extra []string
		for name := range obj {
			if !slices.Contains(names, name) {
				extra = append(extra, fmt.Sprintf("%s[%d].%s", list, i, name))
			}
		}
		sort.Strings(extra)
		out = append(out, extra...)
	}
	return out
}
