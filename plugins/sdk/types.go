package sdk

import (
	"context"
	"encoding/json"
)

// Extractor turns one document into clean content. Implementations must be
// safe for concurrent use: the host may send several calls to one process.
type Extractor interface {
	// Info names the plugin and the media types it handles.
	Info(ctx context.Context) (Info, error)
	// Schema lists the attributes the plugin accepts in its HCL block.
	Schema(ctx context.Context) (Schema, error)
	// Configure receives the decoded block as a JSON object. It is called
	// once per process, before any Extract. Problems with the configuration
	// are returned as diagnostics, not as an error.
	Configure(ctx context.Context, config json.RawMessage) (Diagnostics, error)
	// Extract converts one document. A document that cannot be converted
	// (malformed, unsupported, too large) is reported with a *DocError; any
	// other error means the plugin itself failed.
	Extract(ctx context.Context, req *ExtractRequest) (*ExtractResult, error)
}

// Digester condenses clean content around a question. The same rules as for
// Extractor apply: a *DocError is a result, any other error a failure.
type Digester interface {
	Info(ctx context.Context) (Info, error)
	Schema(ctx context.Context) (Schema, error)
	Configure(ctx context.Context, config json.RawMessage) (Diagnostics, error)
	Digest(ctx context.Context, req *DigestRequest) (*DigestResult, error)
}

// Info describes a plugin.
type Info struct {
	Name    string
	Version string
	// ContentTypes the plugin handles: exact ("text/html"), structured
	// suffix ("application/*+json") or wildcard ("text/*").
	ContentTypes []string
	// Capabilities announces optional protocol features and traits, such
	// as CapabilityCostly.
	Capabilities []string
	// Sniff claims documents of generic media types by their content,
	// such as feeds served as text/xml (see SniffRule).
	Sniff []SniffRule
	// Containers claim documents served with a generic media type
	// (application/octet-stream, application/zip, none) by their content:
	// a zip's entries or mimetype, a magic string (see ContainerRule).
	Containers []ContainerRule
	// MemoryPerBody is the memory a process needs per byte of the largest
	// body it may be sent, beyond BaseMemory (a parser that holds the
	// document and what it inflates to: 6 for office packages). sift then
	// gives a block that sets no memory BaseMemory and that many times
	// the fetch stage's max_body, and refuses to start one whose memory is
	// less, naming both. 0 declares nothing.
	MemoryPerBody float64
}

// BaseMemory is what a plugin process needs before any document: the Go
// runtime, gRPC and the plugin's code.
const BaseMemory = 96 << 20

// CapabilityCostly announces documents that are costly and may be hostile
// (PDFs): unless the block sets per_caller, the host then admits them
// without queueing, at most half the pool per caller, and lets requests
// for the same document share one extraction.
const CapabilityCostly = "costly"

// ExtractRequest is one document to extract.
type ExtractRequest struct {
	Body        []byte
	ContentType string
	// URL is the document's final URL, used to resolve relative links.
	URL string
	// Options are per-request knobs such as "json_path", "jq" or "pages".
	Options map[string]string
	// MaxOutputBytes bounds the returned content; 0 means the plugin's default.
	MaxOutputBytes int64
}

// Format names what ExtractResult.Content holds.
type Format string

// The formats an extractor may return.
const (
	FormatMarkdown Format = "markdown"
	FormatJSON     Format = "json"
	FormatText     Format = "text"
)

// ExtractResult is the clean form of a document.
type ExtractResult struct {
	Content  string
	Format   Format
	Title    string
	Metadata map[string]string
	// Warnings tell the agent what was changed or cut ("output truncated
	// at 1 MiB").
	Warnings []string
	// HTML is the content as HTML, when the request's OptionHTML asked for
	// it and the extractor renders HTML: the part of the document Content
	// was made from, links absolute. Empty otherwise.
	HTML string
	// Links are the document's links: absolute URLs, each once, in the
	// order the document gives them. Links collects them so. The host
	// keeps only absolute URLs and bounds their number and length.
	Links []string
}

// OptionHTML "true" asks an extractor that can for ExtractResult.HTML
// beside the content (Firecrawl's html format). Extractors that cannot
// ignore it.
const OptionHTML = "html"

// DigestRequest asks for a digest of clean content.
type DigestRequest struct {
	Content   string
	Question  string
	URL       string
	Title     string
	MaxTokens int64
	// JSONSchema, when set, is a JSON Schema's text: the digest is then one
	// JSON value the model was asked to make valid against it (structured
	// extraction), and Question says what to extract.
	JSONSchema string
}

// DigestResult is a digest and what the digester wants the agent to know.
type DigestResult struct {
	Digest   string
	Warnings []string
}
