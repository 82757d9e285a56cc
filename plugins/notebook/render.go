package notebook

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"github.com/siftd/sift/plugins/sdk"
)

// renderer writes cells as markdown and counts what it cut.
type renderer struct {
	lang        string
	links       *sdk.Links
	b           strings.Builder
	cutOutputs  int
	images      int
	cellsCut    bool
	unknownCell int
}

func (r *renderer) render(ctx context.Context, cells []cell) string {
	for i, c := range cells {
		if i >= MaxCells {
			r.cellsCut = true
			break
		}
		if i%64 == 0 && ctx.Err() != nil {
			break
		}
		r.cell(c)
	}
	return strings.TrimSpace(r.b.String())
}

func (r *renderer) cell(c cell) {
	src := strings.TrimRight(string(c.Source), "\n")
	switch c.CellType {
	case "markdown":
		if strings.TrimSpace(src) != "" {
			r.collectLinks(src)
			r.b.WriteString(src + "\n\n")
		}
	case "code":
		if strings.TrimSpace(src) != "" {
			r.b.WriteString(fence(src, r.lang) + "\n\n")
		}
		if out := r.outputs(c.Outputs); out != "" {
			r.b.WriteString(fence(out, "text") + "\n\n")
		}
	case "raw":
		if strings.TrimSpace(src) != "" {
			r.b.WriteString(fence(src, "") + "\n\n")
		}
	default:
		r.unknownCell++
	}
}

// outputs joins a code cell's outputs as text, bounded: streams and
// text/plain as they are, errors as their name and value, images and
// other binary data by their type only.
func (r *renderer) outputs(outs []output) string {
	var b strings.Builder
	for _, o := range outs {
		switch o.OutputType {
		case "stream":
			b.WriteString(string(o.Text))
		case "execute_result", "display_data":
			b.WriteString(r.data(o.Data))
		case "error":
			fmt.Fprintf(&b, "%s: %s\n", o.EName, stripANSI(o.EValue))
		}
	}
	s := strings.TrimRight(b.String(), "\n")
	if cut, ok := sdk.Truncate(s, MaxOutputText); ok {
		r.cutOutputs++
		s = strings.TrimRight(cut, "\n") + fmt.Sprintf("\n… (output cut at %d of %d bytes)", len(cut), len(s))
	}
	return s
}

// data renders one rich output: its text/plain when it has one (a
// DataFrame's table, a plot's repr), and a note for each image.
func (r *renderer) data(data map[string]json.RawMessage) string {
	var b strings.Builder
	types := make([]string, 0, len(data))
	for t := range data {
		types = append(types, t)
	}
	sort.Strings(types)
	for _, t := range types {
		if strings.HasPrefix(t, "image/") {
			r.images++
			b.WriteString("[image output]\n")
		}
	}
	if raw, ok := data["text/plain"]; ok {
		var m multiline
		if err := json.Unmarshal(raw, &m); err == nil {
			b.WriteString(string(m) + "\n")
		}
	} else if b.Len() == 0 && len(types) > 0 {
		fmt.Fprintf(&b, "[%s output]\n", types[0])
	}
	return b.String()
}

// fence wraps code in a fence longer than any run of backticks in it.
func fence(code, lang string) string {
	longest := 0
	for _, run := range backticks.FindAllString(code, -1) {
		longest = max(longest, len(run))
	}
	f := strings.Repeat("`", max(3, longest+1))
	return f + lang + "\n" + code + "\n" + f
}

var (
	backticks = regexp.MustCompile("`+")
	ansi      = regexp.MustCompile(`\x1b\[[0-9;]*[A-Za-z]`)
)

func stripANSI(s string) string { return ansi.ReplaceAllString(s, "") }

// collectLinks adds the links of a markdown cell, found by goldmark's
// parser (inline, reference and autolinks alike).
func (r *renderer) collectLinks(src string) {
	source := []byte(src)
	doc := goldmark.DefaultParser().Parse(text.NewReader(source))
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch l := n.(type) {
		case *ast.Link:
			r.links.Add(string(l.Destination))
		case *ast.AutoLink:
			r.links.Add(string(l.URL(source)))
		}
		return ast.WalkContinue, nil
	})
}

// warnings name what was cut.
func (r *renderer) warnings(cells int) []string {
	var w []string
	if r.cellsCut {
		w = append(w, fmt.Sprintf("notebook cut at %d of %d cells", MaxCells, cells))
	}
	if r.cutOutputs > 0 {
		w = append(w, fmt.Sprintf("the outputs of %d cells cut at %d bytes", r.cutOutputs, MaxOutputText))
	}
	if r.unknownCell > 0 {
		w = append(w, fmt.Sprintf("%d cells of an unknown type left out", r.unknownCell))
	}
	if r.links.Dropped > 0 {
		w = append(w, fmt.Sprintf("%d links past the first %d left out of links", r.links.Dropped, sdk.MaxLinks))
	}
	return w
}
