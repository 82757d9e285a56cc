package cache

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// lifetime is how long a response may be kept: max-age (s-maxage first,
// as sift is a shared cache) or Expires against Date, else the configured
// default, clamped to [0, maxTTL]. no-store and private mean zero: a
// shared cache must not keep what one client was told privately.
func lifetime(h http.Header, def, maxTTL time.Duration, now time.Time) time.Duration {
	ttl, found := fromCacheControl(h.Values("Cache-Control"))
	if !found {
		ttl, found = fromExpires(h, now)
	}
	if !found {
		ttl = def
	}
	return min(max(ttl, 0), maxTTL)
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
