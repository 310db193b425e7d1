package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// goIndex is what the repository's Go code declares, by name: enough to
// tell whether a name a doc uses exists, not to type-check it.
type goIndex struct {
	pkgs  map[string]map[string]bool // package name → its top-level names
	types map[string][]*typeInfo     // type name → the types of that name
	byKey map[string]*typeInfo       // "dir name" → that package's type
	tests map[string]bool            // Test…, Benchmark…, Fuzz…, Example… funcs
	names map[string]bool            // every identifier, and every word of a string literal
	dirs  []pkgDir                   // every package directory, root-relative
}

// typeInfo is one declared type's fields and methods, and the types it
// embeds (by name; their members are its members too).
type typeInfo struct {
	pkg      string // its package's name
	members  map[string]bool
	embedded []string
}

// pkgDir is one directory of Go files: its package name and package doc.
type pkgDir struct {
	dir  string // root-relative, "." for the root
	name string
	docs []docComment
}

// docComment is a package clause's doc comment in file (root-relative).
type docComment struct {
	file string
	line int      // of its first line
	text []string // its lines without the comment markers
}

// skipDir reports whether the walk leaves dir out: hidden directories,
// node_modules, and testdata below a package (fixtures, not packages; the
// root's testdata holds Go packages for tests).
func skipDir(rel, name string) bool {
	if rel == "." {
		return false
	}
	if strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "node_modules" {
		return true
	}
	return name == "testdata" && rel != "testdata"
}

// indexGo parses every .go file under root (build constraints ignored:
// a name declared for one OS exists).
func indexGo(root string) (*goIndex, error) {
	ix := &goIndex{pkgs: map[string]map[string]bool{}, types: map[string][]*typeInfo{}, byKey: map[string]*typeInfo{}, tests: map[string]bool{}, names: map[string]bool{}}
	byDir := map[string]*pkgDir{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if skipDir(rel, d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ix.addFile(fset, byDir, filepath.ToSlash(rel), f)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, p := range byDir {
		ix.dirs = append(ix.dirs, *p)
	}
	slices.SortFunc(ix.dirs, func(a, b pkgDir) int { return strings.Compare(a.dir, b.dir) })
	return ix, nil
}

// addFile records f's declarations and package doc.
func (ix *goIndex) addFile(fset *token.FileSet, byDir map[string]*pkgDir, rel string, f *ast.File) {
	dir := filepath.ToSlash(filepath.Dir(rel))
	name := f.Name.Name
	test := strings.HasSuffix(rel, "_test.go")
	p := byDir[dir]
	if p == nil {
		p = &pkgDir{dir: dir}
		byDir[dir] = p
	}
	if !strings.HasSuffix(name, "_test") {
		if p.name == "" || !test {
			p.name = name
		}
	}
	if f.Doc != nil {
		p.docs = append(p.docs, commentOf(fset, rel, f.Doc))
	}
	decls := ix.pkgs[name]
	if decls == nil {
		decls = map[string]bool{}
		ix.pkgs[name] = decls
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			ix.addFunc(dir, name, decls, d, test)
		case *ast.GenDecl:
			ix.addGen(dir, name, decls, d)
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			ix.names[n.Name] = true
		case *ast.BasicLit:
			if n.Kind == token.STRING {
				for _, w := range wordsRE.FindAllString(n.Value, -1) {
					ix.names[w] = true
				}
			}
		}
		return true
	})
}

// wordsRE splits a string literal into the words a doc may quote.
var wordsRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// commentOf is c's lines without "//" or "/* */".
func commentOf(fset *token.FileSet, file string, c *ast.CommentGroup) docComment {
	dc := docComment{file: file, line: fset.Position(c.Pos()).Line}
	for _, l := range c.List {
		t := l.Text
		switch {
		case strings.HasPrefix(t, "//"):
			dc.text = append(dc.text, strings.TrimPrefix(t[2:], " "))
		default:
			t = strings.TrimSuffix(strings.TrimPrefix(t, "/*"), "*/")
			dc.text = append(dc.text, strings.Split(t, "\n")...)
		}
	}
	return dc
}

func (ix *goIndex) addFunc(dir, pkg string, decls map[string]bool, d *ast.FuncDecl, test bool) {
	name := d.Name.Name
	if d.Recv == nil || len(d.Recv.List) == 0 {
		decls[name] = true
		if test && isTestName(name) {
			ix.tests[name] = true
		}
		return
	}
	if recv := typeName(d.Recv.List[0].Type); recv != "" {
		ix.typeOf(dir, pkg, recv).members[name] = true
	}
}

// typeOf is the typeInfo of type name in the package at dir, made on first
// use (a method may come before its type).
func (ix *goIndex) typeOf(dir, pkg, name string) *typeInfo {
	key := dir + " " + name
	t := ix.byKey[key]
	if t == nil {
		t = &typeInfo{pkg: pkg, members: map[string]bool{}}
		ix.byKey[key] = t
		ix.types[name] = append(ix.types[name], t)
	}
	return t
}

func (ix *goIndex) addGen(dir, pkg string, decls map[string]bool, d *ast.GenDecl) {
	for _, s := range d.Specs {
		switch s := s.(type) {
		case *ast.ValueSpec:
			for _, n := range s.Names {
				decls[n.Name] = true
			}
		case *ast.TypeSpec:
			decls[s.Name.Name] = true
			addMembers(ix.typeOf(dir, pkg, s.Name.Name), s.Type)
		}
	}
}

// addMembers records the fields (struct) or methods (interface) of expr,
// and what it embeds.
func addMembers(t *typeInfo, expr ast.Expr) {
	var list *ast.FieldList
	switch e := expr.(type) {
	case *ast.StructType:
		list = e.Fields
	case *ast.InterfaceType:
		list = e.Methods
	}
	if list == nil {
		return
	}
	for _, f := range list.List {
		if len(f.Names) == 0 {
			if n := typeName(f.Type); n != "" {
				t.members[n] = true
				t.embedded = append(t.embedded, n)
			}
			continue
		}
		for _, n := range f.Names {
			t.members[n.Name] = true
		}
	}
}

// typeName is the name of the type expr names: T, *T, pkg.T, T[A].
func typeName(expr ast.Expr) string {
	switch e := expr.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.StarExpr:
		return typeName(e.X)
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.IndexExpr:
		return typeName(e.X)
	case *ast.IndexListExpr:
		return typeName(e.X)
	}
	return ""
}

// hasMember reports whether a type named typ (of package pkg, or of any
// package when pkg is "") has member m, itself or through what it embeds.
func (ix *goIndex) hasMember(pkg, typ, m string) bool {
	return ix.memberIn(pkg, typ, m, map[string]bool{})
}

func (ix *goIndex) memberIn(pkg, typ, m string, seen map[string]bool) bool {
	if seen[pkg+" "+typ] {
		return false
	}
	seen[pkg+" "+typ] = true
	for _, t := range ix.types[typ] {
		if pkg != "" && t.pkg != pkg {
			continue
		}
		if t.members[m] {
			return true
		}
		for _, e := range t.embedded {
			if ix.memberIn("", e, m, seen) {
				return true
			}
		}
	}
	return false
}

// isTestName reports whether name is a test, benchmark, fuzz target or
// example's name.
func isTestName(name string) bool {
	for _, p := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
		if rest, ok := strings.CutPrefix(name, p); ok && (rest == "" || !isLower(rest[0])) {
			return true
		}
	}
	return false
}

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }

// fileExists reports whether the root-relative path exists.
func fileExists(root, rel string) bool {
	_, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel)))
	return err == nil
}
