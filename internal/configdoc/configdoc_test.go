package configdoc

import (
	"context"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/siftd/sift/config"
)

const docFile = "../../docs/config.md"

// TestReferenceIsCurrent: docs/config.md is what the schemas say now.
// Run `go generate ./internal/configdoc` after changing an attribute.
func TestReferenceIsCurrent(t *testing.T) {
	want, err := Render(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(docFile)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatalf("%s is stale: run go generate ./internal/configdoc", docFile)
	}
}

// TestUndocumentedAttributeFails: an attribute without a description
// stops the reference from being written.
func TestUndocumentedAttributeFails(t *testing.T) {
	type block struct {
		Documented string `hcl:"documented" doc:"says what it is"`
		Bare       *int   `hcl:"bare,optional"`
	}
	_, err := config.Describe("probe", "a probe", reflect.TypeFor[block]())
	if err == nil || !strings.Contains(err.Error(), "bare") || strings.Contains(err.Error(), "documented in") {
		t.Fatalf("err = %v", err)
	}
}

// TestReferenceNamesEveryAttribute spot-checks attributes that were once
// found only in the source.
func TestReferenceNamesEveryAttribute(t *testing.T) {
	doc, err := Render(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"`max_output`", "`input_cap`", "`thinking`", "`max_result_bytes`", "`claim_lease`",
		"`per_caller`", "`max_pages`", "`archive_url`", "`allow_cidrs`", "`key_sha256`", "`content_types`"} {
		if !strings.Contains(doc, want) {
			t.Errorf("the reference lacks %s", want)
		}
	}
}
