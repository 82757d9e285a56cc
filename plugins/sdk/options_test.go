package sdk_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/siftd/sift/plugins/sdk"
)

func TestCheckOptions(t *testing.T) {
	schema := sdk.Schema{Options: []sdk.Option{
		{Name: "rows", Type: sdk.TypeInteger, Min: sdk.Bound(1), Max: sdk.Bound(10)},
		{Name: "ratio", Type: sdk.TypeNumber, Max: sdk.Bound(1)},
		{Name: "links", Type: sdk.TypeBool},
		{Name: "mode", Type: sdk.TypeString, Values: []string{"fast", "full"}},
		{Name: "q", Type: sdk.TypeString, MaxLength: 3},
	}}
	tests := []struct {
		opts map[string]string
		want string // "" for accepted
	}{
		{map[string]string{"rows": "10", "ratio": "0.5", "links": "false", "mode": "full", "q": "abc"}, ""},
		{nil, ""},
		{map[string]string{"rows": "0"}, `rows "0": below the minimum, 1`},
		{map[string]string{"rows": "11"}, `rows "11": above the maximum, 10`},
		{map[string]string{"rows": "2.5"}, `rows "2.5": want an integer`},
		{map[string]string{"rows": "NaN"}, `rows "NaN": want an integer`},
		{map[string]string{"ratio": "x"}, `ratio "x": want a number`},
		{map[string]string{"links": "yes"}, `links "yes": want true or false`},
		{map[string]string{"mode": "slow"}, `mode "slow": want one of fast, full`},
		{map[string]string{"q": "abcd"}, `q "abcd": longer than 3 bytes`},
		{map[string]string{"zz": "1", "aa": "1"}, `"aa" is not an option of this extractor; "zz" is not`},
	}
	for _, tc := range tests {
		err := schema.CheckOptions(tc.opts)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%v: %v", tc.opts, err)
			}
			continue
		}
		var de *sdk.DocError
		if !errors.As(err, &de) || de.Class != sdk.ClassBadOption || !strings.Contains(de.Message, tc.want) {
			t.Errorf("%v: %v, want bad_option with %q", tc.opts, err, tc.want)
		}
		if !strings.Contains(de.Message, "it takes rows (integer)") {
			t.Errorf("%v: %q does not list the options taken", tc.opts, de.Message)
		}
	}
	if err := (sdk.Schema{}).CheckOptions(map[string]string{"x": "1"}); err == nil || !strings.Contains(err.Error(), "it takes no options") {
		t.Errorf("no options declared: %v", err)
	}
}
