// Command sift-csv is a complete third-party extractor plugin for sift: it
// turns text/csv into a markdown table. Copy this folder to start your own;
// README.md says how to build, pin, configure and call it.
//
// Build it, then declare it in sift's config.hcl with its path and hash:
//
//	go build -o sift-csv . && sha256sum sift-csv
//
//	extractor "csv" {
//	  command  = ["/usr/local/lib/sift/sift-csv"]
//	  sha256   = "<the hash sha256sum printed>"
//	  max_rows = 200
//	}
package main

import "github.com/siftd/sift/plugins/sdk"

func main() {
	sdk.Serve(sdk.ServeConfig{Extractor: &csvExtractor{maxRows: defaultMaxRows}})
}
