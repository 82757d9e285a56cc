// Package visibility tells which elements of an HTML page a reader cannot
// see, from what the page itself says of its looks: inline styles, the
// rules of its own <style>s (their at-rules and nested rules written
// out, selectors matched with cascadia) and the custom properties both
// set. Text hidden from readers is where pages write instructions for
// the agents that read them, so the html plugin removes what this
// package finds before it extracts the content.
//
// It reads no stylesheet the page links: an element a linked stylesheet
// may paint is believed visible, and only a page whose whole CSS is its
// own is read as a browser would read it (backdrop.go, sheetcolour.go).
// Colours are compared as a reader tells them apart, whatever space CSS
// writes them in (colour.go, colourfuncs.go, colourmix.go). What it
// cannot see is named in docs/security.md.
package visibility
