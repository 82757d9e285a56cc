package focus

import (
	"sort"
	"strings"

	"github.com/siftd/sift/tokens"
)

// markerCost is what a Marker and the blank lines around it cost.
var markerCost = tokens.Count("\n\n" + Marker + "\n\n")

// selection is the set of parts kept so far and what they cost.
type selection struct {
	sp       Split
	partCost []int
	ctxCost  []int
	kept     map[int]bool
	paidCtx  map[int]bool
	spent    int
}

func newSelection(sp Split) *selection {
	s := &selection{sp: sp, partCost: make([]int, len(sp.Parts)), ctxCost: make([]int, len(sp.Context)),
		kept: map[int]bool{}, paidCtx: map[int]bool{}}
	for i, p := range sp.Parts {
		s.partCost[i] = tokens.Count(p.Text) + 1
	}
	for i, c := range sp.Context {
		s.ctxCost[i] = tokens.Count(c) + 1
	}
	return s
}

// add keeps part i if it fits the budget with its unpaid headings and a
// marker, and reports whether it did.
func (s *selection) add(i, budget int) bool {
	cost := s.partCost[i] + markerCost
	for _, c := range s.sp.Parts[i].Path {
		if !s.paidCtx[c] {
			cost += s.ctxCost[c]
		}
	}
	if s.spent+cost > budget {
		return false
	}
	s.spent += cost
	s.kept[i] = true
	for _, c := range s.sp.Parts[i].Path {
		s.paidCtx[c] = true
	}
	return true
}

// drop leaves out the kept part that comes last in order, for when the
// rendered text counts over the estimate.
func (s *selection) drop(order []int) {
	for j := len(order) - 1; j >= 0; j-- {
		if s.kept[order[j]] {
			delete(s.kept, order[j])
			return
		}
	}
}

// render writes the kept parts in page order, each under the headings of
// its path not yet written, with Marker for every run of parts left out.
// Rows of one table stay together under its header.
func (s *selection) render() string {
	idx := make([]int, 0, len(s.kept))
	for i := range s.kept {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	var b strings.Builder
	sep := func(tight bool) {
		switch {
		case b.Len() == 0:
		case tight:
			b.WriteString("\n")
		default:
			b.WriteString("\n\n")
		}
	}
	written := map[int]bool{}
	next := 0
	for _, i := range idx {
		p := s.sp.Parts[i]
		if i > next {
			sep(false)
			b.WriteString(Marker)
		}
		fresh := false
		for _, c := range p.Path {
			if !written[c] {
				written[c], fresh = true, true
				sep(false)
				b.WriteString(s.sp.Context[c])
			}
		}
		// A table row follows its header or the row before it directly.
		tight := p.Kind == TableRow && (fresh || (i == next && i > 0 && s.sp.Parts[i-1].Kind == TableRow))
		if p.Cont && i == next && !fresh && b.Len() > 0 {
			b.WriteString(" ") // the paragraph the part before began
		} else {
			sep(tight)
		}
		b.WriteString(p.Text)
		next = i + 1
	}
	if next < len(s.sp.Parts) {
		sep(false)
		b.WriteString(Marker)
	}
	return b.String()
}
