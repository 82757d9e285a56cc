// Package loadtest is what the pipeline's benchmarks and bounds tests
// drive sift with and measure it by: a news article served on several
// loopback addresses at once, so that fetches spread over hosts as an
// agent's do; a caller's request; the CPU time a process spent.
package loadtest

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Article is a news article of about 40 KB: navigation, the story,
// a sidebar of teasers and a footer.
func Article() []byte {
	var b bytes.Buffer
	b.WriteString(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Water rights in the valley</title>` +
		`<meta name="description" content="How the valley shares its river"><style>` + strings.Repeat(".c{margin:0 auto;padding:1em}", 80) + `</style></head><body>`)
	b.WriteString(`<header><nav><ul>`)
	for i := range 60 {
		fmt.Fprintf(&b, `<li><a href="/section/%d">Section %d</a></li>`, i, i)
	}
	b.WriteString(`</ul></nav></header><main><article><h1>Water rights in the valley</h1><p class="byline">By A. Reporter</p>`)
	for i := range 90 {
		if i%12 == 0 {
			fmt.Fprintf(&b, `<h2>Part %d: the ditch company's ledger</h2>`, i/12+1)
		}
		fmt.Fprintf(&b, `<p>In the spring of year %d the ditch riders opened the headgates at dawn, and the farmers downstream `+
			`measured what reached them against what the ledger promised; paragraph %d of the story follows the water from the `+
			`diversion dam to the last field, where <a href="/people/%d">a grower</a> kept her own records.</p>`, 1900+i, i, i)
	}
	b.WriteString(`</article><aside><h3>More from the valley</h3><ul>`)
	for i := range 40 {
		fmt.Fprintf(&b, `<li><a href="/story/%d"><img src="/img/%d.jpg" alt="">Teaser headline number %d about the river</a></li>`, i, i, i)
	}
	b.WriteString(`</ul></aside></main><footer>`)
	for i := range 30 {
		fmt.Fprintf(&b, `<a href="/about/%d">Footer link %d</a> `, i, i)
	}
	b.WriteString(`<p>© The Valley Paper</p></footer></body></html>`)
	return b.Bytes()
}

// Serve serves page on 127.0.0.1 … 127.0.0.hosts, all on one port (a
// guard admits one), until tb's cleanup, and returns the server of the
// first address and the base URLs of all.
func Serve(tb testing.TB, page []byte, hosts int) (*httptest.Server, []string) {
	tb.Helper()
	handler := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(page)
	})
	for range 5 {
		first, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			tb.Fatal(err)
		}
		port := first.Addr().(*net.TCPAddr).Port
		var others []net.Listener
		for i := 2; i <= hosts; i++ {
			ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.%d:%d", i, port))
			if err != nil {
				break
			}
			others = append(others, ln)
		}
		if len(others) < hosts-1 {
			first.Close()
			for _, ln := range others {
				ln.Close()
			}
			continue // the port was taken on another address: try another
		}
		origin := httptest.NewUnstartedServer(handler)
		origin.Listener.Close()
		origin.Listener = first
		origin.Start()
		rest := &http.Server{Handler: handler}
		for _, ln := range others {
			go func() { _ = rest.Serve(ln) }()
		}
		tb.Cleanup(func() { origin.Close(); _ = rest.Close() })
		var urls []string
		for i := 1; i <= hosts; i++ {
			urls = append(urls, fmt.Sprintf("http://127.0.0.%d:%d", i, port))
		}
		return origin, urls
	}
	tb.Fatal("no port free on every loopback address")
	return nil, nil
}
