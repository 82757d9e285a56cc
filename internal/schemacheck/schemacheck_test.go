package schemacheck

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// anyOfChain is the red team's schema: level i is anyOf two $refs to
// level i+1, so validation unrolled doubles at each level.
func anyOfChain(levels int) string {
	defs := make([]string, 0, levels+1)
	for i := range levels {
		defs = append(defs, fmt.Sprintf(`"l%d":{"anyOf":[{"$ref":"#/$defs/l%d"},{"$ref":"#/$defs/l%d"}]}`, i, i+1, i+1))
	}
	defs = append(defs, fmt.Sprintf(`"l%d":{"type":"string"}`, levels))
	return `{"$ref":"#/$defs/l0","$defs":{` + strings.Join(defs, ",") + `}}`
}

// nested is a schema whose properties nest depth levels deep.
func nested(depth int) string {
	s := `{"type":"string"}`
	for range depth {
		s = `{"type":"object","properties":{"a":` + s + `}}`
	}
	return s
}

func TestParseTakesOrdinarySchemas(t *testing.T) {
	for _, raw := range []string{
		`{"type":"object","properties":{"title":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}}},"required":["title"]}`,
		// pydantic's shape: definitions referred to from several places
		`{"$defs":{"Price":{"type":"object","properties":{"amount":{"type":"number"},"currency":{"type":"string"}}}},
		  "type":"object","properties":{"list":{"$ref":"#/$defs/Price"},"sale":{"$ref":"#/$defs/Price"},
		  "history":{"type":"array","items":{"$ref":"#/$defs/Price"}}}}`,
		`{"definitions":{"a/b":{"type":"integer"}},"properties":{"n":{"$ref":"#/definitions/a~1b"}}}`,
		`{"properties":{"x":true,"y":false},"additionalProperties":false}`,
		`{"$id":"https://example.com/product.schema.json","type":"object"}`,
		// a property named type, and a type inside an enum's data
		`{"type":"object","properties":{"type":{"type":"string","enum":[{"type":"x"}]}}}`,
		`{"dependencies":{"a":["b"],"c":{"required":["d"]}}}`,
		// property names are not keywords, whatever their case
		`{"type":"object","properties":{"Items":{"type":"string"},"ANYOF":{"type":"integer"}}}`,
		anyOfChain(8),
		nested(MaxDepth),
	} {
		if _, err := Parse(json.RawMessage(raw)); err != nil {
			t.Errorf("%.80s: %v", raw, err)
		}
	}
}

func TestParseRefusesWhatItCannotBound(t *testing.T) {
	branches := make([]string, MaxBranches+1)
	for i := range branches {
		branches[i] = `{"const":` + fmt.Sprint(i) + `}`
	}
	for _, tc := range []struct{ raw, want string }{
		{`{"$ref":"#"}`, "$ref at /$ref refers back to /, which holds it: recursive schemas are not taken"},
		{`{"properties":{"child":{"$ref":"#"}}}`, "$ref at /properties/child/$ref refers back to /"},
		{`{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"items":{"$ref":"#/$defs/a"}}},"$ref":"#/$defs/a"}`, "recursive schemas are not taken"},
		{anyOfChain(30), fmt.Sprintf("unrolls to more than %d subschemas", MaxUnrolled)},
		{nested(MaxDepth + 1), fmt.Sprintf("nest deeper than %d levels", MaxDepth)},
		{`{"anyOf":[` + strings.Join(branches, ",") + `]}`, fmt.Sprintf("anyOf at /anyOf has %d members, at most %d", MaxBranches+1, MaxBranches)},
		{`{"$ref":"https://example.com/other.json"}`, "only a local JSON pointer"},
		{`{"$ref":"#name"}`, "only a local JSON pointer"},
		{`{"$ref":"#/$defs/missing"}`, `refers to nothing in the schema`},
		{`{"$ref":"#/required","required":["a"]}`, "refers to an array, not a schema"},
		{`{"$ref":7}`, "$ref at / is a number"},
		{`{"$dynamicRef":"#meta"}`, "$dynamicRef is not taken"},
		// The validator reads keys as keywords whatever their case; the
		// bounds must read them alike, or "ANYOF" and "$REF" pass unseen
		// (the red team's third round: an ANYOF chain held a core for good).
		{strings.ReplaceAll(anyOfChain(30), `"anyOf"`, `"ANYOF"`), `"ANYOF" at /$defs/l`},
		{`{"$REF":"#"}`, `"$REF" at / is not a JSON Schema keyword: keywords are case-sensitive ($ref)`},
		{`{"properties":{"a":{"Items":{"$Ref":"#"}}}}`, "keywords are case-sensitive"},
		// Folding, not only case: ſ (U+017F) folds to s.
		{`{"type":"object","dependentSchema\u017f":{"a":{"$ref":"#"}}}`, "keywords are case-sensitive (dependentSchemas)"},
		{`{"properties":{"a":{"$id":"https://example.com/a","$ref":"#/x"}}}`, "$id at /properties/a is not taken"},
		{`{"properties":{"a":5}}`, "the subschema at /properties/a is a number"},
		{`{"type":5}`, "type at /type is a number"},
		{`{"type":["string","strin"]}`, `type "strin" at /type is not a JSON Schema type`},
		{`"an object please"`, "want a JSON Schema object, not a string"},
		{`[1]`, "want a JSON Schema object, not an array"},
		{`{"type":`, "not JSON"},
		{`{"description":"` + strings.Repeat("x", MaxBytes) + `"}`, fmt.Sprintf("at most %d", MaxBytes)},
	} {
		_, err := Parse(json.RawMessage(tc.raw))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%.60s: %v, want %q", tc.raw, err, tc.want)
		}
	}
}

func TestParseNamesAKeywordOfTheWrongKind(t *testing.T) {
	_, err := Parse(json.RawMessage(`{"type":"object","required":"when"}`))
	if _, ok := errors.AsType[*DecodeError](err); !ok {
		t.Errorf("%v: want a DecodeError", err)
	}
}

func TestValidate(t *testing.T) {
	s, err := Parse(json.RawMessage(`{"$defs":{"n":{"type":"integer"}},"type":"object","properties":{"n":{"$ref":"#/$defs/n"}},"required":["n"]}`))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, tc := range []struct {
		answer string
		fits   bool
	}{{`{"n":3}`, true}, {`{"n":"3"}`, false}, {`{}`, false}} {
		var v any
		_ = json.Unmarshal([]byte(tc.answer), &v)
		if err := NewValidators(1).Validate(ctx, s, v); (err == nil) != tc.fits {
			t.Errorf("%s: %v, fits %v", tc.answer, err, tc.fits)
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := NewValidators(1).Validate(cancelled, s, map[string]any{"n": 3.0}); !errors.Is(err, context.Canceled) {
		t.Errorf("a request that has ended: %v", err)
	}
}

// answers are instances a fuzzed schema is validated against.
var answers = []any{nil, true, 1.5, "s", []any{1.0, "a", []any{}}, map[string]any{"a": map[string]any{"a": []any{map[string]any{}}}}}

func FuzzParse(f *testing.F) {
	for _, seed := range []string{`{"$ref":"#"}`, anyOfChain(12), nested(4), `{"$defs":{"a":{"$ref":"#/$defs/a"}}}`,
		`{"items":[{"type":"string"}],"additionalItems":{"$ref":"#/items/0"}}`, `{"allOf":[{"$ref":"#/allOf/1"},{"type":"null"}]}`,
		`{"AnyOf":[{"$REF":"#"}]}`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		s, err := Parse(json.RawMessage(raw))
		if err != nil {
			return
		}
		vs := NewValidators(1)
		for _, v := range answers {
			_ = vs.Validate(context.Background(), s, v)
		}
	})
}

// BenchmarkValidateAtTheBounds validates an answer of 1,000 array
// members against a schema that unrolls to nearly MaxUnrolled
// subschemas: what the bounds let one validation cost.
func BenchmarkValidateAtTheBounds(b *testing.B) {
	schema := strings.Replace(anyOfChain(8), `"$ref"`, `"type":"array","items":{"$ref"`, 1)
	schema = strings.Replace(schema, `,"$defs"`, `},"$defs"`, 1)
	s, err := Parse(json.RawMessage(schema))
	if err != nil {
		b.Fatal(err)
	}
	answer := make([]any, 1000)
	for i := range answer {
		answer[i] = 5.0 // fits no branch, so every branch is tried
	}
	vs := NewValidators(1)
	for b.Loop() {
		_ = vs.Validate(context.Background(), s, answer)
	}
}

// TestValidatorsBoundWhatRunsOn: with every slot held by a validation
// still running, another waits for its context, then is refused with
// ErrNoSlot; once a slot frees, validation runs again.
func TestValidatorsBoundWhatRunsOn(t *testing.T) {
	t.Parallel()
	s, err := Parse(json.RawMessage(`{"type":"integer"}`))
	if err != nil {
		t.Fatal(err)
	}
	vs := NewValidators(2)
	vs.slots <- struct{}{}
	vs.slots <- struct{}{} // two validations that never end
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := vs.Validate(ctx, s, 1.0); !errors.Is(err, ErrNoSlot) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("all slots held: %v, want ErrNoSlot after the deadline", err)
	}
	<-vs.slots
	if err := vs.Validate(context.Background(), s, 1.0); err != nil {
		t.Fatalf("a slot free: %v", err)
	}
	if len(vs.slots) != 1 {
		t.Fatalf("%d slots held after the validation ended, want 1", len(vs.slots))
	}
}
