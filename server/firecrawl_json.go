package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/siftd/sift/internal/service"
)

// jsonOptions are what the `json` format asks for: a JSON Schema the
// answer must fit and/or a prompt saying what to extract. Firecrawl v2
// gives them in the format object ({"type": "json", "schema", "prompt"});
// v1 gave them as jsonOptions, which sift reads too.
type jsonOptions struct {
	Schema json.RawMessage `json:"schema,omitempty"`
	Prompt string          `json:"prompt,omitempty"`
}

// maxSchemaBytes bounds a json format's schema: it goes into the model's
// prompt and becomes a grammar.
const maxSchemaBytes = 16 << 10

// readJSONFormat takes the schema and prompt of a {"type": "json"} format
// out of raw, the object that holds the formats list, and checks them.
func (o *scrapeOptions) readJSONFormat(raw []byte) *apiError {
	var body struct {
		Formats []json.RawMessage `json:"formats"`
	}
	_ = json.Unmarshal(raw, &body) // the formats decoded already
	field := "jsonOptions.schema"
	for i, f := range body.Formats {
		var obj struct {
			Type string `json:"type"`
			jsonOptions
		}
		if json.Unmarshal(f, &obj) == nil && obj.Type == "json" {
			o.JSONOptions, field = &obj.jsonOptions, fmt.Sprintf("formats[%d].schema", i)
		}
	}
	jo := o.JSONOptions
	if jo == nil {
		return nil
	}
	if len(jo.Schema) > maxSchemaBytes {
		return badField(field, fmt.Sprintf("the schema is %d bytes, at most %d", len(jo.Schema), maxSchemaBytes))
	}
	if !service.HasSchema(jo.Schema) {
		return nil
	}
	if err := checkSchema(jo.Schema); err != nil {
		return badField(field, err.Error())
	}
	if err := resolveSchema(jo.Schema); err != nil {
		return badField(field, err.Error())
	}
	return nil
}

// schemaTypes are the names JSON Schema's "type" takes.
var schemaTypes = map[string]bool{"null": true, "boolean": true, "object": true, "array": true, "number": true, "string": true, "integer": true}

// schemaValues are the keywords whose values are data, not schemas: a
// "type" inside them is the data's own.
var schemaValues = map[string]bool{"enum": true, "const": true, "default": true, "examples": true, "example": true}

// checkSchema says, in JSON terms, what makes raw no JSON Schema the model
// could be held to: not an object, or a "type" that names no JSON type.
func checkSchema(raw json.RawMessage) error {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	if _, ok := v.(map[string]any); !ok {
		return fmt.Errorf("want a JSON Schema object, not %s", jsonValueKind(v))
	}
	return checkTypes(v, "")
}

// checkTypes checks every "type" keyword of the schema v at path.
func checkTypes(v any, path string) error {
	switch x := v.(type) {
	case map[string]any:
		for key, val := range x {
			at := path + "/" + key
			switch {
			case schemaValues[key]:
				continue
			case key == "type":
				if err := checkType(val, at); err != nil {
					return err
				}
				continue
			}
			if err := checkTypes(val, at); err != nil {
				return err
			}
		}
	case []any:
		for i, val := range x {
			if err := checkTypes(val, fmt.Sprintf("%s/%d", path, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkType checks one "type" value: a type name or a list of them. A
// value of another kind is a property named "type", not the keyword.
func checkType(v any, at string) error {
	names, ok := v.([]any)
	if !ok {
		names = []any{v}
	}
	for _, n := range names {
		name, ok := n.(string)
		if !ok {
			if _, isObject := v.(map[string]any); isObject {
				return checkTypes(v, at) // a property named "type"
			}
			return fmt.Errorf("type at %s is %s: want a JSON Schema type name", at, jsonValueKind(n))
		}
		if !schemaTypes[name] {
			return fmt.Errorf("type %q at %s is not a JSON Schema type (want null, boolean, object, array, number, string or integer)", name, at)
		}
	}
	return nil
}

// jsonValueKind names the kind of a decoded JSON value, with its article.
func jsonValueKind(v any) string {
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

// resolveSchema says, in JSON's terms, why raw is no JSON Schema.
func resolveSchema(raw json.RawMessage) error {
	if err := json.Unmarshal(raw, new(jsonschema.Schema)); err != nil {
		return errors.New("not a JSON Schema: " + strings.TrimPrefix(describeDecodeError(err).Error(), "field "))
	}
	_, err := service.ResolveSchema(raw)
	return err
}

// addJSON fills data's json from the page's clean content, or warns why
// it cannot.
func (s *Server) addJSON(ctx context.Context, req *scrapeRequest, res *service.Result, data *scrapeDoc) {
	content := ""
	if ex := res.Doc.Extraction; ex != nil {
		content = ex.Content
	}
	jo := req.JSONOptions
	if jo == nil {
		jo = &jsonOptions{}
	}
	out, warning := s.svc.StructuredJSON(ctx, service.StructuredRequest{Schema: jo.Schema, Prompt: jo.Prompt,
		Content: content, URL: data.Metadata.URL, Title: data.Metadata.Title})
	if warning != "" {
		data.Warning = joinWarnings(data.Warning, warning)
		return
	}
	data.JSON = out
}

func joinWarnings(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
