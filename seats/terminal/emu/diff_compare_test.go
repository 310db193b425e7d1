package emu_test

// Comparing two views, and reporting what differs as a readable diff.

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"
	"testing"
)

// difference is one aspect in which two views differ, with the diff.
type difference struct {
	aspect string // text, style, cursor, cursor-visible, alt, title, mode:<name>, scrollback
	detail string
}

// maxLines bounds each difference's diff.
const maxLines = 12

// compareViews lists what differs between a (model an) and b (model bn).
func compareViews(a, b view, an, bn string) []difference {
	if a.cols != b.cols || a.rows != b.rows {
		return []difference{{"size", fmt.Sprintf("%s %d×%d, %s %d×%d", an, a.cols, a.rows, bn, b.cols, b.rows)}}
	}
	var out []difference
	add := func(aspect, format string, args ...any) {
		out = append(out, difference{aspect, fmt.Sprintf(format, args...)})
	}
	if d := diffRows(a.text, b.text, an, bn, "row"); d != "" {
		add("text", "%s", d)
	}
	if d := diffStyles(a, b, an, bn); d != "" {
		add("style", "%s", d)
	}
	if a.cursorX != b.cursorX || a.cursorY != b.cursorY {
		add("cursor", "%s at column %d row %d, %s at column %d row %d", an, a.cursorX, a.cursorY, bn, b.cursorX, b.cursorY)
	}
	if a.cursorVisible != b.cursorVisible {
		add("cursor-visible", "%s %v, %s %v", an, a.cursorVisible, bn, b.cursorVisible)
	}
	if a.alt != b.alt {
		add("alt", "%s %v, %s %v", an, a.alt, bn, b.alt)
	}
	if a.title != b.title {
		add("title", "%s %q, %s %q", an, a.title, bn, b.title)
	}
	var names []string
	for k := range a.modes {
		if _, ok := b.modes[k]; ok {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	for _, k := range names {
		if a.modes[k] != b.modes[k] {
			add("mode:"+k, "%s %s, %s %s", an, a.modes[k], bn, b.modes[k])
		}
	}
	if a.noScrollback || b.noScrollback {
		return out
	}
	if d := diffScrollback(a.scrollback, b.scrollback, an, bn); d != "" {
		add("scrollback", "%s", d)
	}
	return out
}

// diffScrollback compares two scrollbacks. Once full, tmux drops its oldest
// tenth at a time (grid_collect_history) where emu drops line by line, so
// two full scrollbacks (over nine tenths of scrollbackLimit each) are
// compared on their newest lines only.
func diffScrollback(a, b []string, an, bn string) string {
	full := scrollbackLimit * 9 / 10
	if len(a) != len(b) && (len(a) < full || len(b) < full) {
		d := diffRows(a, b, an, bn, "line")
		return fmt.Sprintf("%s has %d lines, %s %d\n%s", an, len(a), bn, len(b), d)
	}
	n := min(len(a), len(b))
	return diffRows(a[len(a)-n:], b[len(b)-n:], an, bn, "line")
}

// diffRows is a line-by-line diff of two lists: each differing line with
// both sides, at most maxLines of them.
func diffRows(a, b []string, an, bn, what string) string {
	var d strings.Builder
	shown, more := 0, 0
	w := max(len(an), len(bn))
	for i := range max(len(a), len(b)) {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x == y {
			continue
		}
		if shown == maxLines {
			more++
			continue
		}
		shown++
		fmt.Fprintf(&d, "  %s %d:\n    %-*s |%s|\n    %-*s |%s|\n", what, i, w, an, x, w, bn, y)
	}
	if more > 0 {
		fmt.Fprintf(&d, "  … and %d more %ss\n", more, what)
	}
	return d.String()
}

// diffStyles compares the visible style of every cell of the rows whose
// text agrees (a row whose text differs is already reported, and its cells
// may be shifted), as runs of cells with the same pair of styles.
func diffStyles(a, b view, an, bn string) string {
	var d strings.Builder
	shown, more := 0, 0
	for y := range min(len(a.cells), len(b.cells)) {
		if y < len(a.text) && y < len(b.text) && a.text[y] != b.text[y] {
			continue
		}
		ra, rb := a.cells[y], b.cells[y]
		for x := 0; x < len(ra) && x < len(rb); {
			sa, sb := ra[x].st.visible(ra[x].text), rb[x].st.visible(rb[x].text)
			if ra[x].width == 0 || sa == sb || ra[x].unknown || rb[x].unknown {
				x++
				continue
			}
			end := x + 1
			for end < len(ra) && end < len(rb) && !ra[end].unknown && !rb[end].unknown &&
				ra[end].st.visible(ra[end].text) == sa && rb[end].st.visible(rb[end].text) == sb {
				end++
			}
			if shown == maxLines {
				more++
			} else {
				shown++
				fmt.Fprintf(&d, "  row %d columns %d–%d %q:\n    %s %s\n    %s %s\n", y, x, end-1,
					rowText(ra[x:end]), an, sa, bn, sb)
			}
			x = end
		}
	}
	if more > 0 {
		fmt.Fprintf(&d, "  … and %d more runs\n", more)
	}
	return d.String()
}

// ---------------------------------------------------------------------------
// Checking a pair of views against the known differences.

// knownUse records which known differences were met, and the streams run,
// so that an entry no stream needs any more fails the suite (checkStale).
type knownUse struct {
	mu      sync.Mutex
	used    map[string]bool // pair and index
	streams map[string]bool
}

var uses = &knownUse{used: map[string]bool{}, streams: map[string]bool{}}

// expectSame compares the views of one stream by two models and fails t for
// every difference the known table does not name; the known ones are
// logged with their reason.
func expectSame(t *testing.T, s stream, a, b view, an, bn string) {
	t.Helper()
	pair := an + "/" + bn
	uses.mu.Lock()
	uses.streams[pair+" "+s.name] = true
	uses.mu.Unlock()
	for _, d := range compareViews(a, b, an, bn) {
		if i := matchKnown(pair, s.name, d.aspect); i >= 0 {
			uses.mu.Lock()
			uses.used[fmt.Sprint(pair, i)] = true
			uses.mu.Unlock()
			t.Logf("known difference %s, %s (%s): %s", pair, d.aspect, knownDiffs[i].why, firstLine(d.detail))
			continue
		}
		t.Errorf("%s: %s and %s differ in %s (%d×%d):\n%s", s.name, an, bn, d.aspect, s.cols, s.rows, d.detail)
	}
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// matchKnown is the index of the known difference that names this pair,
// stream and aspect, or -1.
func matchKnown(pair, streamName, aspect string) int {
	for i, k := range knownDiffs {
		if k.pair != pair {
			continue
		}
		if ok, _ := path.Match(k.stream, streamName); !ok {
			continue
		}
		if ok, _ := path.Match(k.aspect, aspect); ok {
			return i
		}
	}
	return -1
}

// checkStale fails t for every known difference of pair none of whose
// streams showed it, once all of them ran (names: every stream the test
// has): the table says only what is still true.
func checkStale(t *testing.T, pair string, names []string) {
	t.Helper()
	uses.mu.Lock()
	defer uses.mu.Unlock()
	for i, k := range knownDiffs {
		if k.pair != pair || uses.used[fmt.Sprint(pair, i)] {
			continue
		}
		ran, all := false, true
		for _, name := range names {
			if ok, _ := path.Match(k.stream, name); ok {
				ran = true
				all = all && uses.streams[pair+" "+name]
			}
		}
		if ran && all {
			t.Errorf("known difference %s %s %s (%s) no longer occurs: remove it from knownDiffs", k.pair, k.stream, k.aspect, k.why)
		}
	}
}
