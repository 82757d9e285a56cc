// Package sdk is sift's public plugin protocol.
//
// A plugin is a separate program that sift starts and talks to over gRPC
// through hashicorp/go-plugin. An extractor turns a fetched document (HTML,
// JSON, a PDF, a CSV file …) into clean text or markdown; a digester condenses
// clean text around an agent's question.
//
// To write one, implement Extractor (or Digester) and call Serve from main:
//
//	func main() {
//		sdk.Serve(sdk.ServeConfig{Extractor: myExtractor{}})
//	}
//
// Serve must be the first thing main does that touches stdout: go-plugin's
// handshake line is written there.
//
// The protocol is versioned (ProtocolVersion). Within a version changes are
// additive only, announced through Info.Capabilities.
//
// This package imports nothing heavy (no database, no HTTP router), so a
// plugin binary stays small; a test in this package enforces that.
package sdk
