#!/usr/bin/env bash
# Runs the black-box SSRF suite inside the sealed network namespace of
# ../shared/ssrf/harness/netns-run.sh: only loopback, the fake DNS on
# 127.0.0.1:53, the test origin on the "public" and canary addresses.
# Needs root (CI is root). Fails loudly where namespaces are unavailable.
set -euo pipefail
cd "$(dirname "$0")/../.."
SSRF="$(cd ../shared/ssrf && pwd)"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

if [ "$(id -u)" != 0 ] || ! unshare --net true 2>/dev/null; then
  echo "e2e/ssrf: network namespaces are unavailable here (need root and unshare); FAILING rather than testing on the host network" >&2
  exit 1
fi

# ../shared is read-only: build the harness from a copy.
cp -r "$SSRF/dnsfake" "$SSRF/harness" "$WORK/"
(cd "$WORK/dnsfake" && go build -o "$WORK/bin/dnsfake" .)
(cd "$WORK/harness/origin" && go build -o "$WORK/bin/origin" .)
go build -o "$WORK/bin/" ./cmd/sift ./cmd/sift-html
go test -c -tags e2e -o "$WORK/bin/ssrf.test" ./e2e/ssrf/

# netns-run.sh finds dns_cases.json beside its own folder.
cp "$SSRF/corpus.json" "$SSRF/dns_cases.json" "$WORK/"
DNSFAKE="$WORK/bin/dnsfake" ORIGIN="$WORK/bin/origin" SIFT_HARNESS_WORK="$WORK/world" \
SIFT_BIN="$WORK/bin/sift" SIFT_SSRF_DIR="$WORK" \
  bash "$WORK/harness/netns-run.sh" "$WORK/bin/ssrf.test" -test.v -test.count=1 -test.timeout=10m
