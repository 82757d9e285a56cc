package html

import (
	"compress/gzip"
	"io"
	"os"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func TestTmp4020(t *testing.T) {
	for _, id := range []string{"4020", "0384", "4486", "4271", "4503", "0526", "0631", "2878"} {
		f, _ := os.Open("../../../shared/bench/extract/data/wcxb-dev/html/" + id + ".html.gz")
		z, _ := gzip.NewReader(f)
		body, _ := io.ReadAll(z)
		root, _ := parse(body, "text/html")
		revealStreamed(root)
		// count text removed per hidden element
		var walk func(n *html.Node)
		walk = func(n *html.Node) {
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.ElementNode && isHidden(c) {
					w := len(strings.Fields(textOf(c)))
					if w > 150 {
						var attrs []string
						for _, a := range c.Attr {
							attrs = append(attrs, a.Key+"="+a.Val[:min(60, len(a.Val))])
						}
						t.Log(id, c.Data, w, attrs)
					}
					continue
				}
				walk(c)
			}
		}
		walk(root)
	}
}
