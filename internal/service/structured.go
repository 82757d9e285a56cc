package service

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/siftd/sift/internal/schemacheck"
	"github.com/siftd/sift/plugins/sdk"
)

// StructuredRequest asks for a page's content as JSON: under Schema (a
// JSON Schema; any JSON object when empty), guided by Prompt.
type StructuredRequest struct {
	Schema     json.RawMessage
	Prompt     string
	Content    string
	URL, Title string
}

// anyObject is the schema of a request that gives only a prompt.
const anyObject = `{"type":"object"}`

// StructuredJSON asks the digester for JSON under the request's schema
// from the page's clean content, and checks the answer against it. A
// failure is a warning and no JSON, never a failed request: the rest of
// the answer stands.
func (s *Service) StructuredJSON(ctx context.Context, req StructuredRequest) (json.RawMessage, string) {
	if s.digester == nil {
		return nil, "json format not produced: no digester (LLM) is configured"
	}
	schema := anyObject
	if HasSchema(req.Schema) {
		schema = string(req.Schema)
	}
	res, err := s.digester.Digest(ctx, &sdk.DigestRequest{
		Content: req.Content, Question: req.Prompt, URL: req.URL, Title: req.Title, JSONSchema: schema,
	})
	if err != nil {
		if de, ok := errors.AsType[*sdk.DocError](err); ok {
			return nil, "json format not produced: the digester failed: " + de.Class
		}
		return nil, "json format not produced: the digester failed"
	}
	answer := []byte(strings.TrimSpace(res.Digest))
	var v any
	if err := json.Unmarshal(answer, &v); err != nil {
		return nil, "json format not produced: the model's answer is not JSON"
	}
	rs, err := schemacheck.Parse(json.RawMessage(schema))
	if err != nil {
		return nil, "json format not produced: " + err.Error()
	}
	if err := s.validators.Validate(ctx, rs, v); err != nil {
		if errors.Is(err, schemacheck.ErrNoSlot) {
			return nil, "json format not produced: " + err.Error() + "; try again later"
		}
		if ctx.Err() != nil {
			return nil, "json format not produced: the request ended while the answer was being checked"
		}
		return nil, "json format not produced: the model's answer does not fit the schema: " + truncateReason(err.Error())
	}
	return json.RawMessage(answer), ""
}

// HasSchema reports whether raw holds a schema that constrains anything.
func HasSchema(raw json.RawMessage) bool {
	s := string(bytes.TrimSpace(raw))
	return s != "" && s != "null" && s != "{}"
}

// truncateReason keeps a validator's message short enough for a warning.
func truncateReason(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
