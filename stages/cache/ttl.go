package cache

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// NegativeTTL is the longest a 404 or 410 is kept, whatever its headers
// say, and how long when they say nothing: long enough to spare the
// origin an agent asking again at once, short enough that a page
// published a minute later is seen (docs/operations.md, "The cache").
const NegativeTTL = 5 * time.Minute

// keepRule is the longest a response of this status may be kept (limit)
// and how long when its headers give no lifetime (fallback), after RFC
// 9111's heuristics (4.2.2): success is kept for the default, 404 and 410
// for a short negative lifetime; 429 and 5xx never, as they describe the
// origin this moment, not the resource (a Retry-After is a time before
// which not to retry, never a lifetime); any other status only when its
// headers say for how long.
func keepRule(status int, def, maxTTL time.Duration) (limit, fallback time.Duration) {
	switch {
	case status >= 200 && status < 300:
		return maxTTL, def
	case status == http.StatusNotFound || status == http.StatusGone:
		return min(NegativeTTL, maxTTL), NegativeTTL
	case status == http.StatusTooManyRequests || status >= 500:
		return 0, 0
	}
	return maxTTL, 0
}

// lifetime is how long a response of this status may be kept: max-age
// (s-maxage first, as sift is a shared cache) or Expires against Date,
// else keepRule's fallback, clamped to [0, keepRule's limit]. no-store and
// private mean zero: a shared cache must not keep what one client was
// told privately.
func lifetime(status int, h http.Header, def, maxTTL time.Duration, now time.Time) time.Duration {
	limit, fallback := keepRule(status, def, maxTTL)
	if limit <= 0 {
		return 0
	}
	ttl, found := fromCacheControl(h.Values("Cache-Control"))
	if !found {
		ttl, found = fromExpires(h, now)
	}
	if !found {
		ttl = fallback
	}
	return min(max(ttl, 0), limit)
}

func fromCacheControl(values []string) (time.Duration, bool) {
	var maxAge, sMaxAge = -1, -1
	for _, v := range values {
		for _, d := range strings.Split(v, ",") {
			name, arg, _ := strings.Cut(strings.TrimSpace(d), "=")
			switch strings.ToLower(name) {
			case "no-store", "private":
				return 0, true
			case "max-age":
				maxAge = seconds(arg)
			case "s-maxage":
				sMaxAge = seconds(arg)
			}
		}
	}
	switch {
	case sMaxAge >= 0:
		return time.Duration(sMaxAge) * time.Second, true
	case maxAge >= 0:
		return time.Duration(maxAge) * time.Second, true
	}
	return 0, false
}

func seconds(arg string) int {
	n, err := strconv.Atoi(strings.Trim(arg, `"`))
	if err != nil || n < 0 {
		return 0 // a malformed age is treated as already stale (RFC 9111 4.2.1)
	}
	return n
}

func fromExpires(h http.Header, now time.Time) (time.Duration, bool) {
	exp := h.Get("Expires")
	if exp == "" {
		return 0, false
	}
	t, err := http.ParseTime(exp)
	if err != nil {
		return 0, true // an invalid Expires means already expired
	}
	if date, err := http.ParseTime(h.Get("Date")); err == nil {
		now = date
	}
	return t.Sub(now), true
}
