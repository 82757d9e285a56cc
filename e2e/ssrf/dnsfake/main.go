// Command dnsfake is an authoritative-only DNS server for the SSRF suite's
// harness (../harness/netns-run.sh). It answers A/AAAA/CNAME questions from
// testdata/ssrf/dns_cases.json, supports
// rebinding sequences, TC-bit truncation, NXDOMAIN/SERVFAIL/REFUSED and
// silent drops, and logs every query as a JSON line. It never recurses,
// never forwards, and only listens on loopback addresses.
//
//	dnsfake -zone testdata/ssrf/dns_cases.json -addr 127.0.0.1:5353
//	dig @127.0.0.1 -p 5353 public.sift.test A
//	dig @127.0.0.1 -p 5353 reset.control.sift.test TXT   # reset rebinding counters
//
// SIGHUP reloads the file and resets counters; SIGINT/SIGTERM stop it.
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/miekg/dns"
)

func main() {
	zonePath := flag.String("zone", "dns_cases.json", "path to dns_cases.json; several, comma-separated, make one zone")
	addr := flag.String("addr", "127.0.0.1:5353", "loopback address to listen on (UDP and TCP)")
	unknown := flag.String("unknown", "nxdomain", "answer for names not in the file: nxdomain | refused | servfail")
	logPath := flag.String("log", "-", "query log (JSON lines); '-' = stderr, '' = off")
	check := flag.Bool("check", false, "load the zone, print a summary and exit")
	flag.Parse()

	zonePaths := strings.Split(*zonePath, ",")
	z, err := LoadZone(zonePaths...)
	if err != nil {
		log.Fatal(err)
	}
	rc, ok := map[string]int{"nxdomain": dns.RcodeNameError, "refused": dns.RcodeRefused, "servfail": dns.RcodeServerFailure}[*unknown]
	if !ok {
		log.Fatalf("-unknown: %q not one of nxdomain, refused, servfail", *unknown)
	}
	z.Unknown = rc
	if *check {
		fmt.Printf("%s: %d names\n", *zonePath, z.Names())
		return
	}

	var logw io.Writer
	switch *logPath {
	case "":
	case "-":
		logw = os.Stderr
	default:
		f, err := os.OpenFile(*logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			log.Fatal(err)
		}
		defer f.Close()
		logw = f
	}

	s := &Server{Zone: z, Log: logw}
	bound, err := s.Start(*addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "dnsfake: %d names from %s on %s (udp+tcp)\n", z.Names(), *zonePath, bound)

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGHUP, syscall.SIGINT, syscall.SIGTERM)
	for s2 := range sig {
		if s2 != syscall.SIGHUP {
			break
		}
		nz, err := LoadZone(zonePaths...)
		if err != nil {
			fmt.Fprintf(os.Stderr, "dnsfake: reload failed, keeping old zone: %v\n", err)
			continue
		}
		nz.Unknown = rc
		s.Zone.mu.Lock()
		s.Zone.entries, s.Zone.counters = nz.entries, map[string]int{}
		s.Zone.mu.Unlock()
		fmt.Fprintf(os.Stderr, "dnsfake: reloaded %d names\n", nz.Names())
	}
	s.Shutdown()
}
