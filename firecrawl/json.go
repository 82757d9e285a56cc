package firecrawl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/siftd/sift/internal/httpapi"
	"github.com/siftd/sift/internal/schemacheck"
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

// readJSONFormat takes the schema and prompt of a {"type": "json"} format
// out of raw, the object that holds the formats list, and checks them.
func (o *scrapeOptions) readJSONFormat(raw []byte) *service.Error {
	var body struct {
		Formats []json.RawMessage `json:"formats"`
	}
	_ = json.Unmarshal(raw, &body) // the formats decoded already
	if ae := o.readFormatObjects(body.Formats); ae != nil {
		return ae
	}
	field := o.readJSONObjects(body.Formats)
	jo := o.JSONOptions
	if jo == nil {
		return nil
	}
	if !service.HasSchema(jo.Schema) {
		return nil
	}
	if _, err := schemacheck.Parse(jo.Schema); err != nil {
		if de, ok := errors.AsType[*schemacheck.DecodeError](err); ok {
			return badField(field, "not a JSON Schema: "+strings.TrimPrefix(httpapi.DescribeDecodeError(de.Err).Error(), "field "))
		}
		return badField(field, err.Error())
	}
	return nil
}

// readJSONObjects takes the json format's schema and prompt from its
// format object, the first if there are several (as on Firecrawl; the
// others are named in a warning), else from jsonOptions (v1's form), and
// returns the field the schema came from. jsonOptions beside a json format
// object, or without the json format at all, is named in a warning too.
func (o *scrapeOptions) readJSONObjects(formats []json.RawMessage) string {
	field, first := "jsonOptions.schema", -1
	for i, f := range formats {
		var obj struct {
			Type string `json:"type"`
			jsonOptions
		}
		if json.Unmarshal(f, &obj) != nil || obj.Type != "json" {
			continue
		}
		if first >= 0 {
			o.Warnings = append(o.Warnings, fmt.Sprintf("not applied: formats[%d] (json): a scrape answers one json format, the first (formats[%d])", i, first))
			continue
		}
		if o.JSONOptions != nil {
			o.Warnings = append(o.Warnings, fmt.Sprintf("not applied: jsonOptions (formats[%d], the json format object, gives the schema and prompt)", i))
		}
		first, o.JSONOptions, field = i, &obj.jsonOptions, fmt.Sprintf("formats[%d].schema", i)
	}
	if o.JSONOptions != nil && !slices.Contains(o.Formats, "json") {
		o.Warnings = append(o.Warnings, `not applied: jsonOptions (no json format asks for it: add "json" to formats)`)
		o.JSONOptions = nil
	}
	return field
}

// addJSON fills data's json from the page's clean content, or warns why
// it cannot.
func (a *API) addJSON(ctx context.Context, req *scrapeRequest, res *service.Result, data *scrapeDoc) {
	content := ""
	if ex := res.Doc.Extraction; ex != nil {
		content = ex.Content
	}
	jo := req.JSONOptions
	if jo == nil {
		jo = &jsonOptions{}
	}
	out, warning := a.svc.StructuredJSON(ctx, service.StructuredRequest{Schema: jo.Schema, Prompt: jo.Prompt,
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
