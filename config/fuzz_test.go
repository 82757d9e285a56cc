package config

import "testing"

// FuzzParse: no configuration text, however broken, panics the decoder;
// a text with errors always says so with diagnostics.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"listen = \"127.0.0.1:8890\"\n",
		"pipeline {\n  stage \"guard\" {}\n  stage \"fetch\" { timeout = \"20s\" }\n}\n",
		"extractor \"html\" {\n  pool = 2\n  memory = \"512MiB\"\n}\n",
		"caller \"a\" {\n  key_sha256 = \"00\"\n}\n",
		"store {\n driver = 1\n}\n",
		"pipeline { stage {} }",
		"${",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		cfg, _ := Parse(src, "fuzz.hcl")
		if cfg == nil {
			t.Fatal("Parse returned no config")
		}
	})
}
