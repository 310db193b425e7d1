package emu

import (
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// The per-terminal tables a cell points into. A child chooses what goes in
// them (every truecolor value is a style, every emoji sequence a cluster),
// so each is bounded. At its bound the tables are compacted: every cell of
// both screens and the scrollback is scanned, the entries no cell (nor the
// pen or a saved cursor) uses are dropped and the cells renumbered. When a
// compaction leaves a table more than three quarters full, the next
// maxX/4 new entries (or one per eight cells scanned, if more) fall back
// instead of compacting again (a new style becomes the default style, a new
// cluster its first rune, a new link no link), so a hostile stream pays at
// most eight cell visits per character it prints, never a scan.
const (
	maxStyles   = 1 << 16
	maxClusters = 1 << 16
	maxLinks    = 1 << 12
)

// maxClusterBytes bounds one grapheme cluster: runes that would extend a
// cluster past it are dropped (a family emoji with skin tones is 41 bytes).
const maxClusterBytes = 64

// styleKey is a style table entry: the style and the link (an index into
// the link table, 0 none).
type styleKey struct {
	st   Style
	link uint32
}

type tables struct {
	styles     []styleKey
	styleIdx   map[styleKey]uint32
	clusters   []string
	clusterIdx map[string]uint32
	links      []string // "params;url"; links[0] is no link
	linkIdx    map[string]uint32

	maxStyles, maxClusters, maxLinks int
	wait                             int              // new entries to fall back before compacting again
	cache                            [256]cachedStyle // recent styleKey → id, by styleHash
	compactions                      int              // (tests)
}

func newTables() tables {
	tb := tables{
		styleIdx:    map[styleKey]uint32{{}: 0},
		styles:      []styleKey{{}},
		clusterIdx:  map[string]uint32{},
		links:       []string{""},
		linkIdx:     map[string]uint32{"": 0},
		maxStyles:   maxStyles,
		maxClusters: maxClusters,
		maxLinks:    maxLinks,
	}
	return tb
}

// makeRoom reports whether a table holding n entries (bound max) may take
// one more, compacting all tables when it is full (see above).
func (t *Terminal) makeRoom(n func() int, bound int) bool {
	if n() < bound {
		return true
	}
	if t.tab.wait > 0 {
		t.tab.wait--
		return false
	}
	cells := t.compact()
	if n() >= bound*3/4 {
		// Scanning costs a visit per cell: wait for more fallbacks the more
		// cells there are, at most 8 visits per fallback.
		t.tab.wait = max(bound/4, cells/8)
	}
	return n() < bound
}

// cachedStyle is an entry of the style cache: a child switches between a
// few styles over and over, and a map lookup per SGR was a sixth of the
// time on make compare's stream.
type cachedStyle struct {
	k     styleKey
	id    uint32
	valid bool
}

func styleHash(k styleKey) uint32 {
	h := uint32(k.st.Fg)*0x9e3779b1 ^ uint32(k.st.Bg)*0x85ebca77 ^ uint32(k.st.Ul)*0xc2b2ae3d ^
		(uint32(k.st.Attrs)<<8|uint32(k.st.Underline))*0x27d4eb2f ^ k.link*0x165667b1
	return h >> 24
}

// styleID interns the style st with the pen's link (withLink) or none.
func (t *Terminal) styleID(st Style, withLink bool) uint32 {
	k := styleKey{st: st}
	if withLink {
		k.link = t.penLink
	}
	c := &t.tab.cache[styleHash(k)]
	if c.valid && c.k == k {
		return c.id
	}
	if id, ok := t.tab.styleIdx[k]; ok {
		*c = cachedStyle{k: k, id: id, valid: true}
		return id
	}
	if !t.makeRoom(func() int { return len(t.tab.styles) }, t.tab.maxStyles) {
		return 0
	}
	if withLink {
		k.link = t.penLink // renumbered by a compaction
	}
	if id, ok := t.tab.styleIdx[k]; ok {
		return id
	}
	id := uint32(len(t.tab.styles))
	t.tab.styles = append(t.tab.styles, k)
	t.tab.styleIdx[k] = id
	return id
}

// clusterCh is the ch of a cell showing the multi-rune cluster b of width
// w (first is its first rune, for the fallback when the table is full).
func (t *Terminal) clusterCh(b []byte, first rune, w int) uint32 {
	if id, ok := t.tab.clusterIdx[string(b)]; ok {
		return chCluster | id
	}
	if !t.makeRoom(func() int { return len(t.tab.clusters) }, t.tab.maxClusters) {
		return fallback(first, w)
	}
	id := uint32(len(t.tab.clusters))
	s := string(b)
	t.tab.clusters = append(t.tab.clusters, s)
	t.tab.clusterIdx[s] = id
	return chCluster | id
}

// fallback is what a cell shows of a cluster of width w the full table
// has no room for: its first rune, or where that is not as wide (the ❤ of
// ❤️, drawn one cell wide in two) U+FFFD or, two wide, 〓 (the geta mark,
// a missing glyph in Japanese typesetting), so that its row keeps its
// width.
func fallback(first rune, w int) uint32 {
	switch {
	case ansi.StringWidth(string(first)) == w:
		return uint32(first)
	case w == 2:
		return '〓'
	}
	return utf8.RuneError
}

// linkID interns a link ("params;url").
func (t *Terminal) linkID(l string) uint32 {
	if id, ok := t.tab.linkIdx[l]; ok {
		return id
	}
	if !t.makeRoom(func() int { return len(t.tab.links) }, t.tab.maxLinks) {
		return 0
	}
	id := uint32(len(t.tab.links))
	t.tab.links = append(t.tab.links, l)
	t.tab.linkIdx[l] = id
	return id
}

// eachLine calls f for every row of both screens and the scrollback.
func (t *Terminal) eachLine(f func(l *line)) {
	for _, s := range []*screen{&t.pri, &t.alt} {
		for i := range s.lines {
			f(&s.lines[i])
		}
	}
	for i := range t.sb.lines {
		f(&t.sb.lines[i])
	}
}

// compact drops the table entries nothing uses and renumbers the cells; it
// returns how many cells it scanned.
func (t *Terminal) compact() (cells int) {
	t.tab.compactions++
	tb := &t.tab
	styleMap := make([]uint32, len(tb.styles))
	clusterMap := make([]uint32, len(tb.clusters))
	const unused = ^uint32(0)
	for i := range styleMap {
		styleMap[i] = unused
	}
	for i := range clusterMap {
		clusterMap[i] = unused
	}
	styleMap[0] = 0
	if t.lastW > 0 && t.lastCh&chCluster != 0 {
		// REP may print it again, and place may be placing it now.
		clusterMap[t.lastCh&chValue] = 0
	}
	t.eachLine(func(l *line) {
		cells += len(l.cells)
		for _, c := range l.cells {
			styleMap[c.sid] = 0
			if c.ch&chCluster != 0 && !c.tail() {
				clusterMap[c.ch&chValue] = 0
			}
		}
	})
	// Links: those of the live styles, the pen's and the saved cursors'.
	linkMap := make([]uint32, len(tb.links))
	for i := range linkMap {
		linkMap[i] = unused
	}
	linkMap[0], linkMap[t.penLink] = 0, 0
	for _, sv := range t.saved {
		linkMap[sv.link] = 0
	}
	for i, k := range tb.styles {
		if styleMap[i] != unused {
			linkMap[k.link] = 0
		}
	}
	tb.links, tb.linkIdx = renumber(tb.links, linkMap)
	styles := tb.styles[:0]
	tb.styleIdx = make(map[styleKey]uint32, len(tb.styles))
	for i, k := range tb.styles {
		if styleMap[i] == unused {
			continue
		}
		k.link = linkMap[k.link]
		styleMap[i] = uint32(len(styles))
		tb.styleIdx[k] = styleMap[i]
		styles = append(styles, k)
	}
	tb.styles = styles
	tb.clusters, tb.clusterIdx = renumber(tb.clusters, clusterMap)
	t.eachLine(func(l *line) {
		for i, c := range l.cells {
			l.cells[i].sid = styleMap[c.sid]
			if c.ch&chCluster != 0 && !c.tail() {
				l.cells[i].ch = c.ch&^chValue | clusterMap[c.ch&chValue]
			}
		}
	})
	if t.lastW > 0 && t.lastCh&chCluster != 0 {
		t.lastCh = chCluster | clusterMap[t.lastCh&chValue]
	}
	t.penLink = linkMap[t.penLink]
	for i := range t.saved {
		t.saved[i].link = linkMap[t.saved[i].link]
	}
	t.penChanged()
	t.tab.cache = [len(t.tab.cache)]cachedStyle{}
	return cells
}

// renumber keeps the entries of list whose m is not unused (in order),
// writes their new index into m and returns the new list and index.
func renumber(list []string, m []uint32) ([]string, map[string]uint32) {
	out := list[:0]
	idx := make(map[string]uint32, len(list))
	for i, s := range list {
		if m[i] == ^uint32(0) {
			continue
		}
		m[i] = uint32(len(out))
		idx[s] = m[i]
		out = append(out, s)
	}
	return out, idx
}
