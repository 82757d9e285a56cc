// Package sdktest helps plugin authors test an implementation through the
// real gRPC protocol, in one process, without building a binary.
package sdktest

import (
	"testing"

	"github.com/hashicorp/go-plugin"

	"github.com/siftd/sift/plugins/sdk"
)

// Extractor serves impl over an in-memory gRPC connection and returns the
// client side, so a test exercises the same encoding sift uses. The
// connection closes when the test ends.
func Extractor(t testing.TB, impl sdk.Extractor) sdk.Extractor {
	t.Helper()
	raw := dispense(t, sdk.KindExtractor, &sdk.ExtractorPlugin{Impl: impl})
	ex, ok := raw.(sdk.Extractor)
	if !ok {
		t.Fatalf("sdktest: dispensed %T, not an sdk.Extractor", raw)
	}
	return ex
}

// Digester is Extractor's counterpart for digesters.
func Digester(t testing.TB, impl sdk.Digester) sdk.Digester {
	t.Helper()
	raw := dispense(t, sdk.KindDigester, &sdk.DigesterPlugin{Impl: impl})
	dg, ok := raw.(sdk.Digester)
	if !ok {
		t.Fatalf("sdktest: dispensed %T, not an sdk.Digester", raw)
	}
	return dg
}

func dispense(t testing.TB, kind string, p plugin.Plugin) any {
	t.Helper()
	client, _ := plugin.TestPluginGRPCConn(t, false, map[string]plugin.Plugin{kind: p})
	// Closing the client shuts the server down through go-plugin's
	// controller; stopping the server as well races with that.
	t.Cleanup(func() { _ = client.Close() })
	raw, err := client.Dispense(kind)
	if err != nil {
		t.Fatalf("sdktest: dispense %s: %v", kind, err)
	}
	return raw
}
