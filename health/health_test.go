package health

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestMonitorProbesAtMostOncePerInterval(t *testing.T) {
	var calls atomic.Int32
	clock := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	m := New(map[string]Probe{
		"up":   func(context.Context) error { calls.Add(1); return nil },
		"down": func(context.Context) error { calls.Add(1); return errors.New("unreachable: refused") },
	}, 5*time.Second, time.Second)
	m.now = func() time.Time { return clock }

	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() { m.Results(context.Background()) })
	}
	wg.Wait()
	if calls.Load() != 2 {
		t.Fatalf("20 concurrent polls probed %d times, want 2 (one round)", calls.Load())
	}
	r := m.Results(context.Background())
	if !r["up"].OK || r["down"].OK || r["down"].Error != "unreachable: refused" || r["up"].CheckedAt.IsZero() {
		t.Fatalf("results %+v", r)
	}
	clock = clock.Add(6 * time.Second)
	m.Results(context.Background())
	if calls.Load() != 4 {
		t.Fatalf("after the interval: %d probes, want 4", calls.Load())
	}
}

func TestMonitorBoundsASlowProbe(t *testing.T) {
	m := New(map[string]Probe{"slow": func(ctx context.Context) error {
		<-ctx.Done()
		return ctx.Err()
	}}, time.Second, 100*time.Millisecond)
	start := time.Now()
	r := m.Results(context.Background())
	if r["slow"].OK || time.Since(start) > 20*time.Second { // the probe would wait forever
		t.Fatalf("slow probe: %+v after %v", r["slow"], time.Since(start))
	}
}

func TestModels(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/models" || r.Header.Get("Authorization") != "Bearer k" {
			http.Error(w, "no", http.StatusNotFound)
			return
		}
		w.Write([]byte(`{"object":"list","data":[{"id":"m","object":"model"}]}`))
	}))
	defer srv.Close()
	ctx := context.Background()
	if err := Models(srv.URL+"/v1", "k")(ctx); err != nil {
		t.Fatalf("reachable server: %v", err)
	}
	if err := Models(srv.URL+"/v2", "k")(ctx); err == nil {
		t.Fatal("a 404 counted as reachable")
	}
	srv.Close()
	if err := Models(srv.URL+"/v1", "k")(ctx); err == nil {
		t.Fatal("a stopped server counted as reachable")
	}
}

func TestDial(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	ctx := context.Background()
	if err := Dial("http://" + addr)(ctx); err != nil {
		t.Fatalf("listening: %v", err)
	}
	ln.Close()
	if err := Dial("http://" + addr)(ctx); err == nil {
		t.Fatal("a closed port counted as reachable")
	}
	if err := Dial("not a url")(ctx); err == nil {
		t.Fatal("a bad URL counted as reachable")
	}
}
