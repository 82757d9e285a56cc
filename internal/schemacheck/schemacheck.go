// Package schemacheck reads a JSON Schema that a caller sends (the
// Firecrawl json format's) and holds it to bounds before anything uses it.
//
// A caller's schema is hostile input. jsonschema-go validates by recursion
// over the schema as it walks the instance, so a $ref that comes back to
// where it started without descending ({"$ref": "#"}) recurses until Go's
// stack overflows, which no recover catches, and two anyOf branches that
// both refer to the next level double the work at every level. So a schema
// is taken only when its size, its nesting, its branches and the size of
// the tree its $refs unroll to are bounded, and its $refs form no cycle:
// then validating an answer costs at most that unrolled size for each node
// of the answer.
package schemacheck

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// The bounds a caller's schema is held to.
const (
	// MaxBytes bounds the schema's text: it goes into the model's prompt
	// and becomes a grammar.
	MaxBytes = 16 << 10
	// MaxDepth bounds how deep subschemas nest.
	MaxDepth = 32
	// MaxBranches bounds the members of one allOf, anyOf, oneOf or
	// prefixItems.
	MaxBranches = 64
	// MaxUnrolled bounds the subschemas of the tree the schema becomes
	// when every $ref is replaced by what it refers to: what validating
	// one node of an answer may visit.
	MaxUnrolled = 2000
)

// Schema is a caller's schema that is within the bounds, ready to
// validate answers with.
type Schema struct {
	resolved *jsonschema.Resolved
}

// DecodeError is a schema whose keywords have values of the wrong kind
// ("required": "name"): Err is encoding/json's, for the caller to word.
type DecodeError struct{ Err error }

func (e *DecodeError) Error() string { return "not a JSON Schema: " + e.Err.Error() }
func (e *DecodeError) Unwrap() error { return e.Err }

// Parse checks raw, in JSON's terms: an object, whose "type"s name JSON
// types, within the bounds, with local $refs that form no cycle; then
// resolves it.
func Parse(raw json.RawMessage) (*Schema, error) {
	if len(raw) > MaxBytes {
		return nil, fmt.Errorf("the schema is %d bytes, at most %d", len(raw), MaxBytes)
	}
	var root any
	if err := json.Unmarshal(raw, &root); err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	if _, ok := root.(map[string]any); !ok {
		return nil, fmt.Errorf("want a JSON Schema object, not %s", valueKind(root))
	}
	w := &walker{root: root, unrolled: map[string]int{}, visiting: map[string]bool{}}
	if err := w.check(root, "", 0); err != nil {
		return nil, err
	}
	if err := w.unrollAll(); err != nil {
		return nil, err
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, &DecodeError{Err: err}
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("not a JSON Schema: %w", err)
	}
	return &Schema{resolved: rs}, nil
}

// Validate checks the answer v against the schema, and gives up when ctx
// ends. The bounds Parse holds the schema to bound what a validation
// left running after that costs.
func (s *Schema) Validate(ctx context.Context, v any) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- s.resolved.Validate(v) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return fmt.Errorf("validating the answer: %w", ctx.Err())
	}
}

// Keywords whose values are subschemas, by the shape that holds them.
var (
	oneSchema = map[string]bool{
		"additionalProperties": true, "additionalItems": true, "items": true, "contains": true,
		"propertyNames": true, "not": true, "if": true, "then": true, "else": true,
		"unevaluatedItems": true, "unevaluatedProperties": true, "contentSchema": true,
	}
	schemaMap   = map[string]bool{"properties": true, "patternProperties": true, "$defs": true, "definitions": true, "dependentSchemas": true, "dependencies": true}
	definitions = map[string]bool{"$defs": true, "definitions": true}
	schemaArray = map[string]bool{"allOf": true, "anyOf": true, "oneOf": true, "prefixItems": true, "items": true}
	// refusedKeywords would resolve references in ways this package does
	// not follow, so its bounds could not hold.
	refusedKeywords = map[string]string{
		"$dynamicRef":   "$dynamicRef is not taken: use a local $ref",
		"$recursiveRef": "$recursiveRef is not taken: use a local $ref",
	}
)

// walker checks a decoded schema and measures the tree it unrolls to.
type walker struct {
	root any
	// unrolled memoizes each subschema's unrolled size by its location.
	unrolled map[string]int
	// visiting holds the locations on the way from the root to the
	// subschema being unrolled: meeting one again is a cycle.
	visiting map[string]bool
}

// check walks the schema v at location at, depth levels down, checking
// what each subschema says on its own.
func (w *walker) check(v any, at string, depth int) error {
	obj, ok := v.(map[string]any)
	if !ok {
		if _, isBool := v.(bool); isBool {
			return nil
		}
		return fmt.Errorf("the subschema at %s is %s: want an object or a boolean", where(at), valueKind(v))
	}
	if depth > MaxDepth {
		return fmt.Errorf("subschemas nest deeper than %d levels at %s", MaxDepth, where(at))
	}
	if t, ok := obj["type"]; ok {
		if err := checkType(t, at+"/type"); err != nil {
			return err
		}
	}
	// In key order: a schema with two faults names the same one each
	// time (map order made TestParseRefusesWhatItCannotBound fail one run
	// in six).
	for _, key := range slices.Sorted(maps.Keys(obj)) {
		val := obj[key]
		if msg, refused := refusedKeywords[key]; refused {
			return fmt.Errorf("%s (at %s)", msg, where(at))
		}
		switch key {
		case "$ref":
			if _, err := w.target(val, at); err != nil {
				return err
			}
		case "$id":
			if at != "" {
				return fmt.Errorf("$id at %s is not taken: only the root may set one", where(at))
			}
		}
		if err := w.checkChildren(key, val, at, depth); err != nil {
			return err
		}
	}
	return nil
}

// checkChildren checks the subschemas that keyword key holds in val.
func (w *walker) checkChildren(key string, val any, at string, depth int) error {
	return eachChild(key, val, at, func(child any, childAt string) error {
		return w.check(child, childAt, depth+1)
	})
}

// eachChild calls f with each subschema that keyword key holds in val,
// and its location; it refuses a list of more than MaxBranches.
func eachChild(key string, val any, at string, f func(child any, childAt string) error) error {
	at += "/" + escape(key)
	switch x := val.(type) {
	case map[string]any:
		if oneSchema[key] {
			return f(x, at)
		}
		if !schemaMap[key] {
			return nil
		}
		for name, child := range x {
			if _, names := child.([]any); names && key == "dependencies" {
				continue // draft 7's property dependencies: names, not a schema
			}
			if err := f(child, at+"/"+escape(name)); err != nil {
				return err
			}
		}
	case bool:
		if oneSchema[key] {
			return f(x, at)
		}
	case []any:
		if !schemaArray[key] {
			return nil
		}
		if len(x) > MaxBranches {
			return fmt.Errorf("%s at %s has %d members, at most %d", key, where(at), len(x), MaxBranches)
		}
		for i, child := range x {
			if err := f(child, fmt.Sprintf("%s/%d", at, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// unrollAll unrolls the root and each of its definitions, so that a
// definition no $ref names is held to the bounds too.
func (w *walker) unrollAll() error {
	if _, err := w.unroll(w.root, ""); err != nil {
		return err
	}
	obj := w.root.(map[string]any)
	for key := range definitions {
		defs, _ := obj[key].(map[string]any)
		for name, def := range defs {
			if _, err := w.unroll(def, "/"+key+"/"+escape(name)); err != nil {
				return err
			}
		}
	}
	return nil
}

// unroll returns the number of subschemas in the tree that v, at
// location at, becomes when every $ref is replaced by its target.
func (w *walker) unroll(v any, at string) (int, error) {
	if n, ok := w.unrolled[at]; ok {
		return n, nil
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return 1, nil
	}
	w.visiting[at] = true
	defer delete(w.visiting, at)
	n := 1
	if ref, ok := obj["$ref"]; ok {
		to, err := w.target(ref, at)
		if err != nil {
			return 0, err
		}
		if w.visiting[to] {
			return 0, fmt.Errorf("$ref at %s refers back to %s, which holds it: recursive schemas are not taken", where(at+"/$ref"), where(to))
		}
		target, _ := lookup(w.root, to)
		m, err := w.unroll(target, to)
		if err != nil {
			return 0, err
		}
		n += m
	}
	for key, val := range obj {
		if definitions[key] {
			continue // applied only where a $ref names them
		}
		err := eachChild(key, val, at, func(child any, childAt string) error {
			m, err := w.unroll(child, childAt)
			n += m
			return err
		})
		if err != nil {
			return 0, err
		}
		if n > MaxUnrolled {
			return 0, fmt.Errorf("the schema unrolls to more than %d subschemas when its $refs are replaced by what they refer to (at %s)", MaxUnrolled, where(at))
		}
	}
	w.unrolled[at] = n
	return n, nil
}

// target reads the $ref value ref, of the subschema at at, as the
// location of a subschema of the same document.
func (w *walker) target(ref any, at string) (string, error) {
	s, ok := ref.(string)
	if !ok {
		return "", fmt.Errorf("$ref at %s is %s: want a string", where(at), valueKind(ref))
	}
	if s != "#" && !strings.HasPrefix(s, "#/") {
		return "", fmt.Errorf("$ref %q at %s is not taken: only a local JSON pointer (#/$defs/name) is", s, where(at))
	}
	pointer, err := url.PathUnescape(s[1:])
	if err != nil {
		return "", fmt.Errorf("$ref %q at %s: %w", s, where(at), err)
	}
	target, ok := lookup(w.root, pointer)
	if !ok {
		return "", fmt.Errorf("$ref %q at %s refers to nothing in the schema", s, where(at))
	}
	switch target.(type) {
	case map[string]any, bool:
		return pointer, nil
	}
	return "", fmt.Errorf("$ref %q at %s refers to %s, not a schema", s, where(at), valueKind(target))
}

// lookup follows the JSON pointer (RFC 6901) from root.
func lookup(root any, pointer string) (any, bool) {
	if pointer == "" {
		return root, true
	}
	v := root
	for _, token := range strings.Split(pointer[1:], "/") {
		token = strings.NewReplacer("~1", "/", "~0", "~").Replace(token)
		switch x := v.(type) {
		case map[string]any:
			child, ok := x[token]
			if !ok {
				return nil, false
			}
			v = child
		case []any:
			var i int
			if _, err := fmt.Sscanf(token, "%d", &i); err != nil || i < 0 || i >= len(x) || fmt.Sprint(i) != token {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// escape writes a key as a JSON pointer token.
func escape(key string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(key)
}

// where names a location for a message: the root is "/".
func where(at string) string {
	if at == "" {
		return "/"
	}
	return at
}

// schemaTypes are the names JSON Schema's "type" takes.
var schemaTypes = map[string]bool{"null": true, "boolean": true, "object": true, "array": true, "number": true, "string": true, "integer": true}

// checkType checks one "type" value: a type name or a list of them.
func checkType(v any, at string) error {
	names, ok := v.([]any)
	if !ok {
		names = []any{v}
	}
	for _, n := range names {
		name, ok := n.(string)
		if !ok {
			return fmt.Errorf("type at %s is %s: want a JSON Schema type name", at, valueKind(n))
		}
		if !schemaTypes[name] {
			return fmt.Errorf("type %q at %s is not a JSON Schema type (want null, boolean, object, array, number, string or integer)", name, at)
		}
	}
	return nil
}

// valueKind names the kind of a decoded JSON value, with its article.
func valueKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	}
	return "an object"
}
