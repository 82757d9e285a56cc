package host

import (
	"slices"
	"testing"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/plugins/sdk/hclconfig"
)

// TestSiftAttributesMatchTheConfig: the SDK's list of the attributes sift
// reads from a plugin block, which its test helpers skip, is the list the
// configuration decodes.
func TestSiftAttributesMatchTheConfig(t *testing.T) {
	file, err := config.FileSchema()
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"extractor", "digester"} {
		i := slices.IndexFunc(file.Blocks, func(b config.BlockDoc) bool { return b.Name == kind })
		if i < 0 {
			t.Fatalf("no %s block in the file schema", kind)
		}
		var names []string
		for _, a := range file.Blocks[i].Attrs {
			names = append(names, a.Name)
		}
		if got, want := slices.Sorted(slices.Values(names)), slices.Sorted(slices.Values(hclconfig.SiftAttributes)); !slices.Equal(got, want) {
			t.Errorf("%s block: config decodes %v, hclconfig.SiftAttributes lists %v", kind, got, want)
		}
	}
}
