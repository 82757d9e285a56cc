package pdf

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestParsePages(t *testing.T) {
	tests := []struct {
		spec    string
		count   int
		want    []int
		wantErr string
	}{
		{"", 3, []int{0, 1, 2}, ""},
		{"1-3,7", 9, []int{0, 1, 2, 6}, ""},
		{" 2 , 2-3 ", 4, []int{1, 2}, ""},
		{"5", 5, []int{4}, ""},
		{"6", 5, nil, "past the last page (5)"},
		{"0", 5, nil, "not a page number"},
		{"3-1", 5, nil, "runs backwards"},
		{"a-b", 5, nil, "not a page number"},
		{"1,,2", 5, nil, "not a page number"},
		{"-2", 5, nil, "not a page number"},
	}
	for _, tt := range tests {
		got, err := parsePages(tt.spec, tt.count)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("parsePages(%q): err %v, want %q", tt.spec, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("parsePages(%q) = %v, %v; want %v", tt.spec, got, err, tt.want)
		}
	}
}

func TestFirstPages(t *testing.T) {
	tests := []struct {
		n       string
		want    []int
		wantErr bool
	}{
		{"", []int{0, 1, 2}, false},
		{"1", []int{0}, false},
		{"2", []int{0, 1}, false},
		{"9", []int{0, 1, 2}, false},
		{"0", nil, true},
		{"x", nil, true},
	}
	for _, tc := range tests {
		got, err := firstPages([]int{0, 1, 2}, tc.n)
		if (err != nil) != tc.wantErr || fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("firstPages(%q) = %v, %v; want %v", tc.n, got, err, tc.want)
		}
	}
}
