package visibility

import "strings"

// CSS nesting writes a rule inside another (".a { & .b { display: none }
// }", ".a { .b { … } }"), which every current browser reads as ".a .b";
// ruleSpans reads rules at the top level only, so an instruction hidden
// by a nested rule was read. nestedRules writes each nested rule out as
// the top-level rule it stands for, in a stylesheet of their own that
// follows the page's.

const (
	// maxNesting bounds how deep nested rules are written out with their
	// parents' selectors (nestedSelector).
	maxNesting = 8
	// maxNestedSelector bounds a written-out selector's length: each
	// level repeats its parent's.
	maxNestedSelector = 1024
)

// nestedRules returns the nested style rules of a stylesheet (its at-rules
// that apply on every screen already unwrapped) as top-level rules, or "".
func nestedRules(sheet string) string {
	if strings.Count(sheet, "{") < 2 {
		return ""
	}
	type frame struct {
		selector string // "" for an at-rule's block, or one too long or deep
		nested   bool
		decls    strings.Builder // a nested rule's declarations
	}
	var out strings.Builder
	var stack []*frame
	from := 0 // where the text of the innermost open block resumes
	for i := 0; i < len(sheet); i++ {
		switch sheet[i] {
		case '{':
			start := strings.LastIndexAny(sheet[:i], "{};") + 1
			prelude := strings.TrimSpace(sheet[start:i])
			f := &frame{}
			if len(stack) > 0 {
				parent := stack[len(stack)-1]
				if parent.nested {
					parent.decls.WriteString(sheet[from:start])
				}
				if parent.selector != "" && !strings.HasPrefix(prelude, "@") {
					f.selector, f.nested = nestedSelector(parent.selector, prelude, len(stack)), true
				}
			} else if !strings.HasPrefix(prelude, "@") {
				f.selector = prelude
			}
			stack = append(stack, f)
			from = i + 1
		case '}':
			if len(stack) == 0 {
				from = i + 1
				continue
			}
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if f.nested && f.selector != "" {
				// Only a nested rule's declarations are kept: a page's
				// top-level rules are most of its stylesheets.
				f.decls.WriteString(sheet[from:i])
				out.WriteString(f.selector + "{" + f.decls.String() + "}\n")
			}
			from = i + 1
		}
	}
	return out.String()
}

// nestedSelector is nestSelector for a rule nested depth rules deep; past
// maxNesting, or past maxNestedSelector written out, the rule stands on
// its own, "&" for any element: it selects every element the page's rule
// selects, and more, so that nesting deeper than sift follows hides no
// more from it than from a browser.
func nestedSelector(parent, nested string, depth int) string {
	if depth < maxNesting {
		if sel := nestSelector(parent, nested); sel != "" {
			return sel
		}
	}
	return strings.ReplaceAll(nested, "&", "*")
}

// nestSelector writes a nested rule's selector list as the top-level
// selector list it stands for: "&" is the parent, and a selector without
// one is the parent's descendant (or its child or sibling, after a
// combinator). A parent list stands in :is(); "" when the result is too
// long.
func nestSelector(parent, nested string) string {
	if strings.Contains(parent, ",") {
		parent = ":is(" + parent + ")"
	}
	var parts []string
	for _, part := range strings.Split(nested, ",") {
		part = strings.TrimSpace(part)
		switch {
		case part == "":
			return ""
		case strings.Contains(part, "&"):
			part = strings.ReplaceAll(part, "&", parent)
		default:
			part = parent + " " + part
		}
		parts = append(parts, part)
	}
	joined := strings.Join(parts, ", ")
	if len(joined) > maxNestedSelector {
		return ""
	}
	return joined
}
