package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/siftd/sift/internal/service"
	"github.com/siftd/sift/plugins/sdk"
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
	for _, f := range body.Formats {
		var obj struct {
			Type string `json:"type"`
			jsonOptions
		}
		if json.Unmarshal(f, &obj) == nil && obj.Type == "json" {
			o.JSONOptions = &obj.jsonOptions
		}
	}
	jo := o.JSONOptions
	if jo == nil {
		return nil
	}
	if len(jo.Schema) > maxSchemaBytes {
		return badField("formats", fmt.Sprintf("the json format's schema is %d bytes, at most %d", len(jo.Schema), maxSchemaBytes))
	}
	if hasSchema(jo.Schema) {
		if _, err := resolveSchema(jo.Schema); err != nil {
			return badField("formats", "the json format's schema: "+err.Error())
		}
	}
	return nil
}

func hasSchema(raw json.RawMessage) bool {
	s := string(bytes.TrimSpace(raw))
	return s != "" && s != "null" && s != "{}"
}

func resolveSchema(raw json.RawMessage) (*jsonschema.Resolved, error) {
	var sch jsonschema.Schema
	if err := json.Unmarshal(raw, &sch); err != nil {
		return nil, fmt.Errorf("not a JSON Schema: %w", err)
	}
	return sch.Resolve(nil)
}

// structuredJSON is the `json` format: the digester asked for JSON under
// the schema (or any JSON object, given only a prompt) from the page's
// clean content, and the answer checked against the schema. Any failure is
// a warning and no json, never a failed scrape: the rest of the document
// stands.
func (s *Server) structuredJSON(ctx context.Context, jo *jsonOptions, doc *scrapeDoc, content string) (json.RawMessage, string) {
	if s.digester == nil {
		return nil, "json format not produced: no digester (LLM) is configured"
	}
	if jo == nil {
		jo = &jsonOptions{}
	}
	schema := `{"type":"object"}`
	if hasSchema(jo.Schema) {
		schema = string(jo.Schema)
	}
	res, err := s.digester.Digest(ctx, &sdk.DigestRequest{
		Content: content, Question: jo.Prompt, URL: doc.Metadata.URL, Title: doc.Metadata.Title, JSONSchema: schema,
	})
	if err != nil {
		var de *sdk.DocError
		if errors.As(err, &de) {
			return nil, "json format not produced: the digester failed: " + de.Class
		}
		return nil, "json format not produced: the digester failed"
	}
	answer := []byte(strings.TrimSpace(res.Digest))
	var v any
	if err := json.Unmarshal(answer, &v); err != nil {
		return nil, "json format not produced: the model's answer is not JSON"
	}
	rs, err := resolveSchema(json.RawMessage(schema))
	if err != nil {
		return nil, "json format not produced: " + err.Error()
	}
	if err := rs.Validate(v); err != nil {
		return nil, "json format not produced: the model's answer does not fit the schema: " + truncateReason(err.Error())
	}
	return json.RawMessage(answer), ""
}

// truncateReason keeps a validator's message short enough for a warning.
func truncateReason(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// addJSON fills data's json from the page's clean content, or warns why
// it cannot.
func (s *Server) addJSON(ctx context.Context, req *scrapeRequest, res *service.Result, data *scrapeDoc) {
	content := ""
	if ex := res.Doc.Extraction; ex != nil {
		content = ex.Content
	}
	out, warning := s.structuredJSON(ctx, req.JSONOptions, data, content)
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
