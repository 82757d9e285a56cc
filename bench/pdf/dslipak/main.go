// Command dslipak prints a PDF's text as github.com/dslipak/pdf reads it
// (rows of words, pages separated by form feeds), so that score.py can set
// it beside sift's PDFium engine file by file (plugins/pdf/README.md). It is
// its own module: sift does not link dslipak/pdf.
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/dslipak/pdf"
)

func main() {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintln(os.Stderr, "error:", r)
			os.Exit(1)
		}
	}()
	r, err := pdf.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
	var pages []string
	for i := 1; i <= r.NumPage(); i++ {
		p := r.Page(i)
		if p.V.IsNull() {
			pages = append(pages, "")
			continue
		}
		var b strings.Builder
		rows, err := p.GetTextByRow()
		if err != nil {
			pages = append(pages, "")
			continue
		}
		for _, row := range rows {
			for j, w := range row.Content {
				if j > 0 {
					b.WriteString(" ")
				}
				b.WriteString(w.S)
			}
			b.WriteString("\n")
		}
		pages = append(pages, b.String())
	}
	fmt.Print(strings.Join(pages, "\f"))
}
