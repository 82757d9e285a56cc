// Command origin is the loopback test origin for the SSRF suite's harness.
//
// It must run inside the harness network namespace (../harness/netns-run.sh),
// where the "public" test addresses and a set of forbidden canary addresses
// (127.0.0.1, 10.0.0.5, 169.254.169.254, 100.100.100.100, ...) are all bound
// on lo. It listens on every local address, ports 80 and 443 (TLS, harness
// CA), plus the proxy canaries 3128 and 1080, and:
//
//   - serves the redirect chains and connect-stage behaviours of dns_cases.json;
//   - logs every request as a JSON line, with the local address it arrived on;
//   - counts "canary hits": any request or connection that arrived on a
//     non-public local address, or on a proxy port. A correct sift run ends
//     with zero canary hits (GET http://127.0.0.1:9999/canaries from the
//     harness, which is not itself a canary).
//
// It refuses to start if the machine has a default route (i.e. outside the
// namespace), so a misconfigured run cannot send traffic anywhere.
package main

import (
	"bytes"
	"compress/gzip"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"flag"
	"fmt"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

type hop struct {
	Status    int     `json:"status"`
	Location  *string `json:"location"`
	SetCookie string  `json:"set_cookie"`
	Refresh   string  `json:"refresh"`
}

type chain struct {
	ID    string `json:"id"`
	Start string `json:"start"`
	Hops  []hop  `json:"hops"`
	Loop  bool   `json:"loop"`
}

type doc struct {
	PublicTestAddresses []string `json:"public_test_addresses"`
	CanaryAddresses     []string `json:"canary_addresses"`
	RedirectChains      []chain  `json:"redirect_chains"`
}

// recorder logs every request and counts the canary hits.
type recorder struct {
	public map[netip.Addr]bool // the public test addresses; any other local address is a canary
	hits   atomic.Int64
	mu     sync.Mutex
	out    io.Writer
}

func (rec *recorder) log(v any) {
	b, _ := json.Marshal(v)
	rec.mu.Lock()
	defer rec.mu.Unlock()
	_, _ = rec.out.Write(append(b, '\n'))
}

// origin serves the redirect chains and the connect-stage behaviours.
type origin struct {
	byPath map[string]chain
	bomb   func() []byte // one gzip member inflating to 64 MiB of zeros, made on first use
}

func localAddr(r *http.Request) netip.Addr {
	if a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
		if ap, err := netip.ParseAddrPort(a.String()); err == nil {
			return ap.Addr().Unmap()
		}
	}
	return netip.Addr{}
}

func main() {
	cases := flag.String("cases", "testdata/ssrf/dns_cases.json", "dns_cases.json; several, comma-separated, are read as one")
	caOut := flag.String("ca-out", "harness-ca.pem", "write the harness CA certificate here (give it to sift as SSL_CERT_FILE)")
	control := flag.String("control", "127.0.0.1:9999", "control listener (canary count, log); not a canary")
	force := flag.Bool("i-am-in-a-netns", false, "skip the default-route check (tests only)")
	blackhole := flag.String("blackhole", "93.184.216.35", "IPv4 address whose SYNs go unanswered (backlog-0 listener, pre-filled); '' = none")
	listPublic := flag.Bool("list-public", false, "print the public test addresses, one a line, and exit (the harness binds them)")
	listCanaries := flag.Bool("list-canaries", false, "print the files' canary addresses, one a line, and exit (the harness binds them)")
	flag.Parse()

	if *listPublic || *listCanaries {
		d, err := readCases(*cases)
		if err != nil {
			log.Fatal(err)
		}
		list := d.PublicTestAddresses
		if *listCanaries {
			list = d.CanaryAddresses
		}
		fmt.Println(strings.Join(list, "\n"))
		return
	}

	if !*force {
		if b, err := os.ReadFile("/proc/net/route"); err == nil && hasDefaultRoute(string(b)) {
			log.Fatal("origin: this namespace has a default route; run me via netns-run.sh")
		}
	}
	d, err := readCases(*cases)
	if err != nil {
		log.Fatal(err)
	}
	rec := &recorder{public: map[netip.Addr]bool{}, out: os.Stdout}
	for _, s := range d.PublicTestAddresses {
		rec.public[netip.MustParseAddr(s)] = true
	}
	byPath := map[string]chain{}
	for _, c := range d.RedirectChains {
		u, err := url.Parse(c.Start)
		if err != nil {
			log.Fatalf("chain %s: %v", c.ID, err)
		}
		if _, dup := byPath[u.Path]; dup {
			log.Fatalf("chain %s: path %s served twice", c.ID, u.Path)
		}
		byPath[u.Path] = c
	}

	tlsCfg, caPEM := makeTLS(d.PublicTestAddresses)
	if err := os.WriteFile(*caOut, caPEM, 0o644); err != nil {
		log.Fatal(err)
	}

	mux := http.NewServeMux()
	o := &origin{byPath: byPath, bomb: sync.OnceValue(gzipMember)}
	mux.HandleFunc("/", o.serve)
	h := rec.middleware(mux)

	// One listener per local address (not a wildcard), so that the blackhole
	// address can have its own backlog-0 socket on the same port.
	locals, err := localAddrs(*blackhole)
	if err != nil {
		log.Fatal(err)
	}
	for _, a := range locals {
		go listen("tcp", netip.AddrPortFrom(a, 80).String(), func(l net.Listener) error { return (&http.Server{Handler: h}).Serve(l) })
		go listen("tcp", netip.AddrPortFrom(a, 443).String(), func(l net.Listener) error {
			return (&http.Server{Handler: h, TLSConfig: tlsCfg}).Serve(tls.NewListener(l, tlsCfg))
		})
	}
	if *blackhole != "" {
		for _, port := range []int{80, 443} {
			if err := blackholeListen(*blackhole, port); err != nil {
				log.Fatalf("blackhole %s:%d: %v", *blackhole, port, err)
			}
		}
	}
	for _, p := range []string{":3128", ":1080"} {
		go listen("tcp", p, func(l net.Listener) error {
			for {
				c, err := l.Accept()
				if err != nil {
					return err
				}
				rec.hits.Add(1)
				rec.log(map[string]any{"canary": "proxy", "local": c.LocalAddr().String(), "remote": c.RemoteAddr().String()})
				c.Close()
			}
		})
	}
	ctl := http.NewServeMux()
	ctl.HandleFunc("/canaries", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, rec.hits.Load()) })
	ctl.HandleFunc("/reset", func(w http.ResponseWriter, _ *http.Request) { rec.hits.Store(0); fmt.Fprintln(w, "ok") })
	log.Printf("origin: serving %d chains; CA in %s; control on %s", len(byPath), *caOut, *control)
	log.Fatal(http.ListenAndServe(*control, ctl))
}

// readCases reads a comma-separated list of files in the dns_cases.json
// format as one: their lists are joined.
func readCases(paths string) (doc, error) {
	var all doc
	for _, path := range strings.Split(paths, ",") {
		var d doc
		raw, err := os.ReadFile(path)
		if err != nil {
			return all, err
		}
		if err := json.Unmarshal(raw, &d); err != nil {
			return all, fmt.Errorf("%s: %w", path, err)
		}
		all.PublicTestAddresses = append(all.PublicTestAddresses, d.PublicTestAddresses...)
		all.CanaryAddresses = append(all.CanaryAddresses, d.CanaryAddresses...)
		all.RedirectChains = append(all.RedirectChains, d.RedirectChains...)
	}
	return all, nil
}

// localAddrs lists every address on every interface (in the harness netns:
// lo with the public and canary addresses), except the blackhole.
func localAddrs(skip string) ([]netip.Addr, error) {
	ifs, err := net.InterfaceAddrs()
	if err != nil {
		return nil, err
	}
	var out []netip.Addr
	for _, ia := range ifs {
		p, err := netip.ParsePrefix(ia.String())
		if err != nil || p.Addr().String() == skip || (p.Addr().Is6() && p.Addr().IsLinkLocalUnicast()) {
			continue
		}
		out = append(out, p.Addr())
	}
	return out, nil
}

// blackholeListen binds addr:port with a backlog of 0 and fills it with one
// connection that is never accepted: later SYNs get no answer, so clients see
// a connect timeout (checked under gVisor and Linux netns).
func blackholeListen(addr string, port int) error {
	ip := netip.MustParseAddr(addr)
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		return err
	}
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Port: port, Addr: ip.As4()}); err != nil {
		return err
	}
	if err := syscall.Listen(fd, 0); err != nil {
		return err
	}
	_, err = net.DialTimeout("tcp", netip.AddrPortFrom(ip, uint16(port)).String(), time.Second)
	return err // the filler connection is kept open for the life of the process
}

func hasDefaultRoute(procNetRoute string) bool {
	for _, line := range strings.Split(procNetRoute, "\n")[1:] {
		f := strings.Fields(line)
		if len(f) > 2 && f[1] == "00000000" && f[0] != "lo" {
			return true
		}
	}
	return false
}

func listen(network, addr string, serve func(net.Listener) error) {
	l, err := net.Listen(network, addr)
	if err != nil {
		log.Fatal(err)
	}
	log.Fatal(serve(l))
}

// middleware logs every request and counts the ones that arrived on a
// local address that is not in public_test_addresses.
func (rec *recorder) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		la := localAddr(r)
		canary := !rec.public[la]
		if canary {
			rec.hits.Add(1)
		}
		sni := ""
		if r.TLS != nil {
			sni = r.TLS.ServerName
		}
		rec.log(map[string]any{"time": time.Now().UTC().Format(time.RFC3339Nano), "canary": canary, "local": la.String(),
			"remote": r.RemoteAddr, "host": r.Host, "sni": sni, "method": r.Method, "path": r.URL.Path, "headers": r.Header})
		next.ServeHTTP(w, r)
	})
}

func (o *origin) serve(w http.ResponseWriter, r *http.Request) {
	switch p := r.URL.Path; {
	case p == "/echo":
		w.Header().Set("Content-Type", "application/json")
		sni := ""
		if r.TLS != nil {
			sni = r.TLS.ServerName
		}
		json.NewEncoder(w).Encode(map[string]any{"host": r.Host, "sni": sni, "local": localAddr(r).String(), "remote": r.RemoteAddr, "headers": r.Header})
	case p == "/landing" || p == "/":
		fmt.Fprintln(w, "landing")
	case p == "/bomb.gz":
		gzipBomb(w, 10<<30, o.bomb)
	case p == "/big.gz":
		gzipBomb(w, 6<<20, o.bomb)
	case p == "/6mib":
		w.Header().Set("Content-Length", strconv.Itoa(6<<20))
		w.Write(bytes.Repeat([]byte("a"), 6<<20))
	case p == "/5mb":
		w.Header().Set("Content-Length", "5000000")
		w.Write(bytes.Repeat([]byte("a"), 5_000_000))
	case p == "/liar":
		liar(w)
	case p == "/drip":
		drip(w, r)
	case p == "/slowhead":
		select {
		case <-time.After(60 * time.Second):
		case <-r.Context().Done():
		}
	default:
		o.redirect(w, r)
	}
}

// redirect serves chain hops. The start path is hop 0; "/<start>/<n>" is hop n.
func (o *origin) redirect(w http.ResponseWriter, r *http.Request) {
	path, n := r.URL.Path, 0
	c, ok := o.byPath[path]
	if !ok {
		if i := strings.LastIndex(path, "/"); i > 0 {
			if k, err := strconv.Atoi(path[i+1:]); err == nil {
				c, ok, n = o.byPath[path[:i]], o.byPath[path[:i]].ID != "", k
			}
		}
	}
	if !ok {
		http.NotFound(w, r)
		return
	}
	if c.Loop {
		n = 0
	}
	if n >= len(c.Hops) {
		fmt.Fprintf(w, "final %s after %d hops\n", c.ID, n)
		return
	}
	h := c.Hops[n]
	if h.SetCookie != "" {
		w.Header().Add("Set-Cookie", h.SetCookie)
	}
	if h.Refresh != "" {
		w.Header().Set("Refresh", h.Refresh)
	}
	if h.Location != nil {
		w.Header().Set("Location", *h.Location) // verbatim: no normalisation of attack strings
	}
	w.WriteHeader(h.Status)
	fmt.Fprintf(w, "hop %d of %s\n", n, c.ID)
}

// bombChunk is what one gzip member of the bomb inflates to.
const bombChunk = 64 << 20

// gzipMember is one gzip member inflating to bombChunk zeros.
func gzipMember() []byte {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	zw.Write(make([]byte, bombChunk))
	zw.Close()
	return b.Bytes()
}

// gzipBomb streams concatenated gzip members (Go's gzip.Reader is
// multistream) inflating to about inflated bytes.
func gzipBomb(w http.ResponseWriter, inflated int64, member func() []byte) {
	const chunk = bombChunk
	w.Header().Set("Content-Encoding", "gzip")
	w.Header().Set("Content-Type", "application/octet-stream")
	if inflated < chunk {
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		zw.Write(bytes.Repeat([]byte("a"), int(inflated)))
		zw.Close()
		w.Write(b.Bytes())
		return
	}
	for sent := int64(0); sent < inflated; sent += chunk {
		if _, err := w.Write(member()); err != nil {
			return
		}
	}
}

func liar(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		http.Error(w, "no hijack", 500)
		return
	}
	c, buf, err := hj.Hijack()
	if err != nil {
		return
	}
	defer c.Close()
	// Declares 100 bytes, then keeps writing well past it before closing.
	buf.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 100\r\nConnection: close\r\n\r\n")
	buf.Write(bytes.Repeat([]byte("b"), 6<<20))
	buf.Flush()
}

func drip(w http.ResponseWriter, r *http.Request) {
	f, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", "text/plain")
	for {
		if _, err := w.Write([]byte("x")); err != nil {
			return
		}
		if f != nil {
			f.Flush()
		}
		select {
		case <-time.After(time.Second):
		case <-r.Context().Done():
			return
		}
	}
}

// makeTLS creates a throw-away CA and one leaf for the harness names and the
// public test addresses. wrongcert.sift.test is deliberately not covered.
func makeTLS(ips []string) (*tls.Config, []byte) {
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "sift harness CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true}
	caDER, _ := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	ca, _ := x509.ParseCertificate(caDER)

	leafKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	leafTmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "public.sift.test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames: []string{"public.sift.test", "dual.sift.test", "v6.sift.test", "redir.sift.test", "allowed.sift.test",
			"rebind.sift.test", "rebind-alt.sift.test", "xn--bcher-kva.sift.test", "cname-public.sift.test",
			"example.com", "xn--bcher-kva.de"}}
	for _, s := range ips {
		leafTmpl.IPAddresses = append(leafTmpl.IPAddresses, net.ParseIP(s))
	}
	leafDER, _ := x509.CreateCertificate(rand.Reader, leafTmpl, ca, &leafKey.PublicKey, caKey)
	cert := tls.Certificate{Certificate: [][]byte{leafDER, caDER}, PrivateKey: leafKey}
	caPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER})
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, caPEM
}
