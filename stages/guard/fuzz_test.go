package guard

import "testing"

// FuzzPreCheck: no input panics the parser, and an allowed URL stays
// allowed, with the same host and port, when its canonical form is checked
// again: what the guard vetted is what fetch will request.
func FuzzPreCheck(f *testing.F) {
	for _, seed := range []string{
		"http://example.com/", "https://[2606:4700:4700::1111]:443/a?b#c", "http://0x7f.1/",
		"http://ｌｏｃａｌｈｏｓｔ/", "http://example。com/", "http://a@b/", "http://[::ffff:1.2.3.4]/",
		"http://xn--bcher-kva.de./", "http://example.com:0080/", "ftp://x/",
	} {
		f.Add(seed)
	}
	p := DefaultPolicy()
	f.Fuzz(func(t *testing.T, raw string) {
		target, err := p.PreCheck(raw)
		if err != nil {
			return
		}
		again, err := p.PreCheck(target.URL.String())
		if err != nil {
			t.Fatalf("%q allowed, but its canonical form %q is refused: %v", raw, target.URL, err)
		}
		if again.Host != target.Host || again.Port != target.Port {
			t.Fatalf("%q: host %s:%d, canonical form gives %s:%d", raw, target.Host, target.Port, again.Host, again.Port)
		}
	})
}
