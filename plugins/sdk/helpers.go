package sdk

import (
	"context"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// NoConfig can be embedded by a plugin that takes no configuration: it
// provides an empty Schema and a Configure that accepts the empty block.
type NoConfig struct{}

// Schema returns an empty schema.
func (NoConfig) Schema(context.Context) (Schema, error) { return Schema{}, nil }

// Configure accepts the empty configuration.
func (NoConfig) Configure(context.Context, json.RawMessage) (Diagnostics, error) { return nil, nil }

// Truncate cuts s to at most max bytes without splitting a UTF-8 sequence
// and reports whether it cut anything. A max of 0 or less means no limit.
func Truncate(s string, max int64) (string, bool) {
	if max <= 0 || int64(len(s)) <= max {
		return s, false
	}
	cut := int(max)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut], true
}

// CapOutput cuts s to maxOut bytes (def when maxOut is 0 or less) and
// returns the warning an agent should see when it did, or "".
func CapOutput(s string, maxOut, def int64) (string, string) {
	if maxOut <= 0 {
		maxOut = def
	}
	cut, truncated := Truncate(s, maxOut)
	if !truncated {
		return s, ""
	}
	return cut, fmt.Sprintf("output truncated at %d of %d bytes", len(cut), len(s))
}
