// Command sift-html is sift's HTML extractor, run by sift as a plugin
// process. It ships as a binary of its own, beside sift's, because the
// extraction libraries it links (go-trafilatura's date parser above all)
// spend about 200 ms and 80 MB at every process start: sift's CLI and its
// other plugins no longer pay that.
package main

import (
	"github.com/siftd/sift/plugins/html"
	"github.com/siftd/sift/plugins/sdk"
)

func main() {
	sdk.Serve(sdk.ServeConfig{Extractor: html.New()})
}
