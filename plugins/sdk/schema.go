package sdk

import "strings"

// AttrType is the type of a schema attribute.
type AttrType string

// The attribute types a plugin schema may use. Options take all but
// TypeStringList.
const (
	TypeString AttrType = "string"
	// TypeInteger is a whole number; the host refuses 2.5 with a
	// diagnostic on its line, and it reaches Configure as a JSON integer.
	TypeInteger    AttrType = "integer"
	TypeNumber     AttrType = "number"
	TypeBool       AttrType = "bool"
	TypeStringList AttrType = "list(string)"
)

// Attribute is one attribute of a plugin's HCL block.
type Attribute struct {
	Name        string
	Type        AttrType
	Required    bool
	Description string
	// Env marks a string attribute whose value names an environment
	// variable of sift's that the plugin's processes then receive: an API
	// key stays out of the configuration file, and a plugin gets only the
	// variables its block names (api_key_env = "OPENAI_API_KEY").
	Env bool
}

// Schema lists a plugin's attributes and per-request options. The host
// decodes the operator's HCL against Attributes, so diagnostics keep their
// file and line, and checks every request's options against Options.
type Schema struct {
	Attributes []Attribute
	Options    []Option
}

// Option is one per-request option: what an agent may pass with a request
// (`options` of /v1/fetch, `siftOptions` of a Firecrawl scrape, `-o` of
// sift extract). The host refuses a request whose option is not declared,
// or whose value breaks Type or the limits, with ClassBadOption before the
// plugin sees it; the plugin receives the value as a string in
// ExtractRequest.Options.
type Option struct {
	Name string
	// Type is TypeString, TypeInteger, TypeNumber or TypeBool.
	Type        AttrType
	Description string
	// Min and Max bound an integer or a number, inclusively, when set.
	Min, Max *float64
	// MaxLength bounds a string's length in bytes; 0 for no limit.
	MaxLength int64
	// Values, when set, are the only values accepted.
	Values []string
}

// Bound returns a pointer to v, for Option.Min and Option.Max.
func Bound(v float64) *float64 { return &v }

// Severity of a Diagnostic.
type Severity int

// Diagnostic severities.
const (
	SeverityError Severity = iota + 1
	SeverityWarning
)

// Diagnostic is one problem found in a plugin's configuration. Attribute
// names the attribute it concerns, if any, so the host can point at its line.
type Diagnostic struct {
	Severity  Severity
	Summary   string
	Detail    string
	Attribute string
}

// Diagnostics is a list of problems, reported all at once.
type Diagnostics []Diagnostic

// HasErrors reports whether any diagnostic is an error.
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == SeverityError {
			return true
		}
	}
	return false
}

// Error joins the summaries of the errors; it is meant for logs.
func (ds Diagnostics) Error() string {
	var parts []string
	for _, d := range ds {
		if d.Severity == SeverityError {
			parts = append(parts, d.Summary)
		}
	}
	return strings.Join(parts, "; ")
}
