package extract

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/stages"
)

// sharing records the share each call names.
type sharing struct{ shares []string }

func (s *sharing) Extract(ctx context.Context, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	return s.ExtractFor(ctx, "", req)
}

func (s *sharing) ExtractFor(_ context.Context, share string, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	s.shares = append(s.shares, share)
	return &sdk.ExtractResult{Content: string(req.Body), Format: sdk.FormatText}, nil
}

type oneRoute struct{ ex stages.Extractor }

func (r oneRoute) Route(string) (string, stages.Extractor, bool) { return "test", r.ex, true }

// The stage names the request's share to an extractor that shares its
// slots out, so batch work and interactive work are counted apart.
func TestSharePassedToExtractor(t *testing.T) {
	ex := &sharing{}
	s := &Stage{router: oneRoute{ex}, maxOutput: DefaultMaxOutput}
	for _, share := range []string{"alice", "alice/batch"} {
		doc := &stages.Doc{
			Request:  stages.Request{Caller: "alice", Share: share},
			Response: &stages.Response{Body: []byte("body"), ContentType: "text/plain"},
		}
		if err := s.Run(context.Background(), doc); err != nil {
			t.Fatal(err)
		}
		if doc.Extraction == nil || doc.Extraction.Content != "body" {
			t.Fatalf("extraction %+v", doc.Extraction)
		}
	}
	if len(ex.shares) != 2 || ex.shares[0] != "alice" || ex.shares[1] != "alice/batch" {
		t.Fatalf("shares %q", ex.shares)
	}
}

// declaring routes to one extractor that declares the options named.
type declaring struct {
	oneRoute
	declared []string
}

func (d declaring) Declares(_, option string) bool { return slices.Contains(d.declared, option) }

// The extraction names the request's own options the extractor does not
// declare; strict ones are checked before the call, and never listed.
func TestUnappliedOptionsNamed(t *testing.T) {
	s := &Stage{router: declaring{oneRoute{&sharing{}}, []string{"links"}}, maxOutput: DefaultMaxOutput}
	doc := &stages.Doc{
		Request: stages.Request{Options: map[string]string{"jq": ".a", "pages": "1", "links": "false", "own": "x"},
			StrictOptions: []string{"own"}},
		Response: &stages.Response{Body: []byte("body"), ContentType: "text/plain"},
	}
	if err := s.Run(context.Background(), doc); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(doc.Extraction.Unapplied); got != "[jq pages]" {
		t.Errorf("unapplied %s, want [jq pages]", got)
	}
}

// titled answers with the title and metadata it holds.
type titled struct {
	title    string
	metadata map[string]string
}

func (t titled) Extract(ctx context.Context, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	return &sdk.ExtractResult{Content: "text", Format: sdk.FormatText, Title: t.title, Metadata: t.metadata}, nil
}

// A page's title and meta tags are the page's to write: a title of a
// megabyte came back whole in the title and in the metadata.
func TestMetadataCapped(t *testing.T) {
	huge := strings.Repeat("é", 600_000)
	for _, tc := range []struct {
		name         string
		title        string
		metadata     map[string]string
		wantTitle    int
		wantMeta     map[string]int
		wantWarnings int
	}{
		{"within bounds", "A title", map[string]string{"author": "Ada"}, 7, map[string]int{"author": 3}, 0},
		{"huge title and description", huge, map[string]string{"title": huge, "description": huge, "author": "Ada"},
			MaxTitleBytes, map[string]int{"title": MaxMetadataBytes, "description": MaxMetadataBytes, "author": 3}, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &Stage{router: oneRoute{titled{tc.title, tc.metadata}}, maxOutput: DefaultMaxOutput}
			doc := &stages.Doc{Response: &stages.Response{Body: []byte("body"), ContentType: "text/plain"}}
			if err := s.Run(context.Background(), doc); err != nil {
				t.Fatal(err)
			}
			ex := doc.Extraction
			if len(ex.Title) != tc.wantTitle || !utf8.ValidString(ex.Title) {
				t.Errorf("title of %d bytes (valid UTF-8 %v), want %d", len(ex.Title), utf8.ValidString(ex.Title), tc.wantTitle)
			}
			for k, n := range tc.wantMeta {
				if len(ex.Metadata[k]) != n || !utf8.ValidString(ex.Metadata[k]) {
					t.Errorf("metadata %q of %d bytes, want %d", k, len(ex.Metadata[k]), n)
				}
			}
			if len(doc.Warnings) != tc.wantWarnings {
				t.Errorf("warnings %q, want %d", doc.Warnings, tc.wantWarnings)
			}
			if tc.metadata["title"] == huge && len(tc.metadata["title"]) != len(huge) {
				t.Error("the extractor's own metadata map was changed")
			}
		})
	}
}
