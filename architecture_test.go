package sift_test

import (
	"bufio"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/siftd/sift"

// importRule is one row of ARCHITECTURE.md's package map.
type importRule struct {
	packages []string // paths relative to the module; "x/…" covers a subtree
	allowed  []string // the same, and "*" for any package but cmd/…
}

var backticked = regexp.MustCompile("`([^`]+)`")

// readImportMap reads the table under "## Which package owns what": its
// first column names the packages, its third what they may import.
func readImportMap(path string) ([]importRule, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rules []importRule
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			in = line == "## Which package owns what"
			continue
		}
		if !in || !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		if len(cells) != 3 {
			return nil, fmt.Errorf("%s: a row of the package map needs 3 cells: %q", path, line)
		}
		rules = append(rules, importRule{packages: ticked(cells[0]), allowed: ticked(cells[2])})
	}
	if len(rules) == 0 {
		return nil, fmt.Errorf("%s: no package map", path)
	}
	return rules, sc.Err()
}

// ticked returns the backticked package paths of a cell; the root package
// is written `sift`.
func ticked(cell string) []string {
	var out []string
	for _, m := range backticked.FindAllStringSubmatch(cell, -1) {
		out = append(out, m[1])
	}
	return out
}

// covers reports whether pattern names pkg, and how specifically: an exact
// path beats a subtree, a longer subtree a shorter one.
func covers(pattern, pkg string) (bool, int) {
	if tree, ok := strings.CutSuffix(pattern, "/…"); ok {
		if pkg == tree || strings.HasPrefix(pkg, tree+"/") {
			return true, len(tree)
		}
		return false, 0
	}
	return pattern == pkg, 1 << 20
}

// ruleFor returns the most specific row naming pkg.
func ruleFor(rules []importRule, pkg string) (importRule, bool) {
	best, bestRank, found := importRule{}, -1, false
	for _, r := range rules {
		for _, p := range r.packages {
			if ok, rank := covers(p, pkg); ok && rank > bestRank {
				best, bestRank, found = r, rank, true
			}
		}
	}
	return best, found
}

// allows reports whether a package under r may import dep; a package may
// always import below itself.
func (r importRule) allows(pkg, dep string) bool {
	if strings.HasPrefix(dep, pkg+"/") {
		return true
	}
	for _, a := range r.allowed {
		if a == "*" && !strings.HasPrefix(dep, "cmd/") {
			return true
		}
		if ok, _ := covers(a, dep); ok {
			return true
		}
	}
	return false
}

// violations checks an import graph (package → the module's packages it
// imports, relative paths) against the rules.
func violations(rules []importRule, graph map[string][]string) []string {
	var out []string
	for pkg, deps := range graph {
		r, ok := ruleFor(rules, pkg)
		if !ok {
			out = append(out, pkg+" has no row in the package map")
			continue
		}
		for _, dep := range deps {
			if !r.allows(pkg, dep) {
				out = append(out, fmt.Sprintf("%s imports %s, which its row does not list", pkg, dep))
			}
		}
	}
	slices.Sort(out)
	return out
}

// moduleGraph lists the module's packages and, for each, the module's
// packages its non-test files import.
func moduleGraph(t *testing.T) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	graph := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := relative(fields[0])
		graph[pkg] = nil
		for _, imp := range fields[1:] {
			if imp == module || strings.HasPrefix(imp, module+"/") {
				graph[pkg] = append(graph[pkg], relative(imp))
			}
		}
	}
	return graph
}

func relative(importPath string) string {
	if importPath == module {
		return "sift"
	}
	return strings.TrimPrefix(importPath, module+"/")
}

// TestImportMap holds every package to its row of ARCHITECTURE.md's
// package map.
func TestImportMap(t *testing.T) {
	rules, err := readImportMap("ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	graph := moduleGraph(t)
	for _, v := range violations(rules, graph) {
		t.Error(v + " (change the import, or the map in ARCHITECTURE.md if the design changed)")
	}
	for _, r := range rules {
		for _, p := range r.packages {
			if nestedModule(p) {
				continue // a module of its own in this repository, which its own tests hold
			}
			if !slices.ContainsFunc(slices.Collect(maps.Keys(graph)), func(pkg string) bool { ok, _ := covers(p, pkg); return ok }) {
				t.Errorf("the package map's row %s names no package of the module", p)
			}
		}
	}
}

// nestedModule reports whether a row of the map names a module of its own
// in this repository (plugins/sdk): its packages are not this module's.
func nestedModule(row string) bool {
	_, err := os.Stat(strings.TrimSuffix(strings.TrimSuffix(row, "…"), "/") + "/go.mod")
	return err == nil
}

// TestImportMapCatches shows the check refusing what the map forbids: an
// upward import, a package without a row, and cmd/… behind "*".
func TestImportMapCatches(t *testing.T) {
	rules := []importRule{
		{packages: []string{"stages"}, allowed: []string{"guard"}},
		{packages: []string{"stages/kinds"}, allowed: []string{"stages/…"}},
		{packages: []string{"guard"}},
		{packages: []string{"server"}, allowed: []string{"stages/…"}},
		{packages: []string{"internal/app"}, allowed: []string{"*"}},
		{packages: []string{"cmd/sift"}, allowed: []string{"*"}},
	}
	graph := map[string][]string{
		"stages":       {"guard", "server"},
		"stages/kinds": {"stages", "stages/guard"},
		"stages/guard": {"guard"},
		"guard":        nil,
		"server":       {"stages", "stages/fetch"},
		"internal/app": {"server", "cmd/sift"},
		"cmd/sift":     {"internal/app"},
	}
	want := []string{
		"internal/app imports cmd/sift, which its row does not list",
		"stages imports server, which its row does not list",
		"stages/guard has no row in the package map",
	}
	if got := violations(rules, graph); !slices.Equal(got, want) {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
