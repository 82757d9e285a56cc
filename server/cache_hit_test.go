package server

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"testing"
)

// A hit answers the page's content address as the miss did, from the
// snapshot: the address of the bytes fetched.
func TestCachedAnswerKeepsHash(t *testing.T) {
	origin := fixtureOrigin(t)
	srv := newTestServer(t, origin, testOptions{}, `stage "cache" {}`)
	resp, err := http.Get(origin.URL + "/article")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	sum := sha256.Sum256(page)
	want := "sha256:" + hex.EncodeToString(sum[:])
	for i, cached := range []bool{false, true} {
		_, body := post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/article"})
		src := body["source"].(map[string]any)
		if src["hash"] != want || src["cached"] != cached {
			t.Fatalf("request %d: hash %v cached %v; want %s, %v", i, src["hash"], src["cached"], want, cached)
		}
	}
}
