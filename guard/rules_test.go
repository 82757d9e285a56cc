package guard

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"net/netip"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestRulesNameEveryRefusal: every refusal sift's code makes (a call of
// blocked, or of Refuse from any package) names a rule Rules lists, so
// its metric series exists at zero before the first refusal.
func TestRulesNameEveryRefusal(t *testing.T) {
	rules := Rules()
	fset := token.NewFileSet()
	found := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 || !refusalCall(call.Fun, f.Name.Name) {
				return true
			}
			if id, ok := call.Args[0].(*ast.Ident); ok && id.Name == "format" {
				return true // Refuse passing its own format on
			}
			lit, ok := call.Args[0].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				t.Errorf("%s: a refusal whose format is no literal: its rule cannot be listed", fset.Position(call.Pos()))
				return true
			}
			format, _ := strconv.Unquote(lit.Value)
			found++
			if !slices.Contains(rules, ruleOf(format)) {
				t.Errorf("%s: rule %q of %q is not in Rules (add the format to refusalFormats)", fset.Position(call.Pos()), ruleOf(format), format)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found < len(refusalFormats) {
		t.Errorf("found %d refusals in the source, fewer than the %d formats listed", found, len(refusalFormats))
	}
}

// refusalCall reports whether fun is blocked or Refuse in package guard,
// or guard.Refuse elsewhere.
func refusalCall(fun ast.Expr, pkg string) bool {
	switch f := fun.(type) {
	case *ast.Ident:
		return pkg == "guard" && (f.Name == "blocked" || f.Name == "Refuse")
	case *ast.SelectorExpr:
		x, ok := f.X.(*ast.Ident)
		return ok && x.Name == "guard" && f.Sel.Name == "Refuse"
	}
	return false
}

// TestRulesNameEveryAddressRefusal: each address the registry refuses is
// refused under a rule Rules lists.
func TestRulesNameEveryAddressRefusal(t *testing.T) {
	rules := Rules()
	p := DefaultPolicy()
	for _, r := range registry {
		if b := p.refusal(r.prefix.Addr()); b != nil && !slices.Contains(rules, b.Rule) {
			t.Errorf("%s refused as %q, not in Rules", r.prefix, b.Rule)
		}
	}
	for _, a := range []string{"fe80::1%eth0", "2001:db8::5efe:a00:1", "2600::200:5efe:a00:1"} {
		if b := p.refusal(netip.MustParseAddr(a)); b == nil || !slices.Contains(rules, b.Rule) {
			t.Errorf("%s refused as %v, want a rule Rules lists", a, b)
		}
	}
}
