package sdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/plugins/sdk/sdktest"
)

type upper struct{ sdk.NoConfig }

func (upper) Info(context.Context) (sdk.Info, error) {
	return sdk.Info{Name: "upper", Version: "1.2.3", ContentTypes: []string{"text/x-upper"}, Capabilities: []string{"options"},
		Containers: []sdk.ContainerRule{{MediaType: "text/x-upper", Extensions: []string{"up"}, ZipEntries: []string{"a", "b"},
			ZipMimetype: "text/x-upper", Magic: "UP", MagicWithin: 12}}}, nil
}

func (upper) Extract(_ context.Context, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	if len(req.Body) == 0 {
		return nil, sdk.Invalid("empty body")
	}
	if req.Options["fail"] == "yes" {
		return nil, errors.New("internal failure")
	}
	return &sdk.ExtractResult{Content: string(req.Body) + req.URL, Format: sdk.FormatText, Title: "t",
		Metadata: map[string]string{"k": req.ContentType}, Warnings: []string{"w"},
		Links: []string{"https://example.com/a", "https://example.com/b"}}, nil
}

type echoDigester struct{ sdk.NoConfig }

func (echoDigester) Info(context.Context) (sdk.Info, error) { return sdk.Info{Name: "echo"}, nil }

func (echoDigester) Digest(_ context.Context, req *sdk.DigestRequest) (*sdk.DigestResult, error) {
	if req.Question == "" {
		return nil, &sdk.DocError{Class: sdk.ClassUnsupported, Message: "no question"}
	}
	return &sdk.DigestResult{Digest: req.Question + ":" + req.Content, Warnings: []string{"short"}}, nil
}

func TestExtractorRoundTrip(t *testing.T) {
	ctx := context.Background()
	ex := sdktest.Extractor(t, upper{})
	info, err := ex.Info(ctx)
	if err != nil || info.Name != "upper" || info.Version != "1.2.3" || info.ContentTypes[0] != "text/x-upper" || info.Capabilities[0] != "options" {
		t.Fatalf("info %+v, %v", info, err)
	}
	if want, _ := (upper{}).Info(ctx); !reflect.DeepEqual(info.Containers, want.Containers) {
		t.Fatalf("container rules %+v, want %+v", info.Containers, want.Containers)
	}
	diags, err := ex.Configure(ctx, json.RawMessage(`{}`))
	if err != nil || len(diags) != 0 {
		t.Fatalf("configure: %v %v", diags, err)
	}
	res, err := ex.Extract(ctx, &sdk.ExtractRequest{Body: []byte("body"), URL: "@u", ContentType: "text/x-upper"})
	if err != nil || res.Content != "body@u" || res.Title != "t" || res.Metadata["k"] != "text/x-upper" || res.Warnings[0] != "w" ||
		len(res.Links) != 2 || res.Links[1] != "https://example.com/b" {
		t.Fatalf("extract %+v, %v", res, err)
	}
	_, err = ex.Extract(ctx, &sdk.ExtractRequest{})
	var de *sdk.DocError
	if !errors.As(err, &de) || de.Class != sdk.ClassInvalid || de.Message != "empty body" {
		t.Fatalf("bad document: %v, want a DocError as a result", err)
	}
	_, err = ex.Extract(ctx, &sdk.ExtractRequest{Body: []byte("x"), Options: map[string]string{"fail": "yes"}})
	if err == nil || errors.As(err, &de) {
		t.Fatalf("plugin failure: %v, want a transport error, not a DocError", err)
	}
}

func TestDigesterRoundTrip(t *testing.T) {
	dg := sdktest.Digester(t, echoDigester{})
	res, err := dg.Digest(context.Background(), &sdk.DigestRequest{Content: "c", Question: "q"})
	if err != nil || res.Digest != "q:c" || res.Warnings[0] != "short" {
		t.Fatalf("digest %+v, %v", res, err)
	}
	_, err = dg.Digest(context.Background(), &sdk.DigestRequest{Content: "c"})
	var de *sdk.DocError
	if !errors.As(err, &de) || de.Class != sdk.ClassUnsupported {
		t.Fatalf("err %v", err)
	}
}

func TestTruncate(t *testing.T) {
	tests := []struct {
		in   string
		max  int64
		want string
		cut  bool
	}{
		{"hello", 0, "hello", false},
		{"hello", 5, "hello", false},
		{"hello", 3, "hel", true},
		{"héllo", 2, "h", true},
		{"日本", 4, "日", true},
	}
	for _, tc := range tests {
		if got, cut := sdk.Truncate(tc.in, tc.max); got != tc.want || cut != tc.cut {
			t.Errorf("Truncate(%q, %d) = %q, %v; want %q, %v", tc.in, tc.max, got, cut, tc.want, tc.cut)
		}
	}
}
