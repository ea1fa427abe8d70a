package docs

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/intenthook/intenthook/internal/ledger"
)

// TestSpecComplete holds docs/spec.md to the code: every name the code
// gives a part of the contract appears in the spec in code format
// (`scope_violation`). The names are read from the code itself, so that
// one added later without a line in the spec fails here:
//
//   - deny, violation, repair and finding codes: every string constant
//     named Code… under internal/, and every constant a Finding of package
//     audit or precommit is made with;
//   - the events a hook call carries (package hook's "Events" constants)
//     and a record stands for (package ledger's Event… constants);
//   - tool classes (hook.Class), intent statuses (intents.Status),
//     mutation classes and scope values (package ledger's groups of them);
//   - every JSON field of a ledger record (ledger.Record, by reflection);
//   - every key config.yaml may hold (package config's topKeys).
func TestSpecComplete(t *testing.T) {
	data, err := os.ReadFile("spec.md")
	if err != nil {
		t.Fatal(err)
	}
	spec := string(data)
	code, err := readCode(filepath.Join("..", "internal"))
	if err != nil {
		t.Fatal(err)
	}
	kinds := []struct {
		what  string
		names []named
		least int // fewer found means the scan is broken
	}{
		{"code", code.consts(func(c constant) bool { return strings.HasPrefix(c.name, "Code") && len(c.name) > 4 }), 20},
		{"finding code", append(code.findingCodes("audit"), code.findingCodes("precommit")...), 15},
		{"hook event", code.consts(func(c constant) bool { return c.pkg == "hook" && strings.HasPrefix(c.doc, "Events") }), 8},
		{"record event", code.consts(func(c constant) bool { return c.pkg == "ledger" && strings.HasPrefix(c.name, "Event") }), 10},
		{"tool class", code.consts(func(c constant) bool { return c.pkg == "hook" && c.typ == "Class" }), 7},
		{"intent status", code.consts(func(c constant) bool { return c.pkg == "intents" && c.typ == "Status" }), 6},
		{"mutation class", code.consts(func(c constant) bool { return c.pkg == "ledger" && strings.HasPrefix(c.doc, "Mutation classes") }), 6},
		{"scope value", code.consts(func(c constant) bool { return c.pkg == "ledger" && strings.HasPrefix(c.doc, "Scope validation") }), 4},
		{"record field", recordFields(reflect.TypeFor[ledger.Record](), "ledger.Record"), 40},
		{"setting", code.literalKeys("config", "topKeys"), 15},
	}
	for _, k := range kinds {
		if len(k.names) < k.least {
			t.Errorf("found %d %ss in the code, fewer than %d: the scan is broken", len(k.names), k.what, k.least)
		}
		seen := map[string]bool{}
		for _, n := range k.names {
			if seen[n.value] {
				continue
			}
			seen[n.value] = true
			if !strings.Contains(spec, "`"+n.value+"`") {
				t.Errorf("docs/spec.md does not name the %s `%s` (%s): say what it is, in code format", k.what, n.value, n.where)
			}
		}
	}
}

// named is a name the spec must hold, and where the code gives it.
type named struct{ value, where string }

// constant is a string constant of a package under internal/.
type constant struct {
	pkg   string // the package's directory under internal/: hook, agent/protocol
	name  string
	typ   string // its declared type's name, if any
	doc   string // its group's comment, else its own
	value string
	where string
	expr  ast.Expr // a constant defined by another: resolved by resolve
	file  *ast.File
}

// source is the non-test Go code under internal/: its string constants
// and its files by package.
type source struct {
	byKey map[string]*constant // "pkg.Name"
	list  []*constant
	files map[string][]*ast.File // by package directory
	paths map[*ast.File]string
}

func readCode(root string) (*source, error) {
	s := &source{byKey: map[string]*constant{}, files: map[string][]*ast.File{}, paths: map[*ast.File]string{}}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		s.files[pkg] = append(s.files[pkg], f)
		s.paths[f] = shownPath(path)
		s.collect(pkg, f, path)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, c := range s.list {
		s.resolve(c, 0)
	}
	return s, nil
}

// collect records f's package-level string constants.
func (s *source) collect(pkg string, f *ast.File, path string) {
	for _, decl := range f.Decls {
		g, ok := decl.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			doc := g.Doc.Text()
			if g.Lparen == token.NoPos || doc == "" {
				doc = vs.Doc.Text()
			}
			typ := ""
			if id, ok := vs.Type.(*ast.Ident); ok {
				typ = id.Name
			}
			for i, name := range vs.Names {
				if i >= len(vs.Values) {
					continue
				}
				c := &constant{pkg: pkg, name: name.Name, typ: typ, doc: doc, file: f,
					where: shownPath(path) + ": " + name.Name}
				if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					c.value, _ = strconv.Unquote(lit.Value)
				} else {
					c.expr = vs.Values[i]
				}
				s.byKey[pkg+"."+name.Name] = c
				s.list = append(s.list, c)
			}
		}
	}
}

// resolve gives a constant defined by another constant (a = b,
// a = pkg.B) that one's value.
func (s *source) resolve(c *constant, depth int) {
	if c.expr == nil || depth > 8 {
		return
	}
	if ref := s.lookup(c.pkg, c.file, c.expr); ref != nil {
		s.resolve(ref, depth+1)
		if ref.expr == nil {
			c.value, c.expr = ref.value, nil
		}
	}
}

// lookup finds the constant an identifier or a package-qualified name
// of file f (in package pkg) refers to.
func (s *source) lookup(pkg string, f *ast.File, e ast.Expr) *constant {
	switch e := e.(type) {
	case *ast.Ident:
		return s.byKey[pkg+"."+e.Name]
	case *ast.SelectorExpr:
		x, ok := e.X.(*ast.Ident)
		if !ok {
			return nil
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			dir, ok := strings.CutPrefix(path, "github.com/intenthook/intenthook/internal/")
			if !ok {
				continue
			}
			name := dir[strings.LastIndexByte(dir, '/')+1:]
			if imp.Name != nil {
				name = imp.Name.Name
			}
			if name == x.Name {
				return s.byKey[dir+"."+e.Sel.Name]
			}
		}
	}
	return nil
}

// shownPath is a file's path from the repository's root.
func shownPath(path string) string {
	return strings.TrimPrefix(filepath.ToSlash(path), "../")
}

// consts returns the string constants keep accepts.
func (s *source) consts(keep func(constant) bool) []named {
	var out []named
	for _, c := range s.list {
		if c.expr == nil && keep(*c) {
			out = append(out, named{c.value, c.where})
		}
	}
	return out
}

// findingCodes returns the constants package pkg makes a Finding with:
// the value of the Code field in each Finding literal (keyed, or by the
// field's position), where it names a constant.
func (s *source) findingCodes(pkg string) []named {
	field := -1
	for _, f := range s.files[pkg] {
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok || ts.Name.Name != "Finding" {
				return true
			}
			if st, ok := ts.Type.(*ast.StructType); ok {
				i := 0
				for _, fl := range st.Fields.List {
					for _, name := range fl.Names {
						if name.Name == "Code" {
							field = i
						}
						i++
					}
				}
			}
			return false
		})
	}
	if field < 0 {
		return nil
	}
	var out []named
	for _, f := range s.files[pkg] {
		codeOf := func(lit *ast.CompositeLit) {
			for i, el := range lit.Elts {
				var e ast.Expr
				switch kv := el.(type) {
				case *ast.KeyValueExpr:
					if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Code" {
						e = kv.Value
					}
				default:
					if i == field {
						e = el
					}
				}
				if c := s.lookup(pkg, f, e); e != nil && c != nil && c.expr == nil {
					out = append(out, named{c.value, s.paths[f] + ": a Finding made with " + c.name})
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			switch t := lit.Type.(type) {
			case *ast.Ident:
				if t.Name == "Finding" {
					codeOf(lit)
				}
			case *ast.ArrayType:
				// []Finding{{…}}: the elements' type is left out.
				if id, ok := t.Elt.(*ast.Ident); ok && id.Name == "Finding" {
					for _, el := range lit.Elts {
						if inner, ok := el.(*ast.CompositeLit); ok && inner.Type == nil {
							codeOf(inner)
						}
					}
				}
			}
			return true
		})
	}
	return out
}

// literalKeys returns the strings of the literal package pkg's variable
// name is set to: a map's string keys, an array's or a slice's strings.
func (s *source) literalKeys(pkg, name string) []named {
	var out []named
	for _, f := range s.files[pkg] {
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if n.Name != name || i >= len(vs.Values) {
						continue
					}
					lit, ok := vs.Values[i].(*ast.CompositeLit)
					if !ok {
						continue
					}
					for _, el := range lit.Elts {
						if kv, ok := el.(*ast.KeyValueExpr); ok {
							el = kv.Key
						}
						if k, ok := el.(*ast.BasicLit); ok && k.Kind == token.STRING {
							key, _ := strconv.Unquote(k.Value)
							out = append(out, named{key, s.paths[f] + ": " + pkg + "." + name})
						}
					}
				}
			}
		}
	}
	return out
}

// recordFields returns the JSON names of t's fields and of the structs
// they hold, each with the Go path to it.
func recordFields(t reflect.Type, path string) []named {
	var out []named
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		out = append(out, named{name, path + "." + f.Name})
		out = append(out, recordFields(f.Type, path+"."+f.Name)...)
	}
	return out
}

func TestFindingCodesScan(t *testing.T) {
	code, err := readCode(filepath.Join("..", "internal"))
	if err != nil {
		t.Fatal(err)
	}
	var audit []string
	for _, n := range code.findingCodes("audit") {
		audit = append(audit, n.value)
	}
	// Made positionally, inside []Finding{{…}}, and through another
	// package's constant (CatalogRemoved = precommit.CodeCatalogRemoved).
	for _, want := range []string{"out_of_scope", "ledger_rewritten", "catalog_removed", "trace_gap"} {
		if !slices.Contains(audit, want) {
			t.Errorf("audit's finding codes %q lack %s", audit, want)
		}
	}
}
