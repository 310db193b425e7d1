package tui

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
)

// A key context is the set of bindings one key press may be tested
// against; the first that matches wins, silently (CONTRIBUTING.md "Add a
// key"). TestNoKeySharedInOneContext does not list the contexts by hand: it
// reads the routing code, from handleKey through every function of ours it
// calls, and follows its branches. A case or an if that returns is a
// context of its own (an overlay, the rename prompt, a pane, the card),
// code that falls through adds to the same one (the @ popup's keys, then
// the global keys, then the focused widget's), and a comparison of the
// Model's state with one of our constants (m.focus == FocusInput,
// m.overlay.open != ovNone) rules out the branches it contradicts. A new
// binding, or a new place that matches one, is covered without touching
// the test.

// keyShare is a deliberate share of one key by two bindings in one
// context, with the reason it is no conflict there.
type keyShare struct {
	a, b string // KeyMap field names, in either order
	key  string
	why  string
}

// keyShares are the deliberate shares. Each must still be found in some
// context: an exception nothing needs any more fails the test too.
var keyShares = []keyShare{
	// The same thing under two names.
	{"Bottom", "JumpLatest", "end", "both go to the newest line: the chat's newest post, the help's end"},
	{"NextField", "NextFieldAlways", "tab", "both go to the next field; NextFieldAlways is Tab alone, which also leaves the env field"},
	{"PrevField", "PrevFieldAlways", "shift+tab", "both go to the previous field, as NextFieldAlways"},
	// A list opened over a field takes its keys first while it is open,
	// as a completion list does; closed, the keys are the field's again.
	{"PopupUp", "HistoryPrev", "up", atPopup},
	{"PopupDown", "HistoryNext", "down", atPopup},
	{"PopupUp", "textarea.LinePrevious", "up", atPopup},
	{"PopupDown", "textarea.LineNext", "down", atPopup},
	{"Pick", "Send", "enter", atPopup},
	{"Pick", "FocusNext", "tab", atPopup},
	{"PickerUp", "PrevField", "up", stylesList},
	{"PickerDown", "NextField", "down", stylesList},
	{"PickerOpen", "ChoiceNext", "enter", stylesList},
	{"PickerOpen", "ChooseAnswer", "enter", stylesList},
	// One key, two meanings by state, each tested before the other can
	// see it.
	{"OpenAttachment", "ToggleFold", "enter", "Enter opens the chosen attachment of a post that has any (chatKey tests that first); Space still folds it"},
	{"Cancel", "FocusInput", "esc", "on a focused card Esc leaves it, back where focus was (cardKey); the global keys see only what the card did not take"},
	{"HistoryPrev", "textarea.LinePrevious", "up", inputArrows},
	{"HistoryNext", "textarea.LineNext", "down", inputArrows},
	{"JumpLatest", "textarea.LineEnd", "end", "End moves the caret to its line's end; only there does it bring the chat to its newest post (globalKey)"},
}

const (
	atPopup     = "the @ popup, open over the input bar, takes the key first (popupKey)"
	stylesList  = "the styles list, open over the character field, takes the key first (pickKey)"
	inputArrows = "the arrows recall own posts in an empty bar, or from a recalled post's first or last line (recallKey); elsewhere they move between lines"
)

// kcPath is one way through the routing: the bindings matched on it, the
// functions that matched them (for the message), and what it assumed of
// the Model's state ("Model.focus" is or is not "FocusInput").
type kcPath struct {
	binds map[string]bool
	via   []string
	is    map[string]string
	isNot map[string]bool // "Model.focus=FocusInput"
	done  bool            // returned: nothing after it in its function runs
}

func newKCPath() kcPath {
	return kcPath{binds: map[string]bool{}, is: map[string]string{}, isNot: map[string]bool{}}
}

func (p kcPath) clone() kcPath {
	return kcPath{binds: maps.Clone(p.binds), via: slices.Clone(p.via), is: maps.Clone(p.is), isNot: maps.Clone(p.isNot), done: p.done}
}

// join adds a callee's way to p; false when the two contradict.
func (p kcPath) join(q kcPath) (kcPath, bool) {
	r := p.clone()
	maps.Copy(r.binds, q.binds)
	for _, f := range q.via {
		if !slices.Contains(r.via, f) {
			r.via = append(r.via, f)
		}
	}
	for x, v := range q.is {
		if !r.assume(kcFact{x, v, true}) {
			return r, false
		}
	}
	for xv := range q.isNot {
		x, v, _ := strings.Cut(xv, "=")
		if !r.assume(kcFact{x, v, false}) {
			return r, false
		}
	}
	return r, true
}

// kcFact is "x == v" (or "x != v") for x a path into the Model and v one
// of our constants.
type kcFact struct {
	x, v string
	eq   bool
}

// assume records f on p (already cloned); false when p contradicts it.
func (p *kcPath) assume(f kcFact) bool {
	cur, known := p.is[f.x]
	if f.eq {
		if known && cur != f.v || p.isNot[f.x+"="+f.v] {
			return false
		}
		p.is[f.x] = f.v
		return true
	}
	if known && cur == f.v {
		return false
	}
	p.isNot[f.x+"="+f.v] = true
	return true
}

// covers reports whether q finds every conflict p would: it holds p's
// bindings, assumes no more than p, and goes on wherever p goes on.
func (q kcPath) covers(p kcPath) bool {
	if len(p.binds) > len(q.binds) || !p.done && q.done {
		return false
	}
	for b := range p.binds {
		if !q.binds[b] {
			return false
		}
	}
	for x, v := range q.is {
		if p.is[x] != v {
			return false
		}
	}
	for xv := range q.isNot {
		x, v, _ := strings.Cut(xv, "=")
		if is, known := p.is[x]; !p.isNot[xv] && (!known || is == v) {
			return false
		}
	}
	return true
}

// kcPrune drops every way another one covers.
func kcPrune(ps []kcPath) []kcPath {
	var out []kcPath
	for i, p := range ps {
		covered := false
		for j, q := range ps {
			// Of two that cover each other the first stays.
			if i != j && q.covers(p) && (j < i || !p.covers(q)) {
				covered = true
				break
			}
		}
		if !covered {
			out = append(out, p)
		}
	}
	return out
}

// kcWalker follows the routing through the package's functions.
type kcWalker struct {
	// elsewhere are the bindings a library widget matches inside one of
	// our methods ("inputBar.update"), with no key.Matches of ours.
	elsewhere map[string][]string
	info      *types.Info
	decls     map[*types.Func]*ast.FuncDecl
	keyMap    types.Type
	model     types.Type
	memo      map[*types.Func][]kcPath
	busy      map[*types.Func]bool
	cur       string // the function being read
}

// ways are the ways through fn, done or not.
func (w *kcWalker) ways(fn *types.Func) []kcPath {
	if ps, ok := w.memo[fn]; ok {
		return ps
	}
	if w.busy[fn] {
		return []kcPath{newKCPath()}
	}
	w.busy[fn] = true
	defer delete(w.busy, fn)
	saved := w.cur
	w.cur = fn.Name()
	defer func() { w.cur = saved }()
	start := newKCPath()
	if recv := fn.Type().(*types.Signature).Recv(); recv != nil {
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := t.(*types.Named); ok {
			for _, b := range w.elsewhere[n.Obj().Name()+"."+fn.Name()] {
				start.binds[b] = true
				start.via = []string{fn.Name()}
			}
		}
	}
	var out []kcPath
	for _, p := range w.block(w.decls[fn].Body.List, []kcPath{start}) {
		p.done = false
		out = append(out, p)
	}
	out = kcPrune(out)
	w.memo[fn] = out
	return out
}

func (w *kcWalker) block(list []ast.Stmt, ps []kcPath) []kcPath {
	for _, s := range list {
		ps = w.stmt(s, ps)
	}
	return ps
}

// stmt runs s on the ways still going; those that returned pass by.
func (w *kcWalker) stmt(s ast.Stmt, in []kcPath) []kcPath {
	var live, out []kcPath
	for _, p := range in {
		if p.done {
			out = append(out, p)
		} else {
			live = append(live, p)
		}
	}
	if len(live) == 0 || s == nil {
		return in
	}
	return kcPrune(append(out, w.run(s, live)...))
}

func (w *kcWalker) run(s ast.Stmt, ps []kcPath) []kcPath {
	switch s := s.(type) {
	case *ast.ReturnStmt:
		ps = w.expr(s, ps)
		for i := range ps {
			ps[i].done = true
		}
		return ps
	case *ast.BlockStmt:
		return w.block(s.List, ps)
	case *ast.LabeledStmt:
		return w.stmt(s.Stmt, ps)
	case *ast.IfStmt:
		ps = w.stmt(s.Init, ps)
		yes, no := w.test(s.Cond, ps)
		if s.Else != nil {
			no = w.stmt(s.Else, no)
		}
		return append(w.block(s.Body.List, yes), no...)
	case *ast.SwitchStmt:
		ps = w.stmt(s.Init, ps)
		if s.Tag != nil {
			ps = w.expr(s.Tag, ps)
		}
		return w.clauses(s.Tag, s.Body, ps)
	case *ast.TypeSwitchStmt:
		ps = w.stmt(s.Init, ps)
		return w.clauses(nil, s.Body, w.stmt(s.Assign, ps))
	case *ast.ForStmt:
		ps = w.stmt(s.Init, ps)
		if s.Cond != nil {
			ps = w.expr(s.Cond, ps)
		}
		return append(ps, w.block(s.Body.List, ps)...)
	case *ast.RangeStmt:
		ps = w.expr(s.X, ps)
		return append(ps, w.block(s.Body.List, ps)...)
	default:
		return w.expr(s, ps)
	}
}

// clauses: each case is one way on, after every earlier case was tried and
// failed; so is matching none (default, or nothing).
func (w *kcWalker) clauses(tag ast.Expr, body *ast.BlockStmt, ps []kcPath) []kcPath {
	var out []kcPath
	var dflt *ast.CaseClause
	for _, c := range body.List {
		cc, ok := c.(*ast.CaseClause)
		if !ok {
			continue
		}
		if cc.List == nil {
			dflt = cc
			continue
		}
		yes, no := w.cases(tag, cc.List, ps)
		out = append(out, w.block(cc.Body, yes)...)
		ps = no
	}
	if dflt != nil {
		return append(out, w.block(dflt.Body, ps)...)
	}
	return append(out, ps...)
}

// cases splits ps on a case's list: the ways that take it, and those that
// go on to the next case.
func (w *kcWalker) cases(tag ast.Expr, list []ast.Expr, ps []kcPath) (yes, no []kcPath) {
	if tag == nil && len(list) == 1 {
		return w.test(list[0], ps)
	}
	for _, e := range list {
		ps = w.expr(e, ps)
	}
	yes, no = ps, ps
	if tag != nil {
		for _, e := range list {
			if f, ok := w.fact(&ast.BinaryExpr{X: tag, Op: token.EQL, Y: e}); ok {
				if len(list) == 1 {
					yes = w.assumeAll(yes, f)
				}
				no = w.assumeAll(no, kcFact{f.x, f.v, false})
			}
		}
	}
	return yes, no
}

// test splits ps on a condition: the ways where it holds (every conjunct
// tested and true) and where it does not (the conjuncts before the false
// one tested too, as && stops there).
func (w *kcWalker) test(cond ast.Expr, ps []kcPath) (yes, no []kcPath) {
	for _, c := range kcConjuncts(cond) {
		f, isFact := w.fact(c)
		ps = w.expr(c, ps)
		if isFact {
			no = append(no, w.assumeAll(ps, kcFact{f.x, f.v, !f.eq})...)
			ps = w.assumeAll(ps, f)
		} else {
			no = append(no, ps...)
		}
	}
	return ps, kcPrune(no)
}

func (w *kcWalker) assumeAll(ps []kcPath, f kcFact) []kcPath {
	var out []kcPath
	for _, p := range ps {
		q := p.clone()
		if q.assume(f) {
			out = append(out, q)
		}
	}
	return out
}

func kcConjuncts(e ast.Expr) []ast.Expr {
	e = ast.Unparen(e)
	if b, ok := e.(*ast.BinaryExpr); ok && b.Op == token.LAND {
		return append(kcConjuncts(b.X), kcConjuncts(b.Y)...)
	}
	return []ast.Expr{e}
}

// fact reads "x == c" or "x != c" with x a path into the Model
// (m.focus, m.overlay.open) and c one of our constants.
func (w *kcWalker) fact(e ast.Expr) (kcFact, bool) {
	b, ok := ast.Unparen(e).(*ast.BinaryExpr)
	if !ok || b.Op != token.EQL && b.Op != token.NEQ {
		return kcFact{}, false
	}
	x, v := w.modelPath(b.X), w.constName(b.Y)
	if x == "" || v == "" {
		x, v = w.modelPath(b.Y), w.constName(b.X)
	}
	return kcFact{x, v, b.Op == token.EQL}, x != "" && v != ""
}

// modelPath is "Model.focus" for m.focus, whatever the receiver's name;
// "" for anything not reached from a *Model.
func (w *kcWalker) modelPath(e ast.Expr) string {
	var fields []string
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			fields = append([]string{x.Sel.Name}, fields...)
			e = x.X
			continue
		case *ast.Ident:
			v, ok := w.info.Uses[x].(*types.Var)
			if !ok || len(fields) == 0 || !types.Identical(v.Type(), types.NewPointer(w.model)) {
				return ""
			}
			return "Model." + strings.Join(fields, ".")
		}
		return ""
	}
}

func (w *kcWalker) constName(e ast.Expr) string {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		if c, ok := w.info.Uses[id].(*types.Const); ok && c.Pkg() != nil && c.Pkg().Name() == "tui" {
			return c.Name()
		}
	}
	return ""
}

// expr adds the bindings n matches and the ways through the functions of
// ours it calls. A function literal runs later (a command), not on this
// key.
func (w *kcWalker) expr(n ast.Node, ps []kcPath) []kcPath {
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if binds := w.matched(n); binds != nil {
				for i := range ps {
					ps[i] = ps[i].clone()
					maps.Copy(ps[i].binds, binds)
					if !slices.Contains(ps[i].via, w.cur) {
						ps[i].via = append(ps[i].via, w.cur)
					}
				}
				return true
			}
			fn := w.callee(n)
			if fn == nil {
				return true
			}
			var next []kcPath
			for _, p := range ps {
				for _, q := range w.ways(fn) {
					if r, ok := p.join(q); ok {
						next = append(next, r)
					}
				}
			}
			ps = kcPrune(next)
		}
		return true
	})
	return ps
}

// callee is the function or method of ours c calls; nil for any other.
func (w *kcWalker) callee(c *ast.CallExpr) *types.Func {
	var id *ast.Ident
	switch f := ast.Unparen(c.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return nil
	}
	fn, _ := w.info.Uses[id].(*types.Func)
	if fn == nil || w.decls[fn.Origin()] == nil {
		return nil
	}
	return fn.Origin()
}

// matched is the KeyMap fields a key.Matches call tests; nil for any other
// call.
func (w *kcWalker) matched(c *ast.CallExpr) map[string]bool {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Matches" {
		return nil
	}
	if id, ok := sel.X.(*ast.Ident); !ok || id.Name != "key" {
		return nil
	}
	out := map[string]bool{}
	for _, a := range c.Args[1:] {
		s, ok := a.(*ast.SelectorExpr)
		if !ok {
			continue
		}
		if t := w.info.TypeOf(s.X); t != nil && (types.Identical(t, w.keyMap) || types.Identical(t, types.NewPointer(w.keyMap))) {
			out[s.Sel.Name] = true
		}
	}
	return out
}

// kcImporter hands the type checker empty packages: only our own types
// matter here, and a test must not build the world to read this package.
type kcImporter map[string]*types.Package

func (im kcImporter) Import(path string) (*types.Package, error) {
	if p, ok := im[path]; ok {
		return p, nil
	}
	parts := strings.Split(path, "/")
	name := parts[len(parts)-1]
	if len(parts) > 1 && len(name) > 1 && name[0] == 'v' && strings.Trim(name[1:], "0123456789") == "" {
		name = parts[len(parts)-2] // charm.land/bubbletea/v2
	}
	p := types.NewPackage(path, name)
	p.MarkComplete()
	im[path] = p
	return p, nil
}

// keyContexts reads the package's routing and returns the sets of
// bindings live together on a key press; elsewhere as in kcWalker.
func keyContexts(t *testing.T, elsewhere map[string][]string) []kcPath {
	t.Helper()
	bp, err := build.ImportDir(".", 0) // this platform's files, no tests
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}, Types: map[ast.Expr]types.TypeAndValue{}}
	conf := types.Config{Importer: kcImporter{}, Error: func(error) {}} // other packages' names do not resolve
	pkg, _ := conf.Check("github.com/pullcept/pullcept/tui", fset, files, info)
	w := &kcWalker{elsewhere: elsewhere, info: info, decls: map[*types.Func]*ast.FuncDecl{}, memo: map[*types.Func][]kcPath{}, busy: map[*types.Func]bool{},
		keyMap: pkg.Scope().Lookup("KeyMap").Type(), model: pkg.Scope().Lookup("Model").Type()}
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				w.decls[info.Defs[fd.Name].(*types.Func)] = fd
			}
		}
	}
	root, ok := pkg.Scope().Lookup("Model").Type().(*types.Named)
	if !ok {
		t.Fatal("no Model type")
	}
	for i := range root.NumMethods() {
		if m := root.Method(i); m.Name() == "handleKey" {
			return w.ways(m)
		}
	}
	t.Fatal("no Model.handleKey: the key routing moved; point keyContexts at it")
	return nil
}

func TestNoKeySharedInOneContext(t *testing.T) {
	t.Parallel()
	km := DefaultKeyMap()
	keysOf := map[string][]string{}
	kv := reflect.ValueOf(km)
	for i := range kv.NumField() {
		keysOf[kv.Type().Field(i).Name] = kv.Field(i).Interface().(key.Binding).Keys()
	}
	// The input bar's textarea matches its own key map once our keys fell
	// through to inputBar.update: newInputBar takes out of it the keys the
	// root model owns, and this keeps it so. Its InsertNewline is Newline.
	bar := []string{"Newline"}
	ib := newInputBar(&env{th: newTheme(true), tr: catalog{lang: LangEnglish}, keys: &km}, &km)
	tv := reflect.ValueOf(ib.ta.KeyMap)
	for i := range tv.NumField() {
		b, ok := tv.Field(i).Interface().(key.Binding)
		if name := "textarea." + tv.Type().Field(i).Name; ok && len(b.Keys()) > 0 && name != "textarea.InsertNewline" {
			keysOf[name] = b.Keys()
			bar = append(bar, name)
		}
	}
	used, live := map[int]bool{}, map[string]bool{}
	for _, c := range keyContexts(t, map[string][]string{"inputBar.update": bar}) {
		if len(c.binds) == 0 {
			continue
		}
		maps.Copy(live, c.binds)
		where := strings.Join(c.via, " › ")
		owners := map[string][]string{}
		for _, b := range slices.Sorted(maps.Keys(c.binds)) {
			for _, k := range keysOf[b] {
				owners[k] = append(owners[k], b)
			}
		}
		for _, k := range slices.Sorted(maps.Keys(owners)) {
			bs := owners[k]
			for i := range bs {
				for _, b := range bs[i+1:] {
					j := slices.IndexFunc(keyShares, func(s keyShare) bool {
						return s.key == k && (s.a == bs[i] && s.b == b || s.a == b && s.b == bs[i])
					})
					if j < 0 {
						t.Errorf("%q is both %s and %s in %s: the first to be tested takes it", k, bs[i], b, where)
						continue
					}
					used[j] = true
				}
			}
		}
		t.Logf("%s: %d bindings", where, len(c.binds))
	}
	// A binding in no context is matched where the walk does not reach
	// (a new entry point?) or nowhere: either way this test misses it.
	for _, b := range slices.Sorted(maps.Keys(keysOf)) {
		if !live[b] {
			t.Errorf("%s is in no key context", b)
		}
	}
	for i, s := range keyShares {
		switch {
		case s.why == "":
			t.Errorf("the share of %q by %s and %s gives no reason", s.key, s.a, s.b)
		case !used[i]:
			t.Errorf("no context shares %q between %s and %s any more (%s): drop the exception", s.key, s.a, s.b, s.why)
		}
	}
}
