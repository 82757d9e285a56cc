package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"sync"
	"testing"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/internal/service"
	"github.com/siftd/sift/internal/testkit/dnstest"
)

// Spellings of one host share one gate key: the guard's canonical host.
func TestHostOfCanonical(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ a, b string }{
		{"http://pub.example./", "http://pub.example/"},
		{"http://PUB.Example.:8080/x", "https://pub.example/y"},
		{"http://bücher.example/", "http://xn--bcher-kva.example/"},
		{"http://ｐｕｂ.example/", "http://pub.example/"},
		{"http://pub。example/", "http://pub.example/"},
		{"http://[0:0::1]/", "http://[::1]/"},
		{"http://[2001:DB8::1]/", "http://[2001:db8:0:0::1]/"},
	} {
		if ka, kb := service.HostOf(tc.a), service.HostOf(tc.b); ka != kb {
			t.Errorf("HostOf(%s) = %q, HostOf(%s) = %q: want one key", tc.a, ka, tc.b, kb)
		}
	}
	if service.HostOf("http://pub.example/") == service.HostOf("http://pub.example.net/") {
		t.Error("two hosts share a key")
	}
}

// TestGatesCanonicalHost: while a caller fetches pub.sift.test, its fetch
// of "PUB.sift.test." is the same host's second fetch and, with no wait
// allowed, gets 429.
func TestGatesCanonicalHost(t *testing.T) {
	t.Parallel()
	entered, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		once.Do(func() { close(entered) })
		<-release
		fmt.Fprint(w, "done")
	}))
	defer slow.Close()
	port := netip.MustParseAddrPort(slow.Listener.Addr().String()).Port()
	srv := newTestServer(t, slow, testOptions{GateConfig: &config.Gates{Queue: config.DefaultGateQueue}, resolver: dnstest.Resolver(t, map[string]string{"pub.sift.test": "127.0.0.1"})})
	defer close(release)
	go func() {
		_, _ = post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": fmt.Sprintf("http://pub.sift.test:%d/a", port), "mode": "raw"})
	}()
	<-entered
	resp, body := post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": fmt.Sprintf("http://PUB.sift.test.:%d/b", port)})
	if resp.StatusCode != http.StatusTooManyRequests || body["hint"] != "retry_after" {
		t.Fatalf("second fetch of the same host, spelled with a trailing dot: %d %v", resp.StatusCode, body)
	}
}
