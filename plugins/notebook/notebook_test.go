package notebook

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/siftd/sift/internal/testkit/golden"
	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/plugins/sdk/sdktest"
)

// TestRealNotebooks renders notebooks nbformat wrote, through the real
// plugin protocol, against golden markdown.
func TestRealNotebooks(t *testing.T) {
	tests := []struct {
		file, golden, lang string
		links, warnings    []string
	}{
		{"sales.ipynb", "sales.md", "python", []string{"https://data.example.org/sales", "https://data.example.org/notes"},
			[]string{"the outputs of 1 cells cut at 2048 bytes"}},
		{"r-kernel.ipynb", "r-kernel.md", "r", nil, nil},
	}
	ex := sdktest.Extractor(t, New())
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			res, err := ex.Extract(context.Background(), &sdk.ExtractRequest{Body: golden.Testdata(t, tc.file), ContentType: "application/x-ipynb+json"})
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", "golden", tc.golden), res.Content)
			if res.Metadata["language"] != tc.lang || !slices.Equal(res.Links, tc.links) || !slices.Equal(res.Warnings, tc.warnings) {
				t.Fatalf("metadata %q, links %q, warnings %q", res.Metadata, res.Links, res.Warnings)
			}
			if strings.Contains(res.Content, "iVBOR") || strings.Contains(res.Content, "\x1b") {
				t.Fatal("an image's base64 or an ANSI escape in the content")
			}
		})
	}
}

// The sniff rule claims notebooks served as JSON or text, whichever key
// order their writer used, and no other JSON.
func TestSniff(t *testing.T) {
	info, _ := New().Info(context.Background())
	sn, err := info.Sniff[0].Compile()
	if err != nil {
		t.Fatal(err)
	}
	for body, want := range map[string]bool{
		string(golden.Testdata(t, "sales.ipynb")):                           true,
		`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": []}`: true,
		`{"metadata": {}, "cells": [{"source": "x"}], "nbformat": 4}`:       true,
		`{"cells": []}`:                          true,
		`{"cells": [1, 2, 3], "rows": 2}`:        false,
		`{"name": "cells", "value": "nbformat"}`: false,
		`[{"nbformat": 4, "cells": []}]`:         false,
	} {
		if got := sn.MatchContent([]byte(body)); got != want {
			t.Errorf("%.60q: matched %v, want %v", body, got, want)
		}
	}
}

func TestNotNotebooks(t *testing.T) {
	deep := `{"nbformat": 4, "cells": [], "metadata": ` + strings.Repeat(`{"a":`, 20000) + "1" + strings.Repeat("}", 20000) + "}"
	for body, class := range map[string]string{
		`{"cells": [`:                        sdk.ClassInvalid,
		`{"a": 1}`:                           sdk.ClassInvalid,
		`{"nbformat": 3, "worksheets": []}`:  sdk.ClassUnsupported,
		`{"nbformat": 4, "cells": {"x": 1}}`: sdk.ClassInvalid,
		deep:                                 sdk.ClassInvalid,
	} {
		_, err := New().Extract(context.Background(), &sdk.ExtractRequest{Body: []byte(body), ContentType: "application/json"})
		var de *sdk.DocError
		if !errors.As(err, &de) || de.Class != class {
			t.Errorf("%.40q: %v, want %s", body, err, class)
		}
	}
}

func TestCellsCapped(t *testing.T) {
	cells := strings.TrimSuffix(strings.Repeat(`{"cell_type": "markdown", "source": "m", "metadata": {}},`, MaxCells+3), ",")
	res, err := New().Extract(context.Background(), &sdk.ExtractRequest{Body: []byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [` + cells + `]}`)})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(res.Content, "m"); n != MaxCells || !slices.Contains(res.Warnings, "notebook cut at 2000 of 2003 cells") {
		t.Fatalf("%d cells, warnings %q", n, res.Warnings)
	}
}

// FuzzExtract: any bytes as a notebook end as markdown or a document
// error, never a plugin failure.
func FuzzExtract(f *testing.F) {
	f.Add(golden.Testdata(f, "sales.ipynb"))
	f.Add(golden.Testdata(f, "r-kernel.ipynb"))
	f.Add([]byte(`{"nbformat": 4, "cells": [{"cell_type": "code", "source": ["a", "b"], "outputs": [{"output_type": "stream", "text": "x"}]}]}`))
	e := New()
	f.Fuzz(func(t *testing.T, body []byte) {
		_, err := e.Extract(context.Background(), &sdk.ExtractRequest{Body: body})
		var de *sdk.DocError
		if err != nil && !errors.As(err, &de) {
			t.Fatalf("a plugin failure, not a document error: %v", err)
		}
	})
}
