package main

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestReadPage(t *testing.T) {
	tests := []struct {
		name, in       string
		wantBody, url  string
		wantErr, isEOF bool
	}{
		{name: "page", in: "5 https://a.example/\nhello", wantBody: "hello", url: "https://a.example/"},
		{name: "no url", in: "2\nhi", wantBody: "hi"},
		{name: "end of input", in: "", isEOF: true},
		{name: "bad size", in: "five https://a/\nhello", wantErr: true},
		{name: "negative size", in: "-1 u\n", wantErr: true},
		{name: "short body", in: "10 u\nabc", wantErr: true},
		{name: "header without newline", in: "5 u", wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			body, url, err := readPage(bufio.NewReader(strings.NewReader(tc.in)))
			switch {
			case tc.isEOF:
				if !errors.Is(err, io.EOF) {
					t.Fatalf("err = %v, want EOF", err)
				}
			case tc.wantErr:
				if err == nil || errors.Is(err, io.EOF) {
					t.Fatalf("err = %v, want a protocol error", err)
				}
			case err != nil || string(body) != tc.wantBody || url != tc.url:
				t.Fatalf("got %q %q %v", body, url, err)
			}
		})
	}
}
