package schemacheck

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// keywordsByFold maps each keyword the validator reads, lower-cased, to
// its spelling. encoding/json, which decodes the schema for the
// validator, matches object keys to keywords regardless of case, so the
// validator reads "ANYOF" as anyOf and "$REF" as $ref; the bounds here
// read keywords as JSON Schema spells them. A key that folds to a keyword
// but is spelled otherwise would be a keyword the bounds never saw, so it
// is refused (keywordCase). Built once from jsonschema.Schema's fields and
// never changed.
var keywordsByFold = func() map[string]string {
	out := map[string]string{}
	// Decoded by Schema's UnmarshalJSON through fields of their own.
	for _, name := range []string{"type", "items", "dependencies"} {
		out[name] = name
	}
	t := reflect.TypeFor[jsonschema.Schema]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out[strings.ToLower(name)] = name
		}
	}
	return out
}()

// keywordCase refuses key, of the subschema at at, when it is a keyword
// spelled in another case.
func keywordCase(key, at string) error {
	if spelled, ok := keywordsByFold[strings.ToLower(key)]; ok && spelled != key {
		return fmt.Errorf("%q at %s is not a JSON Schema keyword: keywords are case-sensitive (%s)", key, where(at), spelled)
	}
	return nil
}
