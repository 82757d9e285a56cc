package server

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/siftd/sift/guard"
	"github.com/siftd/sift/plugins/host"
	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/stages"
	"github.com/siftd/sift/stages/fetch"
)

func TestErrorClasses(t *testing.T) {
	t.Parallel()
	stageErr := func(stage string, err error) error { return &stages.Error{Stage: stage, Err: err} }
	tests := []struct {
		err     error
		status  int
		message string
	}{
		{stageErr("guard", guard.Refuse("private address 10.0.0.5")), 403, "blocked: private address 10.0.0.5"},
		{&stages.Error{Stage: "extract", Plugin: "html", Err: fmt.Errorf("%w: EOF", host.ErrCrashed)}, 502, "extractor_failed: plugin crashed: EOF"},
		{stageErr("extract", fmt.Errorf("%w after 30s", host.ErrTimeout)), 504, "timeout: plugin timed out after 30s"},
		{stageErr("extract", sdk.Invalid("malformed JSON at line 1, column 2")), 422, "invalid: malformed JSON at line 1, column 2"},
		{stageErr("extract", &sdk.DocError{Class: sdk.ClassUnsupported, Message: "scanned PDF"}), 415, "unsupported: scanned PDF"},
		{stageErr("fetch", fmt.Errorf("%w: body over the cap", fetch.ErrTooLarge)), 413, "too_large: body over the cap"},
		{stageErr("fetch", fmt.Errorf("%w: x509: unknown authority", fetch.ErrUpstream)), 502, "upstream: x509: unknown authority"},
		{stageErr("fetch", fmt.Errorf("%w: more than 5 redirects", fetch.ErrRedirects)), 422, "redirects: more than 5 redirects"},
		{stageErr("extract", fmt.Errorf("%w \"image/png\": no extractor handles it", stages.ErrUnsupportedType)), 415, "unsupported: unsupported content type \"image/png\": no extractor handles it"},
		{stageErr("fetch", context.DeadlineExceeded), 504, "timeout: context deadline exceeded"},
		{stageErr("guard", &guard.Unresolved{Host: "nx.example", NotFound: true}), 422, "no_such_host: the name nx.example does not exist or has no address"},
		{stageErr("guard", &guard.Unresolved{Host: "sf.example", Err: errors.New("server misbehaving")}), 502, "dns_failed: resolving sf.example failed: server misbehaving"},
		{errors.New("surprise"), 500, "internal: surprise"},
	}
	for _, tc := range tests {
		ae := toAPIError(tc.err)
		if ae.Status != tc.status || ae.Message != tc.message {
			t.Errorf("%v: got %d %q, want %d %q", tc.err, ae.Status, ae.Message, tc.status, tc.message)
		}
	}
}
