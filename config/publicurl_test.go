package config

import (
	"bytes"
	"testing"
)

func TestPublicURL(t *testing.T) {
	tests := []struct {
		src, want string
		wantErr   bool
	}{
		{`listen = "127.0.0.1:8890"`, "http://127.0.0.1:8890", false},
		{`listen = "0.0.0.0:8890"`, "http://127.0.0.1:8890", false},
		{`listen = "[::]:8890"`, "http://[::1]:8890", false},
		{`listen = ":8890"`, "http://127.0.0.1:8890", false},
		{`listen = "10.1.2.10:8890"`, "http://10.1.2.10:8890", false},
		{"listen = \"0.0.0.0:8890\"\npublic_url = \"https://sift.example.com/\"", "https://sift.example.com", false},
		{`public_url = "https://gw.example.com:8443/sift/"`, "https://gw.example.com:8443/sift", false},
		{`public_url = "ftp://sift.example.com"`, "http://127.0.0.1:8890", true},
		{`public_url = "sift.example.com"`, "http://127.0.0.1:8890", true},
		{`public_url = "https://u:p@sift.example.com"`, "http://127.0.0.1:8890", true},
		{`public_url = "https://sift.example.com/?a=1"`, "http://127.0.0.1:8890", true},
		{`public_url = "https:///path"`, "http://127.0.0.1:8890", true},
	}
	for _, tc := range tests {
		cfg, diags := Parse([]byte(tc.src), "t.hcl")
		if cfg.PublicURL != tc.want || diags.HasErrors() != tc.wantErr {
			t.Errorf("%s: public URL %q, %v; want %q, error %v", tc.src, cfg.PublicURL, diags, tc.want, tc.wantErr)
		}
	}
}

// TestKeyHashDecoded: a caller's key hash is decoded bytes, whatever the
// case of its hex.
func TestKeyHashDecoded(t *testing.T) {
	const lower = "4525af7e8f344cc741a6e9608adc2f8a4c5d1303103ca9ac907b698232109aea"
	const upper = "4525AF7E8F344CC741A6E9608ADC2F8A4C5D1303103CA9AC907B698232109AEA"
	var got [][]byte
	for _, h := range []string{lower, upper} {
		cfg, diags := Parse([]byte(`caller "a" {
  key_sha256 = "`+h+`"
}`), "t.hcl")
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		got = append(got, cfg.Callers[0].KeyHash)
	}
	if len(got[0]) != 32 || !bytes.Equal(got[0], got[1]) {
		t.Fatalf("key hashes %x and %x", got[0], got[1])
	}
}
