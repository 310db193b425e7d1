package emu

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// At its bound the style table is compacted to the styles the cells still
// use, so a stream of ever new colours never grows it, and the cells keep
// their styles.
func TestStyleTableCompacts(t *testing.T) {
	t.Parallel()
	tm := newFixture(10, 3)
	tm.tab.maxStyles = 16
	for i := range 1000 {
		tm.feed(fmt.Sprintf("\x1b[H\x1b[38;2;%d;%d;0mx\x1b[1;2Hy", i%256, i/256))
		if len(tm.tab.styles) > 16 {
			t.Fatalf("%d styles", len(tm.tab.styles))
		}
	}
	if tm.tab.compactions == 0 {
		t.Fatal("never compacted")
	}
	if st, want := tm.StyleAt(0, 0), (Style{Fg: RGBColor(999%256, 999/256, 0)}); st != want {
		t.Errorf("style %+v, want %+v", st, want)
	}
	if st, want := tm.StyleAt(1, 0), (Style{Fg: RGBColor(999%256, 999/256, 0)}); st != want {
		t.Errorf("style %+v, want %+v", st, want)
	}
}

// When every style is in use, new ones fall back to the default style, and
// a compaction is tried again only after maxStyles/4 of them.
func TestStyleTableFull(t *testing.T) {
	t.Parallel()
	tm := newFixture(10, 4)
	tm.tab.maxStyles = 16
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, "\x1b[38;5;%dmx", i)
	}
	tm.feed(b.String())
	if len(tm.tab.styles) > 16 {
		t.Fatalf("%d styles", len(tm.tab.styles))
	}
	if got := tm.StyleAt(3, 0).Fg; got != IndexedColor(3) {
		t.Errorf("cell 3: %+v", tm.StyleAt(3, 0))
	}
	if got := tm.StyleAt(9, 3); got != (Style{}) {
		t.Errorf("a style past the bound kept: %+v", got)
	}
	// One scan at the bound, then one per 16/4 styles that fell back.
	if n := tm.tab.compactions; n > 1+(40-16)/4 {
		t.Errorf("%d compactions for 40 styles", n)
	}
	// Once the screen is cleared the styles are free again.
	tm.feed("\x1b[3J\x1b[2J\x1b[3J")
	for i := range 8 {
		tm.feed(fmt.Sprintf("\x1b[48;5;%dmy", 100+i))
	}
	if got := tm.StyleAt(7, 3).Bg; got != IndexedColor(107) {
		t.Errorf("after clearing: %+v", tm.StyleAt(7, 3))
	}
}

// The cluster and link tables are bounded the same way.
func TestClusterAndLinkTablesBounded(t *testing.T) {
	t.Parallel()
	tm := newFixture(10, 2)
	tm.tab.maxClusters, tm.tab.maxLinks = 8, 4
	marks := []rune{0x300, 0x301, 0x302, 0x303, 0x304, 0x306, 0x307, 0x308, 0x30a, 0x30b, 0x30c}
	for i := range 500 {
		c := string(rune('a'+i%26)) + string(marks[i%len(marks)]) + string(marks[(i/len(marks))%len(marks)])
		tm.feed(fmt.Sprintf("\x1b]8;;https://x.test/%d\x07%s\x1b]8;;\x07", i, c))
		if len(tm.tab.clusters) > 8 || len(tm.tab.links) > 4 {
			t.Fatalf("%d clusters, %d links", len(tm.tab.clusters), len(tm.tab.links))
		}
	}
	if got := tm.PlainRow(1); len([]rune(got)) < 10 {
		t.Errorf("row %q", got)
	}
}

// A compaction renumbers cells, clusters and links: what the screen shows
// stays the same.
func TestCompactionKeepsWhatIsShown(t *testing.T) {
	t.Parallel()
	tm := newFixture(20, 3)
	tm.feed("\x1b[1;31me\u0301\x1b]8;;https://a.test/1\x07L\x1b]8;;\x07\x1b[44m👩\u200d💻\x1b[m")
	for i := range 50 {
		tm.feed(fmt.Sprintf("\x1b[3;1H\x1b[38;5;%dm\x1b]8;;https://b.test/%d\x07o%c\u0302\x1b]8;;\x07", i, i, 'a'+i%26))
	}
	before := tm.rows()
	var styles []Style
	var links []string
	for x := range 20 {
		styles = append(styles, tm.StyleAt(x, 0))
		links = append(links, tm.LinkAt(x, 0))
	}
	render := string(tm.RenderRow(0, nil))
	tm.compact()
	if got := tm.rows(); !slices.Equal(got, before) {
		t.Errorf("rows %q, before %q", got, before)
	}
	for x := range 20 {
		if tm.StyleAt(x, 0) != styles[x] || tm.LinkAt(x, 0) != links[x] {
			t.Errorf("cell %d: %+v %q, before %+v %q", x, tm.StyleAt(x, 0), tm.LinkAt(x, 0), styles[x], links[x])
		}
	}
	if got := string(tm.RenderRow(0, nil)); got != render {
		t.Errorf("render %q, before %q", got, render)
	}
	if len(tm.tab.links) != 3 || len(tm.tab.clusters) > 3 {
		t.Errorf("after compaction: %d links %q, %d clusters", len(tm.tab.links), tm.tab.links, len(tm.tab.clusters))
	}
	// The pen's link survives too.
	tm.feed("\x1b]8;;https://c.test\x07")
	tm.compact()
	tm.feed("\x1b[2;1Hz")
	if l := tm.LinkAt(0, 1); l != "https://c.test" {
		t.Errorf("pen link after compaction: %q", l)
	}
}

// A compaction can happen in the middle of printing a run (the scroll a
// wrap makes interns the erase style): the rest of the run must use the
// renumbered style.
func TestCompactionWhilePrinting(t *testing.T) {
	t.Parallel()
	tm := newFixture(8, 2)
	tm.tab.maxStyles = 6
	for i := range 40 {
		tm.feed(fmt.Sprintf("\x1b[38;5;%d;48;5;%dmabcdefghijklmnopqrstuvwxyz", i, 100+i))
		checkGrid(t, tm.Terminal)
		if got, want := tm.StyleAt(0, 1), (Style{Fg: IndexedColor(uint8(i)), Bg: IndexedColor(uint8(100 + i))}); got != want && got != (Style{}) {
			t.Fatalf("run %d: style %+v, want %+v (or the default, fallen back)", i, got, want)
		}
	}
}

// The same for a cluster placed right after a wrap: it is in no cell yet
// when the wrap's scroll compacts the tables.
func TestCompactionWhilePlacingACluster(t *testing.T) {
	t.Parallel()
	tm := newFixture(4, 2)
	tm.feed("e\u0301\r\x1b[K")                                    // a cluster no cell uses
	tm.feed("\x1b[32ma\x1b[33mb\x1b[34mc\x1b[35md\x1b[m\r\x1b[K") // styles no cell uses
	tm.feed("\r\n")
	tm.feed("\x1b[31;44mxyzw") // the pending wrap, in a new style
	tm.tab.maxStyles, tm.tab.wait = len(tm.tab.styles), 0
	// The wrap's scroll interns the erase style (background 4 only): the
	// table is full and compacts; the new cluster, in no cell yet, must
	// survive it and be renumbered (the old one before it is dropped).
	tm.feed("a\u0302")
	checkGrid(t, tm.Terminal)
	if tm.tab.compactions == 0 {
		t.Fatal("no compaction: the test does not test")
	}
	if got := tm.rows(); !slices.Equal(got, []string{"xyzw", "a\u0302"}) {
		t.Errorf("rows %q", got)
	}
}

// The same when the compaction comes from the pen's new style, interned
// as the cluster is written: the cluster's id read before it would point
// past the compacted table (a panic on the next render) or at another
// cluster.
func TestCompactionForThePenWhilePlacingACluster(t *testing.T) {
	t.Parallel()
	tm := newFixture(20, 2)
	tm.tab.maxStyles, tm.tab.maxClusters = 8, 4
	// Clusters 0 and 1 overwritten, 2 (c and an acute) still shown.
	feed := "a\u0301b\u0301c\u0301\rxx\x1b[4G"
	for i := 1; i <= 7; i++ {
		feed += fmt.Sprintf("\x1b[3%dmz", i) // the style table full of shown styles
	}
	tm.feed(feed + "\x1b[1;31mc\u0301\x1b[m")
	if tm.tab.compactions == 0 {
		t.Fatal("no compaction: the test does not test")
	}
	checkGrid(t, tm.Terminal)
	if got, want := tm.PlainRow(0), "xxc\u0301zzzzzzzc\u0301"; got != want {
		t.Errorf("row %q, want %q", got, want)
	}
}

// A cluster the full table has no room for falls back to a character as
// wide: its first rune when that is (e of é), else U+FFFD or 〓 (❤ of ❤️
// is one cell wide: in the cluster's two it left the row a cell short in
// the UI).
func TestClusterFallbackKeepsItsWidth(t *testing.T) {
	t.Parallel()
	tm := newFixture(20, 1)
	tm.tab.maxClusters = 4
	tm.feed("a\u0301b\u0301c\u0301d\u0301e\u0301❤\ufe0f🇯🇵x")
	if got, want := tm.PlainRow(0), "a\u0301b\u0301c\u0301d\u0301e\u3013\U0001f1efx"; got != want {
		t.Errorf("row %+q, want %+q", got, want)
	}
	if row := tm.RenderRow(0, nil); ansi.StringWidth(string(row)) != 20 {
		t.Errorf("row %q is %d wide", row, ansi.StringWidth(string(row)))
	}
}
