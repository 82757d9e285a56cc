package fetch

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/siftd/sift/guard"
	"github.com/siftd/sift/stages"
)

// origin is a loopback test server; the guard admits loopback only for
// the ports the test servers listen on.
type origin struct {
	srv  *httptest.Server
	hits atomic.Int32
}

func newOrigin(t *testing.T, tlsOn bool, h http.HandlerFunc) *origin {
	t.Helper()
	o := &origin{}
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		o.hits.Add(1)
		h(w, r)
	})
	if tlsOn {
		o.srv = httptest.NewTLSServer(handler)
	} else {
		o.srv = httptest.NewServer(handler)
	}
	t.Cleanup(o.srv.Close)
	return o
}

func (o *origin) port() int {
	return int(netip.MustParseAddrPort(o.srv.Listener.Addr().String()).Port())
}

// newStage builds a fetch stage whose guard admits 127.0.0.0/8 on the
// given origins' ports, trusting their test certificates.
func newStage(t *testing.T, cfg Config, origins ...*origin) *Stage {
	t.Helper()
	p := guard.DefaultPolicy()
	p.AllowCIDRs = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	pool := x509.NewCertPool()
	for _, o := range origins {
		p.AllowPorts = append(p.AllowPorts, o.port())
		if o.srv.TLS != nil {
			pool.AddCert(o.srv.Certificate())
		}
	}
	s := &Stage{cfg: cfg, client: newClient(cfg, guard.NewChecker(p, net.DefaultResolver), "sift/test")}
	s.client.transport.TLSClientConfig = &tls.Config{RootCAs: pool}
	return s
}

func defaults() Config {
	return Config{Timeout: 5 * time.Second, MaxBody: 1 << 20, MaxHeader: DefaultMaxHeader}
}

func run(t *testing.T, s *Stage, rawURL string) (*stages.Doc, error) {
	t.Helper()
	target, err := s.client.guard.Vet(context.Background(), rawURL)
	if err != nil {
		t.Fatalf("vet %s: %v", rawURL, err)
	}
	doc := &stages.Doc{Target: target}
	return doc, s.Run(context.Background(), doc)
}

func TestFetchPage(t *testing.T) {
	var got http.Header
	o := newOrigin(t, false, func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Clone()
		http.SetCookie(w, &http.Cookie{Name: "session", Value: "x"})
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<p>hello</p>")
	})
	doc, err := run(t, newStage(t, defaults(), o), o.srv.URL+"/page")
	if err != nil {
		t.Fatal(err)
	}
	r := doc.Response
	if r.Status != 200 || string(r.Body) != "<p>hello</p>" || r.ContentType != "text/html; charset=utf-8" || r.FinalURL != o.srv.URL+"/page" {
		t.Fatalf("response %+v", r)
	}
	if r.Header.Get("Set-Cookie") != "" {
		t.Error("Set-Cookie kept in the response headers")
	}
	if got.Get("User-Agent") != "sift/test" || got.Get("Cookie") != "" || got.Get("Authorization") != "" {
		t.Errorf("request headers %v", got)
	}
}

func TestRedirects(t *testing.T) {
	final := newOrigin(t, false, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "landed")
	})
	hops := newOrigin(t, false, func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/hop/"))
		switch {
		case r.URL.Path == "/private":
			http.Redirect(w, r, "http://10.0.0.5/", http.StatusFound)
		case r.URL.Path == "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		case r.URL.Path == "/backslash":
			w.Header().Set("Location", `/\evil`)
			w.WriteHeader(http.StatusFound)
		case n > 0:
			http.Redirect(w, r, fmt.Sprintf("/hop/%d", n-1), http.StatusMovedPermanently)
		default:
			http.Redirect(w, r, final.srv.URL+"/end", http.StatusTemporaryRedirect)
		}
	})
	s := newStage(t, defaults(), hops, final)
	tests := []struct {
		path    string
		want    string
		wantErr error
	}{
		{path: "/hop/4", want: "landed"}, // four hops, then the fifth redirect to the other origin
		{path: "/hop/5", wantErr: ErrRedirects},
		{path: "/loop", wantErr: ErrRedirects},
		{path: "/private", wantErr: guard.ErrBlocked},
		{path: "/backslash", wantErr: guard.ErrBlocked},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			doc, err := run(t, s, hops.srv.URL+tc.path)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("err = %v, want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil || string(doc.Response.Body) != tc.want || doc.Response.FinalURL != final.srv.URL+"/end" {
				t.Fatalf("err %v, response %+v", err, doc.Response)
			}
		})
	}
	if err := errText(run(t, s, hops.srv.URL+"/private")); !strings.HasPrefix(err, "blocked: private address 10.0.0.5") {
		t.Errorf("refusal %q does not name the address", err)
	}
}

func errText(_ *stages.Doc, err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestHTTPSDowngradeRefused(t *testing.T) {
	plain := newOrigin(t, false, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "plain") })
	secure := newOrigin(t, true, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, plain.srv.URL+"/", http.StatusFound)
	})
	_, err := run(t, newStage(t, defaults(), plain, secure), secure.srv.URL+"/")
	if !errors.Is(err, guard.ErrBlocked) || !strings.Contains(err.Error(), "https to http") {
		t.Fatalf("err = %v", err)
	}
	if plain.hits.Load() != 0 {
		t.Fatal("the http origin was contacted after a downgrade")
	}
}

func TestWrongCertificate(t *testing.T) {
	secure := newOrigin(t, true, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "x") })
	s := newStage(t, defaults(), secure)
	s.client.transport.TLSClientConfig = &tls.Config{RootCAs: x509.NewCertPool()} // trusts nothing
	if _, err := run(t, s, secure.srv.URL+"/"); !errors.Is(err, ErrUpstream) || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("err = %v", err)
	}
}

func gzipped(t *testing.T, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	zw.Close()
	return buf.Bytes()
}

func TestBodyLimits(t *testing.T) {
	const capBytes = 1 << 20
	bomb := gzipped(t, make([]byte, 64<<20)) // 64 MiB of zeros, about 64 KiB on the wire
	twoMembers := append(gzipped(t, []byte("first ")), gzipped(t, []byte("second"))...)
	o := newOrigin(t, false, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/exact":
			w.Write(bytes.Repeat([]byte("a"), capBytes))
		case "/over":
			w.Write(bytes.Repeat([]byte("a"), capBytes+1))
		case "/bomb":
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(bomb)
		case "/members":
			w.Header().Set("Content-Encoding", "gzip")
			w.Header().Set("Content-Type", "text/plain")
			w.Write(twoMembers)
		case "/lying-length":
			w.Header().Set("Content-Length", "100")
			w.Write([]byte("short"))
		case "/pdf-as-html":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj"))
		}
	})
	s := newStage(t, Config{Timeout: 5 * time.Second, MaxBody: capBytes, MaxHeader: DefaultMaxHeader}, o)
	tests := []struct {
		path    string
		wantErr error
		want    string
	}{
		{path: "/exact"},
		{path: "/over", wantErr: ErrTooLarge},
		{path: "/bomb", wantErr: ErrTooLarge},
		{path: "/members", want: "first second"},
		{path: "/lying-length", wantErr: ErrUpstream},
		{path: "/pdf-as-html", wantErr: ErrContentType},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			doc, err := run(t, s, o.srv.URL+tc.path)
			if !errors.Is(err, tc.wantErr) || err != nil && tc.wantErr == nil {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
			if tc.want != "" && string(doc.Response.Body) != tc.want {
				t.Fatalf("body %q, want %q", doc.Response.Body, tc.want)
			}
		})
	}
}

func TestTimeouts(t *testing.T) {
	release := make(chan struct{})
	o := newOrigin(t, false, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/drip" {
			w.WriteHeader(200)
			for { // until the test ends: only the timeout ends the fetch
				w.Write([]byte("x"))
				w.(http.Flusher).Flush()
				select {
				case <-release:
					return
				case <-time.After(50 * time.Millisecond):
				}
			}
		}
		<-release // never answers
	})
	// Registered after the server's Close, so it runs first and frees the
	// handlers Close waits for.
	t.Cleanup(func() { close(release) })
	s := newStage(t, Config{Timeout: 300 * time.Millisecond, MaxBody: 1 << 20, MaxHeader: DefaultMaxHeader}, o)
	for _, path := range []string{"/silent", "/drip"} {
		start := time.Now()
		_, err := run(t, s, o.srv.URL+path)
		if !errors.Is(err, ErrTimeout) {
			t.Fatalf("%s: err = %v, want ErrTimeout", path, err)
		}
		if elapsed := time.Since(start); elapsed > 20*time.Second {
			t.Fatalf("%s: took %s with a 300ms timeout", path, elapsed)
		}
		if !strings.Contains(err.Error(), "within 300ms") {
			t.Errorf("%s: %v, want the stage's timeout named", path, err)
		}
	}
	// A request deadline before the stage's timeout is the one named.
	target, err := s.client.guard.Vet(context.Background(), o.srv.URL+"/silent")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	err = s.Run(ctx, &stages.Doc{Target: target})
	if !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), "before the request's deadline") {
		t.Errorf("under a shorter request deadline: %v", err)
	}
}

func TestHeaderCap(t *testing.T) {
	o := newOrigin(t, false, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Big", strings.Repeat("h", 8<<10))
		fmt.Fprint(w, "x")
	})
	s := newStage(t, Config{Timeout: 5 * time.Second, MaxBody: 1 << 20, MaxHeader: 4 << 10}, o)
	if _, err := run(t, s, o.srv.URL+"/"); !errors.Is(err, ErrUpstream) {
		t.Fatalf("err = %v", err)
	}
}

// TestContentLengthLies: a server that declares 100 bytes and streams 6 MiB
// is refused, not answered with 100 bytes as if they were the page; honest
// responses over kept-alive connections still pass.
func TestContentLengthLies(t *testing.T) {
	o := newOrigin(t, false, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/liar" {
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, strings.Repeat("honest ", 100))
			return
		}
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		defer conn.Close()
		buf.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 100\r\nConnection: close\r\n\r\n")
		buf.Write(bytes.Repeat([]byte("b"), 6<<20))
		buf.Flush()
	})
	s := newStage(t, defaults(), o)
	for i := 0; i < 3; i++ {
		if _, err := run(t, s, o.srv.URL+"/honest"); err != nil {
			t.Fatalf("honest response %d: %v", i, err)
		}
	}
	if _, err := run(t, s, o.srv.URL+"/liar"); !errors.Is(err, ErrUpstream) || !strings.Contains(err.Error(), "more than its Content-Length") {
		t.Fatalf("err = %v", err)
	}
}

// A document served with a generic type (or none) reaches routing with
// its body whole, where container rules recognise it; only a body that
// contradicts a textual type is refused.
func TestGenericTypesReachRouting(t *testing.T) {
	zipBody := append([]byte("PK\x03\x04\x14\x00"), bytes.Repeat([]byte{0}, 200)...)
	pdfBody := []byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n")
	for _, tc := range []struct {
		name, header string
		body         []byte
		want         string // the content type fetch reports; "" for a refusal
	}{
		{"octet-stream", "application/octet-stream", zipBody, "application/octet-stream"},
		{"binary/octet-stream", "binary/octet-stream", zipBody, "binary/octet-stream"},
		{"application/zip", "application/zip", zipBody, "application/zip"},
		{"no type: sniffed", "-", zipBody, "application/zip"},
		{"a pdf as octet-stream", "application/octet-stream", pdfBody, "application/octet-stream"},
		{"a zip that claims to be text", "text/plain", zipBody, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := newOrigin(t, false, func(w http.ResponseWriter, r *http.Request) {
				if tc.header == "-" {
					w.Header()["Content-Type"] = nil // net/http would sniff one
				} else {
					w.Header().Set("Content-Type", tc.header)
				}
				_, _ = w.Write(tc.body)
			})
			doc, err := run(t, newStage(t, defaults(), o), o.srv.URL+"/file")
			if tc.want == "" {
				if !errors.Is(err, ErrContentType) {
					t.Fatalf("err %v, want ErrContentType", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if doc.Response.ContentType != tc.want || !bytes.Equal(doc.Response.Body, tc.body) {
				t.Fatalf("content type %q (want %q), body of %d bytes (want %d)", doc.Response.ContentType, tc.want, len(doc.Response.Body), len(tc.body))
			}
		})
	}
}
