package emu

import (
	"fmt"
	"strings"
	"testing"
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
