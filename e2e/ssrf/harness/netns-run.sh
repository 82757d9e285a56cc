#!/usr/bin/env bash
# netns-run.sh -- run a command inside a throw-away network+mount namespace
# that has no route off the machine, with the SSRF test world inside it
# (e2e/ssrf/run.sh builds the programs and calls this):
#
#   * only `lo` exists, and the script refuses to go on if a default route or
#     another interface is visible;
#   * the "public" test addresses of the cases file (testdata/ssrf/dns_cases.json)
#     are bound on lo, so allowed
#     fetches complete locally;
#   * forbidden canary addresses (RFC 1918, metadata, tailnet, NAT64/6to4
#     embeddings, ...) are bound on lo too, so a policy failure shows up as a
#     canary hit in the origin instead of a timeout;
#   * /etc/resolv.conf -> 127.0.0.1 (dnsfake on :53, no search list) and
#     /etc/hosts -> a harness copy, via bind mounts private to the namespace;
#   * dnsfake and the test origin are started; SSL_CERT_FILE points at the
#     harness CA.
#
# Usage, as root:
#   DNSFAKE=path/to/dnsfake ORIGIN=path/to/origin [SIFT_SSRF_CASES=dns_cases.json] \
#   [SIFT_HARNESS_WORK=dir] e2e/ssrf/harness/netns-run.sh <command> [args...]
# Exit status: the command's status, or 3 if the origin saw any canary hit.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# SIFT_SSRF_CASES: one file in the dns_cases.json format, or several,
# comma-separated, served as one world.
CASES=
IFS=, read -ra case_files <<<"${SIFT_SSRF_CASES:-$HERE/../../../testdata/ssrf/dns_cases.json}"
for f in "${case_files[@]}"; do
  CASES="${CASES:+$CASES,}$(cd "$(dirname "$f")" && pwd)/$(basename "$f")"
done
: "${DNSFAKE:?set DNSFAKE to the dnsfake binary (go build ./e2e/ssrf/dnsfake)}"
: "${ORIGIN:?set ORIGIN to the origin binary (go build ./e2e/ssrf/origin)}"

if [ -z "${SIFT_NETNS_INNER:-}" ]; then
  exec unshare --net --mount --propagation private env SIFT_NETNS_INNER=1 "$0" "$@"
fi

ip link set lo up
if [ -n "$(ip route show default)" ] || [ -n "$(ip -6 route show default)" ]; then
  echo "netns-run: default route present; refusing" >&2; exit 1
fi
if [ "$(ip -o link show | wc -l)" != "1" ]; then
  echo "netns-run: interfaces other than lo present; refusing" >&2; exit 1
fi

WORK="${SIFT_HARNESS_WORK:-${TMPDIR:-/tmp}/sift-netns-work}"
rm -rf "$WORK" && mkdir -p "$WORK"

# Public test addresses (allowed by sift), as the cases file lists them.
PUBLIC="$("$ORIGIN" -cases "$CASES" -list-public)"
PUBLIC4=$(grep -v : <<<"$PUBLIC" || true)
PUBLIC6=$(grep : <<<"$PUBLIC" || true)
# Forbidden addresses bound as canaries (127.0.0.0/8 and ::1 are local anyway).
CANARY4="10.0.0.1 10.0.0.5 172.16.0.1 192.168.0.1 192.168.1.1 169.254.169.254 169.254.170.2 \
100.64.0.1 100.100.100.100 100.100.100.200 100.101.102.103 192.0.0.192 192.0.2.1 192.0.2.10 198.18.0.1"
CANARY6="fd7a:115c:a1e0::1 fd7a:115c:a1e0::53 fd00::1 fd00::5 fec0::1 2001:db8::1 64:ff9b::a9fe:a9fe \
64:ff9b::a00:1 2002:a9fe:a9fe::1 2002:7f00:1:: 2001:0:4136:e378:8000:63bf:3fff:fdd2 2600::5efe:a9fe:a9fe"
# ... and the canary_addresses the cases files add (IPv6 outside global unicast, ...).
CANARY6="$CANARY6 $("$ORIGIN" -cases "$CASES" -list-canaries | grep : || true)"
for a in $PUBLIC4 $CANARY4; do ip addr add "$a/32" dev lo; done
for a in $(printf '%s\n' $PUBLIC6 $CANARY6 | sort -u); do ip -6 addr add "$a/128" dev lo nodad; done

printf 'nameserver 127.0.0.1\noptions timeout:1 attempts:1\n' > "$WORK/resolv.conf"
printf '127.0.0.1 localhost\n::1 localhost ip6-localhost ip6-loopback\n' > "$WORK/hosts"
mount --bind "$WORK/resolv.conf" /etc/resolv.conf
mount --bind "$WORK/hosts" /etc/hosts

"$DNSFAKE" -zone "$CASES" -addr 127.0.0.1:53 -log "$WORK/dns.log" 2>"$WORK/dnsfake.err" &
DNS_PID=$!
(cd "$WORK" && exec "$ORIGIN" -cases "$CASES" -ca-out "$WORK/harness-ca.pem" >"$WORK/origin.log" 2>"$WORK/origin.err") &
ORIGIN_PID=$!
cleanup() { kill "$ORIGIN_PID" "$DNS_PID" 2>/dev/null || true; wait 2>/dev/null || true; }
trap cleanup EXIT
# A generous deadline: on a busy machine the origin may take seconds to bind.
ready=
for _ in $(seq 600); do
  if [ -s "$WORK/harness-ca.pem" ] && curl -s -o /dev/null http://127.0.0.1:9999/canaries; then ready=1; break; fi
  sleep 0.1
done
if [ -z "$ready" ]; then
  echo "netns-run: the test origin did not start; see $WORK/origin.err" >&2; exit 1
fi

export SSL_CERT_FILE="$WORK/harness-ca.pem" SIFT_HARNESS_WORK="$WORK"
export SIFT_CANARY_URL="http://127.0.0.1:9999/canaries"
set +e
"$@"
rc=$?
set -e
hits=$(curl -s "$SIFT_CANARY_URL" || echo "?")
echo "netns-run: command exit $rc, canary hits $hits, logs in $WORK" >&2
if [ "$hits" != "0" ]; then exit 3; fi
exit "$rc"
