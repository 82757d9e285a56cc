package config

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDefaultMatchesShippedConfig keeps the embedded default and the
// repository's config.hcl (the file `make run` serves) identical, so sift
// run without a file behaves as the shipped config says.
func TestDefaultMatchesShippedConfig(t *testing.T) {
	shipped, err := os.ReadFile(filepath.Join("..", "config.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(shipped, Default) {
		return
	}
	a, b := strings.Split(string(shipped), "\n"), strings.Split(string(Default), "\n")
	for i := 0; i < max(len(a), len(b)); i++ {
		var la, lb string
		if i < len(a) {
			la = a[i]
		}
		if i < len(b) {
			lb = b[i]
		}
		if la != lb {
			t.Fatalf("config.hcl and config/default.hcl differ at line %d (copy one over the other):\n config.hcl:         %q\n config/default.hcl: %q", i+1, la, lb)
		}
	}
	t.Fatal("config.hcl and config/default.hcl differ (copy one over the other)")
}

// TestDefaultDecodes checks that the embedded default is a valid envelope.
func TestDefaultDecodes(t *testing.T) {
	if _, diags := Parse(Default, DefaultName); diags.HasErrors() {
		t.Fatal(diags)
	}
}
