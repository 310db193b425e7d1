package emu_test

// The suite's own parts checked: a decoder or a comparison that saw
// nothing would make every model agree.

import (
	"slices"
	"strings"
	"testing"
)

func TestDiffDecodesSGR(t *testing.T) {
	t.Parallel()
	cells, ends := decodeRows([]string{
		"a\x1b[1;38;5;196mB\x1b[m日\x1b[4:3;58:2::1:2:3mC\x1b[48:2::9:8:7;91me\u0301",
		"x\x1b[m\x1b[7;44m ",
	}, 8, true)
	want := [][]cell{{
		{text: "a", width: 1},
		{text: "B", width: 1, st: style{fg: "i:196", attrs: attrBold}},
		{text: "日", width: 2},
		{},
		{text: "C", width: 1, st: style{underline: 3, ul: "#010203"}},
		{text: "e\u0301", width: 1, st: style{underline: 3, ul: "#010203", bg: "#090807", fg: "i:9"}},
		{width: 1}, {width: 1},
	}, {
		// the pen carries over the line end
		{text: "x", width: 1, st: style{underline: 3, ul: "#010203", bg: "#090807", fg: "i:9"}},
		{text: " ", width: 1, st: style{bg: "i:4", attrs: attrReverse}},
	}}
	for y := range want {
		for x, c := range want[y] {
			if cells[y][x] != c {
				t.Errorf("row %d cell %d = %+v, want %+v", y, x, cells[y][x], c)
			}
		}
	}
	if !slices.Equal(ends, []int{6, 2}) {
		t.Errorf("ends %v", ends)
	}
	if got := rowText(cells[0]); got != "aB日Ce\u0301" {
		t.Errorf("text %q", got)
	}
}

// TestDiffReportsEveryAspect: two streams that differ in each aspect the
// suite compares give a difference in each, with a diff naming the row.
func TestDiffReportsEveryAspect(t *testing.T) {
	t.Parallel()
	run := func(data string) view {
		return screenModel{}.run(t, stream{name: "self", cols: 10, rows: 2, data: []byte(data)})
	}
	got := map[string]string{}
	for _, pair := range [][2]string{
		{"ab", "\x1b[31mab\x1b[m\x1b[?25l\x1b]2;t\x07\x1b[?1h\x1b[?1000h"},
		{"ab", "ac\r"},
		{"x\r\n\r\n\r\nab", "y\r\n\r\n\r\nab"},
		{"ab", "\x1b[?1049hab"},
	} {
		for _, d := range compareViews(run(pair[0]), run(pair[1]), "one", "two") {
			got[d.aspect] = d.detail
		}
	}
	for _, aspect := range []string{"text", "style", "cursor", "cursor-visible", "alt", "title",
		"mode:app-cursor-keys", "mode:mouse", "scrollback"} {
		if _, ok := got[aspect]; !ok {
			t.Errorf("no %s difference reported; got %v", aspect, got)
		}
	}
	if d := got["text"]; !strings.Contains(d, "row 0") || !strings.Contains(d, "|ac|") {
		t.Errorf("text diff %q", d)
	}
	if d := got["style"]; !strings.Contains(d, `columns 0–1 "ab"`) || !strings.Contains(d, "fg=i:1") {
		t.Errorf("style diff %q", d)
	}
}
