package csv

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/siftd/sift/plugins/sdk"
)

// BenchmarkExtract renders a 5 MiB CSV of ten columns (the default
// max_body); the table is cut at the output cap and the rest only counted.
func BenchmarkExtract(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("id,name,city,zip,amount,date,flag,note,code,ref\n")
	for i := 0; sb.Len() < 5<<20; i++ {
		fmt.Fprintf(&sb, "%d,Name %d,\"City, %d\",%05d,%d.%02d,2024-01-%02d,%t,\"a \"\"quoted\"\" note\",C%d,R%d\n",
			i, i, i%97, i%100000, i, i%100, i%28+1, i%2 == 0, i, i)
	}
	body := []byte(sb.String())
	e := New()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if _, err := e.Extract(context.Background(), &sdk.ExtractRequest{Body: body, ContentType: "text/csv"}); err != nil {
			b.Fatal(err)
		}
	}
}
