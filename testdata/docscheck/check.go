package main

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// problem is one thing a document names that does not exist.
type problem struct {
	file string
	line int
	msg  string
}

func (p problem) String() string { return fmt.Sprintf("%s:%d: %s", p.file, p.line, p.msg) }

// key is the problem as pending.txt lists it: without its line.
func (p problem) key() string { return p.file + ": " + p.msg }

// notPaths are tokens shaped like a path of ours that name something else:
// Codex app-server methods (docs/clis.md §3.7).
var notPaths = map[string]bool{"config/read": true}

// aboutOthers are the documents about other people's programs and
// libraries, whose type names often are ours too (Screen, message,
// client): only package-qualified names are checked there.
var aboutOthers = map[string]bool{"docs/clis.md": true, "docs/dependencies.md": true}

// fileExts are last parts that make a dotted token a file name, not an
// identifier (config.json, pullcept.log).
var fileExts = map[string]bool{
	"go": true, "md": true, "json": true, "jsonl": true, "txt": true, "toml": true, "yml": true,
	"yaml": true, "sh": true, "log": true, "lock": true, "pid": true, "mjs": true, "js": true,
	"rs": true, "exe": true, "cmd": true, "dll": true, "png": true, "ansi": true, "golden": true,
	"mod": true, "sum": true, "test": true, "out": true, "html": true,
}

// checker holds what every check reads.
type checker struct {
	root     string
	ix       *goIndex
	top      map[string]bool // top-level entries (paths start with one)
	ignored  []string        // deeper paths .gitignore ignores (build output)
	outlines map[string]*outline
	problems []problem
}

// check runs every check over the documents under root.
func check(root string) ([]problem, error) {
	ix, err := indexGo(root)
	if err != nil {
		return nil, err
	}
	top, ignored, err := topLevel(root)
	if err != nil {
		return nil, err
	}
	c := &checker{root: root, ix: ix, top: top, ignored: ignored, outlines: map[string]*outline{}}
	files, err := markdownFiles(root)
	if err != nil {
		return nil, err
	}
	var docs []*document
	for _, f := range files {
		d, err := readMarkdown(root, f)
		if err != nil {
			return nil, err
		}
		c.outlines[f] = outlineOf(d)
		docs = append(docs, d)
	}
	docs = append(docs, packageDocs(ix)...)
	for _, d := range docs {
		c.checkDoc(d)
	}
	slices.SortFunc(c.problems, func(a, b problem) int {
		if a.file != b.file {
			return strings.Compare(a.file, b.file)
		}
		return a.line - b.line
	})
	return slices.Compact(c.problems), nil
}

// topLevel is the root's entries but .git and what the root's .gitignore
// ignores (build output: bin/, .bench/), and the deeper paths .gitignore
// names (testdata/clis/node_modules, made by make clis).
func topLevel(root string) (map[string]bool, []string, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, nil, err
	}
	var patterns, deeper []string
	if f, err := os.Open(filepath.Join(root, ".gitignore")); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			l := strings.Trim(strings.TrimSpace(sc.Text()), "/")
			switch {
			case l == "" || strings.HasPrefix(l, "#"):
			case strings.Contains(l, "/"):
				deeper = append(deeper, l)
			default:
				patterns = append(patterns, l)
			}
		}
		f.Close()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, err
	}
	top := map[string]bool{}
	for _, e := range entries {
		name := e.Name()
		skip := name == ".git"
		for _, pat := range patterns {
			if ok, _ := path.Match(pat, name); ok {
				skip = true
			}
		}
		if !skip {
			top[name] = true
		}
	}
	return top, deeper, nil
}

func (c *checker) report(d *document, text string, off int, format string, args ...any) {
	c.problems = append(c.problems, problem{file: d.file, line: d.lineAt(text, off), msg: fmt.Sprintf(format, args...)})
}

var (
	backtickRE = regexp.MustCompile("`([^`]+)`")
	linkRE     = regexp.MustCompile(`\[([^\]]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	wordRE     = regexp.MustCompile(`[^\s]+`)
)

// checkDoc runs the path, identifier and section checks over one document.
func (c *checker) checkDoc(d *document) {
	text := d.text()
	if d.markdown {
		for _, m := range backtickRE.FindAllStringSubmatchIndex(text, -1) {
			tok := strings.Join(strings.Fields(text[m[2]:m[3]]), " ")
			c.checkPath(d, text, m[2], tok)
			c.checkIdent(d, text, m[2], tok, !aboutOthers[d.file], !aboutOthers[d.file])
		}
		for _, m := range linkRE.FindAllStringSubmatchIndex(text, -1) {
			c.checkLink(d, text, m[4], text[m[4]:m[5]])
		}
	} else {
		for _, m := range wordRE.FindAllStringIndex(text, -1) {
			tok := trimWord(text[m[0]:m[1]])
			c.checkPath(d, text, m[0], tok)
			c.checkIdent(d, text, m[0], tok, true, false)
		}
	}
	c.checkSections(d, text)
}

// trimWord strips a prose word of the punctuation around it and a
// possessive 's.
func trimWord(w string) string {
	w = strings.TrimLeft(w, `("'«“‘[`)
	for {
		t := strings.TrimRight(w, `)"'».,;:!?”’]`)
		t = strings.TrimSuffix(strings.TrimSuffix(t, "'s"), "’s")
		if t == w {
			return w
		}
		w = t
	}
}

// placeholderRE matches tokens that stand for a path rather than name one
// (a leading _ is a suffix: _test.go).
var placeholderRE = regexp.MustCompile(`[\s<>{}…$~%*?\[\]]|://|\.\.\.|^[/_-]|(^|/)X[._]`)

// checkPath reports tok when it is a path of ours (see the package doc)
// that does not exist.
func (c *checker) checkPath(d *document, text string, off int, tok string) {
	tok = strings.TrimPrefix(tok, "./")
	if tok == "" || placeholderRE.MatchString(tok) || notPaths[tok] {
		return
	}
	first, _, nested := strings.Cut(tok, "/")
	rel := tok
	switch {
	case nested && c.top[first]:
		// a path from the root
	case !nested && !d.markdown && strings.HasSuffix(tok, ".go"):
		rel = path.Join(d.pkgDir, tok) // a file of the package
	case !nested && c.top[tok]:
		return // a top-level file: there
	default:
		return
	}
	rel = strings.TrimSuffix(rel, "/")
	for _, ig := range c.ignored {
		if rel == ig || strings.HasPrefix(rel, ig+"/") {
			return // build output, there or not
		}
	}
	if dir, last := path.Split(rel); dir != "" && isPkgIdent(last) {
		rel = dir + last[:strings.IndexByte(last, '.')] // testdata/testkit.Eventually
	}
	if !fileExists(c.root, rel) {
		c.report(d, text, off, "%s: no such file or directory", tok)
	}
}

// isPkgIdent reports whether seg is "pkg.Ident": a package and an
// exported identifier, not a file name.
func isPkgIdent(seg string) bool {
	pkg, id, ok := strings.Cut(seg, ".")
	return ok && isIdent(pkg) && isIdent(id) && id[0] >= 'A' && id[0] <= 'Z'
}

// checkLink checks a Markdown link's target when it is a local file.
func (c *checker) checkLink(d *document, text string, off int, target string) {
	if strings.Contains(target, "://") || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "mailto:") {
		return
	}
	target, _, _ = strings.Cut(target, "#")
	if target == "" {
		return
	}
	if !fileExists(c.root, path.Join(path.Dir(d.file), target)) {
		c.report(d, text, off, "%s: no such file or directory (link)", target)
	}
}
