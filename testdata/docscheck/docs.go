package main

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// document is one text docscheck reads: a Markdown file or a package doc.
type document struct {
	file     string   // root-relative, slash-separated
	markdown bool     // else a package doc comment
	pkgDir   string   // a package doc's directory
	first    int      // the line number of lines[0]
	lines    []string // Markdown with its fenced code blocks blanked
}

// text is the document as one string, and the line number at an offset.
func (d *document) text() string { return strings.Join(d.lines, "\n") }

func (d *document) lineAt(text string, off int) int {
	return d.first + strings.Count(text[:off], "\n")
}

// markdownFiles are the Markdown documents checked, root-relative.
func markdownFiles(root string) ([]string, error) {
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		return nil, err
	}
	var files []string
	for _, f := range docs {
		files = append(files, "docs/"+filepath.Base(f))
	}
	for _, f := range []string{"README.md", "CONTRIBUTING.md", "AGENTS.md"} {
		if fileExists(root, f) {
			files = append(files, f)
		}
	}
	slices.Sort(files)
	return files, nil
}

// readMarkdown reads a Markdown file with its fenced code blocks blanked
// (kept as empty lines, so line numbers hold).
func readMarkdown(root, rel string) (*document, error) {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return nil, err
	}
	lines := strings.Split(string(data), "\n")
	fence := ""
	for i, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case fence != "":
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			lines[i] = ""
		case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
			fence = t[:3]
			lines[i] = ""
		}
	}
	return &document{file: rel, markdown: true, first: 1, lines: lines}, nil
}

// packageDocs are the package doc comments of every package directory.
func packageDocs(ix *goIndex) []*document {
	var docs []*document
	for _, p := range ix.dirs {
		for _, c := range p.docs {
			docs = append(docs, &document{file: c.file, pkgDir: p.dir, first: c.line, lines: c.text})
		}
	}
	return docs
}

// section is one heading of a Markdown document and the lines it spans
// (up to the next heading of its level or above).
type section struct {
	num        string // "9", "2.17"; "" when the heading has no number
	level      int
	start, end int // line indexes, end exclusive
}

var headingRE = regexp.MustCompile(`^(#{1,6})\s+(.*)$`)
var headingNumRE = regexp.MustCompile(`^§?(\d+(?:\.\d+)*)\.?(?:\s|$)`)

// outline is a Markdown document's headings.
type outline struct {
	lines    []string
	sections []section
}

// outlineOf reads the headings of d (fences already blanked).
func outlineOf(d *document) *outline {
	o := &outline{lines: d.lines}
	for i, l := range d.lines {
		m := headingRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		s := section{level: len(m[1]), start: i, end: len(d.lines)}
		if n := headingNumRE.FindStringSubmatch(strings.TrimSpace(m[2])); n != nil {
			s.num = n[1]
		}
		for j := range o.sections {
			if p := &o.sections[j]; p.end == len(d.lines) && p.level >= s.level {
				p.end = i
			}
		}
		o.sections = append(o.sections, s)
	}
	return o
}

// numbered reports whether the document numbers its sections.
func (o *outline) numbered() bool {
	return slices.ContainsFunc(o.sections, func(s section) bool { return s.num != "" })
}

// find returns the section numbered num.
func (o *outline) find(num string) (section, bool) {
	for _, s := range o.sections {
		if s.num == num {
			return s, true
		}
	}
	return section{}, false
}

// mentions reports whether section s's text holds name, case, emphasis
// and line breaks aside.
func (o *outline) mentions(s section, name string) bool {
	return strings.Contains(plain(strings.Join(o.lines[s.start:s.end], " ")), plain(name))
}

// plain is text lower-cased, without Markdown emphasis and code marks,
// curly quotes straightened, with runs of white space as one space.
func plain(text string) string {
	text = strings.NewReplacer("*", "", "`", "", "“", `"`, "”", `"`, "’", "'").Replace(strings.ToLower(text))
	return strings.Join(strings.Fields(text), " ")
}

// resolveDoc finds the Markdown document a reference names from doc:
// relative to the referring doc's directory, then to docs/, then to the
// root. It returns "" when none exists.
func resolveDoc(root string, from *document, name string) string {
	dir := path.Dir(from.file)
	if !from.markdown {
		dir = "."
	}
	for _, cand := range []string{path.Join(dir, name), path.Join("docs", name), path.Clean(name)} {
		if fileExists(root, cand) {
			return cand
		}
	}
	return ""
}
