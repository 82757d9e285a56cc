package sdk

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// CheckOptions checks a request's options against the declared ones: every
// name must be declared and every value must fit its option's type and
// limits. It returns nil, or a DocError of class bad_option naming every
// option that does not, and the options the plugin takes.
func (s Schema) CheckOptions(opts map[string]string) error {
	var problems []string
	for _, name := range slices.Sorted(maps.Keys(opts)) {
		i := slices.IndexFunc(s.Options, func(o Option) bool { return o.Name == name })
		if i < 0 {
			problems = append(problems, fmt.Sprintf("%q is not an option of this extractor", name))
			continue
		}
		if err := s.Options[i].Check(opts[name]); err != nil {
			problems = append(problems, err.Error())
		}
	}
	if len(problems) == 0 {
		return nil
	}
	return BadOption("%s (%s)", strings.Join(problems, "; "), s.takes())
}

// takes lists the declared options for an error message.
func (s Schema) takes() string {
	if len(s.Options) == 0 {
		return "it takes no options"
	}
	names := make([]string, len(s.Options))
	for i, o := range s.Options {
		names[i] = o.Name + " (" + string(o.Type) + ")"
	}
	return "it takes " + strings.Join(names, ", ")
}

// Check reports whether value fits the option's type and limits.
func (o Option) Check(value string) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%s %q: %s", o.Name, value, fmt.Sprintf(format, args...))
	}
	if len(o.Values) > 0 && !slices.Contains(o.Values, value) {
		return bad("want one of %s", strings.Join(o.Values, ", "))
	}
	switch o.Type {
	case TypeString:
		if o.MaxLength > 0 && int64(len(value)) > o.MaxLength {
			return bad("longer than %d bytes", o.MaxLength)
		}
	case TypeBool:
		if value != "true" && value != "false" {
			return bad("want true or false")
		}
	case TypeInteger, TypeNumber:
		n, err := strconv.ParseFloat(value, 64)
		whole := o.Type == TypeInteger
		if err != nil || math.IsInf(n, 0) || math.IsNaN(n) || whole && n != math.Trunc(n) {
			if whole {
				return bad("want an integer")
			}
			return bad("want a number")
		}
		if o.Min != nil && n < *o.Min {
			return bad("below the minimum, %s", strconv.FormatFloat(*o.Min, 'g', -1, 64))
		}
		if o.Max != nil && n > *o.Max {
			return bad("above the maximum, %s", strconv.FormatFloat(*o.Max, 'g', -1, 64))
		}
	default:
		return fmt.Errorf("option %s has type %q, which options cannot take", o.Name, o.Type)
	}
	return nil
}
