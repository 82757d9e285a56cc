package firecrawl

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnifiedDiffMatchesDiffU: the git-diff mode's text has the hunks
// GNU diff -u writes for the same two texts.
func TestUnifiedDiffMatchesDiffU(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("diff"); err != nil {
		t.Skip("diff (diffutils) not installed")
	}
	lines := func(n int, f func(i int) string) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(f(i) + "\n")
		}
		return b.String()
	}
	base := lines(40, func(i int) string { return "line " + string(rune('a'+i%26)) + strings.Repeat("!", i/26) })
	tests := []struct{ name, before, after string }{
		{"one line changed", base, strings.Replace(base, "line e\n", "line E\n", 1)},
		{"two changes far apart", base, strings.Replace(strings.Replace(base, "line c\n", "line C\n", 1), "line z\n", "", 1)},
		{"two changes close", base, strings.Replace(strings.Replace(base, "line c\n", "line C\n", 1), "line h\n", "line H\nline H2\n", 1)},
		{"added at the end", base, base + "the end\n"},
		{"removed at the start", base, strings.TrimPrefix(base, "line a\n")},
		{"from nothing", "", "# Title\n\nfirst\n"},
		{"to nothing", "# Title\n\nfirst\n", ""},
		{"reordered", "a\nb\nc\nd\n", "d\nc\nb\na\n"},
	}
	dir := t.TempDir()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			prefix := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"))
			_ = os.WriteFile(prefix+".a", []byte(tc.before), 0o600)
			_ = os.WriteFile(prefix+".b", []byte(tc.after), 0o600)
			out, err := exec.Command("diff", "-u", prefix+".a", prefix+".b").Output()
			if ee, ok := errors.AsType[*exec.ExitError](err); err != nil && (!ok || ee.ExitCode() != 1) {
				t.Fatal(err)
			}
			want := string(out[strings.Index(string(out), "@@"):])
			got := unifiedDiff(tc.before, tc.after)
			if body := got.Text[strings.Index(got.Text, "@@"):]; body != want {
				t.Errorf("got\n%s\nwant (diff -u)\n%s", body, want)
			}
			if !strings.HasPrefix(got.Text, "--- previous\n+++ current\n") {
				t.Errorf("header: %q", got.Text)
			}
			var adds, dels int
			for _, c := range got.JSON.Files[0].Chunks {
				for _, ch := range c.Changes {
					switch ch.Type {
					case "add":
						adds++
					case "del":
						dels++
					}
				}
			}
			if wantAdds, wantDels := strings.Count(want, "\n+"), strings.Count(want, "\n-"); adds != wantAdds || dels != wantDels {
				t.Errorf("json: %d adds and %d dels, diff -u %d and %d", adds, dels, wantAdds, wantDels)
			}
		})
	}
}
