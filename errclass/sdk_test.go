package errclass

import (
	"testing"

	"github.com/siftd/sift/plugins/sdk"
)

// TestSDKClasses: every class the plugin SDK names for a document is a
// class of the table, so a plugin's failure reaches an agent with the
// status docs/api.md lists.
func TestSDKClasses(t *testing.T) {
	for _, c := range []string{sdk.ClassInvalid, sdk.ClassBadOption, sdk.ClassUnsupported, sdk.ClassTooLarge} {
		if _, ok := Lookup(Class(c)); !ok {
			t.Errorf("sdk class %q is not in errclass.table", c)
		}
	}
}
