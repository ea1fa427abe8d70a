package gate

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// maxGateMethods holds the Gate to the size the house issue set: a feature
// that needs the call's state takes a small type over the Gate (plugins,
// roles, delegations) or a package of its own (backstop, guard, selfprog),
// not one more method.
const maxGateMethods = 89

func TestGateMethods(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var names []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, e.Name(), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil {
				continue
			}
			typ := fn.Recv.List[0].Type
			if star, ok := typ.(*ast.StarExpr); ok {
				typ = star.X
			}
			if id, ok := typ.(*ast.Ident); ok && id.Name == "Gate" {
				names = append(names, fn.Name.Name)
			}
		}
	}
	if len(names) == 0 {
		t.Fatal("found no methods of Gate: the test reads the wrong files")
	}
	if len(names) > maxGateMethods {
		t.Errorf("Gate has %d methods, more than %d: give the feature its own type or package", len(names), maxGateMethods)
	}
	t.Logf("Gate has %d methods", len(names))
}
