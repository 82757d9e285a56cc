package schemacheck

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// keywords are the keywords the validator reads, as JSON Schema spells
// them. encoding/json, which decodes the schema for the validator,
// matches an object's keys to them by Unicode case folding
// (strings.EqualFold: "ANYOF" is anyOf, "$REF" is $ref, and "ſ", U+017F,
// is "s"), while the bounds here read keywords as spelled. A key that
// folds to a keyword but is spelled otherwise would be a keyword the
// bounds never saw, so it is refused (keywordCase). Built once from
// jsonschema.Schema's fields and never changed.
var keywords = func() []string {
	// Decoded by Schema's UnmarshalJSON through fields of their own.
	out := []string{"type", "items", "dependencies"}
	t := reflect.TypeFor[jsonschema.Schema]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}()

// keywordCase refuses key, of the subschema at at, when it folds to a
// keyword without being spelled as it.
func keywordCase(key, at string) error {
	for _, kw := range keywords {
		if key != kw && strings.EqualFold(key, kw) {
			return fmt.Errorf("%q at %s is not a JSON Schema keyword: keywords are case-sensitive (%s)", key, where(at), kw)
		}
	}
	return nil
}
