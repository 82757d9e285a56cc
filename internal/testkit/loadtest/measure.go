package loadtest

import (
	"bytes"
	"io"
	"net/http"
	"syscall"
	"testing"
	"time"
)

// Post posts body to url with key as the bearer key, reads the answer
// whole and fails tb unless sift answers 200.
func Post(tb testing.TB, client *http.Client, url, key string, body []byte) {
	tb.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := client.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		tb.Fatalf("status %d", resp.StatusCode)
	}
}

// CPUTime is the CPU time this process has used, user and system.
func CPUTime(tb testing.TB) time.Duration {
	tb.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
