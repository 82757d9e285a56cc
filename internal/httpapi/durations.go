package httpapi

import "time"

// Bounds of the durations a client sends. A count of milliseconds or
// seconds is held to them before it becomes a time.Duration: 2^62 ms
// multiplied as it is wraps to 0, a timeout that fires at once.
const (
	// MaxRequestTimeout bounds a Firecrawl timeout: Firecrawl's largest
	// (300000 ms), and the longest sift writes an answer
	// (DefaultTimeouts.Write), so a longer one is never shorter than
	// sift's own deadlines and changes nothing.
	MaxRequestTimeout = 5 * time.Minute
	// MaxCacheAge bounds a Firecrawl maxAge: longer than any snapshot is
	// kept, so a larger one means any cached copy.
	MaxCacheAge = 100 * 365 * 24 * time.Hour
)

// ClientDuration is n units of time a client sent (its milliseconds, its
// seconds) as a duration of at most limit, compared before it is
// multiplied so that no n overflows; over reports that n was past limit.
// A negative n is 0: each field refuses negative values before.
func ClientDuration(n int64, unit, limit time.Duration) (d time.Duration, over bool) {
	switch {
	case n <= 0:
		return 0, false
	case n > int64(limit/unit):
		return limit, true
	}
	return time.Duration(n) * unit, false
}
