package server

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/siftd/sift/honcho/honchotest"
)

func contextConfig(url string) testOptions {
	return testOptions{extraConfig: fmt.Sprintf("context \"honcho\" {\n  url     = %q\n  timeout = \"300ms\"\n}\n", url)}
}

// TestFetchContext: with context: true the hits of the caller's own
// workspace come back in the envelope; a restricted caller's workspace is
// the one searched, and only the search route is ever called.
func TestFetchContext(t *testing.T) {
	t.Parallel()
	fake := honchotest.New(t)
	at := time.Date(2026, 8, 12, 14, 3, 22, 123456000, time.UTC)
	fake.Messages = []map[string]any{
		honchotest.Message("m1", "alice", "We water the raised beds at dawn since June.", at),
		honchotest.Message("m2", "bob", "The trowel test: soil dry 2 cm down means water.", at),
	}
	origin := fixtureOrigin(t)
	srv := newTestServer(t, origin, contextConfig(fake.URL), `stage "context" {}`)

	_, body := post(t, srv.URL+"/v1/fetch", quietKey, map[string]any{"url": origin.URL + "/article", "context": true})
	want := []any{
		map[string]any{"kind": "message", "peer": "alice", "content": "We water the raised beds at dawn since June.", "created_at": "2026-08-12T14:03:22.123456Z"},
		map[string]any{"kind": "message", "peer": "bob", "content": "The trowel test: soil dry 2 cm down means water.", "created_at": "2026-08-12T14:03:22.123456Z"},
	}
	if !reflect.DeepEqual(body["context"], want) || len(body["warnings"].([]any)) != 0 {
		t.Fatalf("context %v, warnings %v", body["context"], body["warnings"])
	}
	post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/article", "context": true})
	post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/article"})
	searches := fake.Searches()
	if len(searches) != 2 || searches[0].Workspace != "quiet-team" || searches[1].Workspace != "default" ||
		searches[0].Limit != 5 || searches[0].Query != "irrigation water beds early morning roots" {
		t.Fatalf("searches %+v", searches)
	}
	if u := fake.Unexpected(); len(u) != 0 {
		t.Fatalf("routes other than search were called: %v", u)
	}
}

// TestFetchContextFailuresNeverFailTheFetch: an empty answer, a 500 and a
// timeout each leave the page served, with no hits and, for failures, a
// warning.
func TestFetchContextFailuresNeverFailTheFetch(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		setup   func(*honchotest.Server)
		warn    string
		outcome string // of sift_context_lookups_total
	}{
		{"empty", func(*honchotest.Server) {}, "", "ok"},
		{"server error", func(f *honchotest.Server) { f.Status = 500 }, "context unavailable: the context source answered an error", "error"},
		{"timeout", func(f *honchotest.Server) { f.Delay = time.Minute }, "context unavailable: timeout", "timeout"},
	}
	origin := fixtureOrigin(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := honchotest.New(t)
			tt.setup(fake)
			srv := newTestServer(t, origin, contextConfig(fake.URL), `stage "context" {}`)
			start := time.Now()
			resp, body := post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/article", "context": true})
			var warns []any
			if tt.warn != "" {
				warns = []any{tt.warn}
			}
			got, _ := body["warnings"].([]any)
			if resp.StatusCode != 200 || body["context"] != nil || fmt.Sprint(got) != fmt.Sprint(warns) || time.Since(start) > 20*time.Second {
				t.Fatalf("status %d, context %v, warnings %v after %v", resp.StatusCode, body["context"], got, time.Since(start))
			}
			if want := fmt.Sprintf(`sift_context_lookups_total{outcome=%q} 1`, tt.outcome); !strings.Contains(scrape(t, srv.URL), want) {
				t.Errorf("metrics lack %s", want)
			}
		})
	}
}

func TestFetchContextNotConfigured(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	srv := newTestServer(t, origin, testOptions{})
	_, body := post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/article", "context": true})
	if fmt.Sprint(body["warnings"]) != "[context not configured: the pipeline has no context stage]" {
		t.Fatalf("warnings %v", body["warnings"])
	}
}
