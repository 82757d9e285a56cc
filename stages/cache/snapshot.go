package cache

import (
	"encoding/json"

	"github.com/siftd/sift/stages"
)

// snap is what a cache keeps of a Doc: what the stages up to its position
// produced.
type snap struct {
	Response   *stages.Response    `json:"response"`
	Extraction *stages.Extraction  `json:"extraction,omitempty"`
	Digest     string              `json:"digest,omitempty"`
	Context    []stages.ContextHit `json:"context,omitempty"`
	Warnings   []string            `json:"warnings,omitempty"`
}

func snapshot(doc *stages.Doc) ([]byte, error) {
	return json.Marshal(snap{Response: doc.Response, Extraction: doc.Extraction, Digest: doc.Digest,
		Context: doc.Context, Warnings: doc.Warnings})
}

func restore(doc *stages.Doc, data []byte) error {
	var s snap
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	doc.Response, doc.Extraction, doc.Digest, doc.Context = s.Response, s.Extraction, s.Digest, s.Context
	doc.Warnings = append(doc.Warnings, s.Warnings...)
	return nil
}
