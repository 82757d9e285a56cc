package sdk

import "strings"

// AttrType is the type of a schema attribute.
type AttrType string

// The attribute types a plugin schema may use.
const (
	TypeString     AttrType = "string"
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
}

// Schema lists a plugin's attributes. The host decodes the operator's HCL
// against it, so diagnostics keep their file and line.
type Schema struct {
	Attributes []Attribute
}

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
