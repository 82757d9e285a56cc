package app

import (
	"strings"
	"testing"

	"github.com/siftd/sift/config"
)

// TestShapeFollowsWhatTheOutputDependsOn: the cache's keys change with a
// stage's settings and a plugin's own, and stay when only callers, how a
// plugin runs, or the file's comments and layout change.
func TestShapeFollowsWhatTheOutputDependsOn(t *testing.T) {
	parse := func(extract, key string, plugin ...string) string {
		t.Helper()
		pdf := "  isolation = \"none\"\n"
		if len(plugin) > 0 {
			pdf = plugin[0]
		}
		return shapeOf(t, configOf(extract, key, pdf))
	}
	keyA := "a665a45920422f9d417e4867efdc4fb8a04a1f3fff1fa07e998e86f7f7a27ae3"
	keyB := "b3a8e0e1f9ab1bfe3a36f231f676f78bb30a519d2b21e6c530c0eee8ebb4a5d0"
	base := parse("", keyA)
	if parse("", keyB) != base {
		t.Error("another caller key changed the shape: the cache would be lost for nothing")
	}
	for _, extract := range []string{
		"\n    content_types = [\"application/json\"]\n  ",
		"\n    max_output = \"1KiB\"\n  ",
	} {
		if parse(extract, keyA) == base {
			t.Errorf("extract {%s} kept the shape: the cache would restore the old chain's snapshots", extract)
		}
	}
	if parse("\n    max_output = \"1KiB\" # a comment\n\n  ", keyA) != parse("\n    max_output   =   \"1KiB\"\n  ", keyA) {
		t.Error("a comment or spaces changed the shape")
	}
	for _, running := range []string{
		"  isolation = \"none\"\n  pool = 3\n  timeout = \"2m\"\n  memory = \"1GiB\"\n  cpus = 1\n  per_caller = 1\n  env = [\"GOGC\"]\n",
		"  # how the pool runs\n  isolation    = \"none\"\n",
	} {
		if parse("", keyA, running) != base {
			t.Errorf("pdf {%s} changed the shape: how a plugin runs does not change what it reads", running)
		}
	}
	noBlock := strings.Replace(configOf("", keyA, ""), "extractor \"pdf\" {\n}\n", "", 1)
	if strings.Contains(noBlock, `extractor "pdf"`) {
		t.Fatal("the test's configuration without a pdf block still has one")
	}
	for name, src := range map[string]string{
		"a block that tunes only how a plugin runs": configOf("", keyA, "  pool = 3\n") + "extractor \"json\" {\n  pool = 3\n}\n",
		"an empty block":                       configOf("", keyA, ""),
		"no pdf block":                         noBlock,
		"a cache stage's budget and lifetimes": strings.Replace(configOf("", keyA, ""), "stage \"cache\" {}", "stage \"cache\" {\n    max_bytes = \"1GiB\"\n    ttl = \"1h\"\n    restricted_share = 0.5\n  }", 1),
	} {
		if shapeOf(t, src) != base {
			t.Errorf("%s changed the shape", name)
		}
	}
	if parse("", keyA, "  isolation = \"none\"\n  max_pages = 5\n") == base {
		t.Error("the pdf block's max_pages kept the shape: the cache would restore pages past the new bound")
	}
}

// configOf is the shape test's configuration: a caller with key, an html
// block, a pdf block of pdf's text, and extract's text in the extract stage.
func configOf(extract, key, pdf string) string {
	return `caller "c" {
  key_sha256 = "` + key + `"
}
extractor "html" {
  isolation = "none"
}
extractor "pdf" {
` + pdf + `}
pipeline {
  stage "guard" {}
  stage "fetch" {}
  stage "extract" {` + extract + `}
  stage "cache" {}
}
`
}

func shapeOf(t *testing.T, src string) string {
	t.Helper()
	cfg, diags := config.Parse([]byte(src), "test.hcl")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return shape(cfg)
}
