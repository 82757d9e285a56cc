#!/usr/bin/env bash
# Runs the black-box SSRF suite inside the sealed network namespace of
# e2e/ssrf/harness/netns-run.sh: only loopback, the fake DNS (e2e/ssrf/dnsfake)
# on 127.0.0.1:53, the test origin (e2e/ssrf/origin) on the "public" and
# canary addresses, the cases of testdata/ssrf.
# Needs root (CI is root). Fails loudly where namespaces are unavailable.
set -euo pipefail
cd "$(dirname "$0")/../.."
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

if [ "$(id -u)" != 0 ] || ! unshare --net true 2>/dev/null; then
  echo "e2e/ssrf: network namespaces are unavailable here (need root and unshare); FAILING rather than testing on the host network" >&2
  exit 1
fi
for tool in ip curl; do
  command -v "$tool" >/dev/null || { echo "e2e/ssrf: needs $tool: apt-get install iproute2 curl" >&2; exit 1; }
done

go build -o "$WORK/bin/" ./cmd/sift ./cmd/sift-html ./e2e/ssrf/dnsfake ./e2e/ssrf/origin
go test -c -tags e2e -o "$WORK/bin/ssrf.test" ./e2e/ssrf/

CASES="$PWD/testdata/ssrf"
DNSFAKE="$WORK/bin/dnsfake" ORIGIN="$WORK/bin/origin" SIFT_HARNESS_WORK="$WORK/world" \
SIFT_SSRF_CASES="$CASES/dns_cases.json,$CASES/sift_dns.json" SIFT_BIN="$WORK/bin/sift" SIFT_SSRF_DIR="$CASES" \
  bash e2e/ssrf/harness/netns-run.sh "$WORK/bin/ssrf.test" -test.v -test.count=1 -test.timeout=10m
