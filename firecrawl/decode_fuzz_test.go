package firecrawl

import (
	"bytes"
	"strings"
	"testing"

	"github.com/siftd/sift/internal/httpapi"
	"github.com/siftd/sift/internal/service"
)

// FuzzDecodeBody: no body, however malformed, panics the decoders of
// either API, and what they answer speaks of JSON, never of Go's types.
func FuzzDecodeBody(f *testing.F) {
	for _, seed := range []string{
		`{"url":"http://a/","links":"no"}`, `{"url":1}`, `[1]`, `{"url":"x"} {}`, `{"url":"x"}x`, ``, `null`,
		`{"formats":"markdown"}`, `{"formats":[{"type":"json","schema":"x"}]}`, `{"parsers":[{"maxPages":-1}]}`,
		`{"targets":[{"url":7}]}`, `{"max_tokens":1.5}`, `{"options":{"a":[1]}}`,
	} {
		f.Add([]byte(seed))
	}
	leaks := []string{"Go struct field", "Go value of type", "json: ", "server.", "firecrawl.", "httpapi.", "scrapeOptions", "schemaWithoutMethods"}
	f.Fuzz(func(t *testing.T, body []byte) {
		var messages []string
		var fr service.FetchRequest
		if be := httpapi.DecodeBody(body, &fr, true); be != nil {
			messages = append(messages, be.Error())
		}
		var bs struct { // a /v1/batch submission's shape
			Targets []service.FetchRequest `json:"targets"`
		}
		if be := httpapi.DecodeBody(body, &bs, true); be != nil {
			messages = append(messages, be.Error())
		}
		var sr scrapeRequest
		if _, ae := decodeFirecrawl(body, &sr, scrapeFields); ae != nil {
			messages = append(messages, ae.Message)
		} else if ae := sr.readJSONFormat(body); ae != nil {
			messages = append(messages, ae.Message)
		}
		for _, m := range messages {
			for _, leak := range leaks {
				if strings.Contains(m, leak) && !bytes.Contains(body, []byte(leak)) {
					t.Fatalf("%q answered %q", body, m)
				}
			}
		}
	})
}
