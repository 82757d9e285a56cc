// Command gen writes the configuration reference to the file it is given
// (go generate ./internal/configdoc writes docs/config.md).
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/siftd/sift/internal/configdoc"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gen FILE")
		os.Exit(2)
	}
	doc, err := configdoc.Render(context.Background())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.WriteFile(os.Args[1], []byte(doc), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
