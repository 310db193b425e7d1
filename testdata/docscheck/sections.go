package main

import (
	"regexp"
	"strings"
)

var (
	// sectionRE: an optional document name, then §N, then an optional
	// quoted name.
	sectionRE = regexp.MustCompile(`(?:([\w./-]+\.md|\bdesign)\s+)?§(\d+(?:\.\d+)*)(?:,?\s*["“]([^"”]{1,80})["”])?`)
	// joinRE is what may stand between two references to one document.
	joinRE = regexp.MustCompile(`^[\s,;–—-]*(?:and|or|to)?[\s]*$`)
)

// checkSections checks every §N reference of d (see the package doc).
func (c *checker) checkSections(d *document, text string) {
	// A bare § in a link's text refers to the link's target.
	linked := map[int]string{}
	for _, m := range linkRE.FindAllStringSubmatchIndex(text, -1) {
		if t := text[m[4]:m[5]]; strings.HasSuffix(strings.SplitN(t, "#", 2)[0], ".md") {
			linked[m[2]] = strings.SplitN(t, "#", 2)[0]
			for i := m[2]; i < m[3]; i++ {
				linked[i] = linked[m[2]]
			}
		}
	}
	prevEnd, prevDoc := -1, ""
	for _, m := range sectionRE.FindAllStringSubmatchIndex(text, -1) {
		doc := ""
		switch {
		case m[2] >= 0:
			doc = c.docNamed(d, text[m[2]:m[3]])
		case linked[m[0]] != "":
			doc = c.docNamed(d, linked[m[0]])
		case prevDoc != "" && joinRE.MatchString(text[prevEnd:m[0]]):
			doc = prevDoc
		default:
			doc = c.defaultDoc(d)
		}
		prevEnd, prevDoc = m[1], doc
		if doc == "" {
			c.report(d, text, m[0], "%s: no such document", text[m[2]:m[3]])
			continue
		}
		name := ""
		if m[6] >= 0 {
			name = strings.Join(strings.Fields(text[m[6]:m[7]]), " ")
		}
		c.checkSection(d, text, m[0], doc, text[m[4]:m[5]], name)
	}
}

// docNamed resolves a document name a reference gives ("design" is
// docs/design.md).
func (c *checker) docNamed(d *document, name string) string {
	if name == "design" {
		name = "docs/design.md"
	}
	return resolveDoc(c.root, d, name)
}

// defaultDoc is the document a bare § refers to: d itself when it numbers
// its sections, else docs/design.md.
func (c *checker) defaultDoc(d *document) string {
	if o := c.outlines[d.file]; d.markdown && o != nil && o.numbered() {
		return d.file
	}
	return "docs/design.md"
}

// checkSection reports §num of doc when doc has no such numbered
// heading, or name does not occur in that section.
func (c *checker) checkSection(d *document, text string, off int, doc, num, name string) {
	o, err := c.outline(doc)
	if err != nil {
		c.report(d, text, off, "%s: %v", doc, err)
		return
	}
	s, ok := o.find(num)
	if !ok {
		c.report(d, text, off, "%s §%s: no such numbered section", doc, num)
		return
	}
	if name != "" && !o.mentions(s, name) {
		c.report(d, text, off, "%s §%s %q: not in that section", doc, num, name)
	}
}

// outline reads (once) the headings of the Markdown document doc.
func (c *checker) outline(doc string) (*outline, error) {
	if o := c.outlines[doc]; o != nil {
		return o, nil
	}
	d, err := readMarkdown(c.root, doc)
	if err != nil {
		return nil, err
	}
	c.outlines[doc] = outlineOf(d)
	return c.outlines[doc], nil
}
