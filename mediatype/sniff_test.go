package mediatype

import "testing"

func TestSniff(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, file string
		body       []byte
		want       string
	}{
		{"csv by extension", "/exports/data.CSV", []byte("a,b\n"), "text/csv"},
		{"notebook by extension", "nb.ipynb", []byte(`{"cells": []}`), "application/x-ipynb+json"},
		{"feed by extension", "/feed.rss", []byte("<rss/>"), "application/rss+xml"},
		{"html by Go's table, without its utf-8 guess", "index.html", []byte("<p>hi"), "text/html"},
		{"text by its bytes: no charset guessed", "", []byte("Jos\xe9 M\xfcller\n"), "text/plain"},
		{"html by its bytes: no charset guessed", "/page", []byte("<!DOCTYPE html><html><meta charset=windows-1252>"), "text/html"},
		{"a BOM is a charset, kept", "", []byte("\xfe\xff\x00h\x00i"), "text/plain; charset=utf-16be"},
		{"json by its first byte, even malformed", "", []byte(` {"a": `), "application/json"},
		{"an unknown extension: by the bytes", "report.weird", []byte("%PDF-1.7\n"), "application/pdf"},
		{"bytes that say nothing", "", []byte{0, 1, 2, 0xff}, "application/octet-stream"},
	}
	for _, tc := range tests {
		if got := Sniff(tc.file, tc.body); got != tc.want {
			t.Errorf("%s: Sniff(%q) = %q, want %q", tc.name, tc.file, got, tc.want)
		}
	}
}
