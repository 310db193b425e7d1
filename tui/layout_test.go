package tui

import (
	"fmt"
	"testing"
)

// cover counts how many rectangles cover each cell of a w×h screen.
func cover(t *testing.T, w, h int, l screenLayout) {
	t.Helper()
	grid := make([]int, w*h)
	rects := []rect{l.Topics, l.Chat, l.Participants, l.Input, l.Status}
	rects = append(rects, l.Panes...)
	for _, r := range rects {
		if r.empty() {
			continue
		}
		if r.X < 0 || r.Y < 0 || r.X+r.W > w || r.Y+r.H > h {
			t.Fatalf("rect %+v outside %dx%d", r, w, h)
		}
		for y := r.Y; y < r.Y+r.H; y++ {
			for x := r.X; x < r.X+r.W; x++ {
				grid[y*w+x]++
			}
		}
	}
	for i, n := range grid {
		if n != 1 {
			t.Fatalf("cell (%d,%d) covered %d times in %+v", i%w, i/w, n, l)
		}
	}
}

func TestLayoutTilesTheScreen(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}, {60, 20}, {40, 12}, {250, 90}} {
		for panes := 0; panes <= 5; panes++ {
			for _, sides := range [][2]bool{{true, true}, {false, true}, {true, false}, {false, false}} {
				for _, rows := range []int{1, 3, 6, 7, 9} {
					s := layoutState{showTopics: sides[0], showParticipants: sides[1], panes: panes, paneShare: paneShareDefault, inputRows: rows}
					t.Run(fmt.Sprintf("%dx%d/p%d/%v/r%d", size[0], size[1], panes, sides, rows), func(t *testing.T) {
						l := layout(size[0], size[1], s)
						cover(t, size[0], size[1], l)
						if again := layout(size[0], size[1], s); fmt.Sprint(again) != fmt.Sprint(l) {
							t.Fatalf("layout is not a pure function: %+v vs %+v", l, again)
						}
						if l.Input.H != min(rows, maxInputBarRows)+2 {
							t.Fatalf("input height %d for %d rows", l.Input.H, rows)
						}
						if len(l.Panes) != 0 && len(l.Panes) != panes {
							t.Fatalf("%d panes laid out, want %d or none", len(l.Panes), panes)
						}
					})
				}
			}
		}
	}
}

func TestLayoutSideColumnsGiveWay(t *testing.T) {
	t.Parallel()
	both := layoutState{showTopics: true, showParticipants: true, inputRows: 1}
	l := layout(80, 24, both)
	if l.Topics.W != 20 || l.Participants.W != partsMinW || l.Chat.W != 80-20-partsMinW {
		t.Fatalf("80 wide: topics %d chat %d participants %d", l.Topics.W, l.Chat.W, l.Participants.W)
	}
	l = layout(200, 60, both)
	if l.Topics.W != topicsMaxW || l.Participants.W != partsMaxW {
		t.Fatalf("200 wide: topics %d participants %d", l.Topics.W, l.Participants.W)
	}
	// The topic list is a quarter of the screen within its bounds, whatever
	// its names (issue 35: a first post's rename widened it and resized
	// every pane; issue 14: names were cut to 16 cells at 250 columns).
	for _, tc := range []struct{ w, topics int }{
		{250, topicsMaxW}, {200, topicsMaxW}, {120, 30}, {100, 25}, {80, 20}, {64, 0},
	} {
		if l := layout(tc.w, 40, both); l.Topics.W != tc.topics || l.Chat.W < chatMinW {
			t.Fatalf("%d wide: topics %d chat %d", tc.w, l.Topics.W, l.Chat.W)
		}
	}
	l = layout(64, 24, both)
	if !l.Topics.empty() || l.Participants.empty() || l.Chat.W < chatMinW {
		t.Fatalf("64 wide: topics should give way first: %+v", l)
	}
	l = layout(44, 24, both)
	if !l.Topics.empty() || !l.Participants.empty() || l.Chat.W != 44 {
		t.Fatalf("44 wide: only the chat should remain: %+v", l)
	}
}

func TestLayoutPanesAdaptToWidth(t *testing.T) {
	t.Parallel()
	// Wide: two panes side by side.
	l := layout(200, 60, layoutState{panes: 2, paneShare: 50, inputRows: 1})
	if len(l.Panes) != 2 || l.Panes[0].Y != l.Panes[1].Y || l.Panes[0].X == l.Panes[1].X {
		t.Fatalf("wide: want side by side, got %+v", l.Panes)
	}
	// Narrow and tall: stacked.
	l = layout(50, 80, layoutState{panes: 2, paneShare: 80, inputRows: 1})
	if len(l.Panes) != 2 || l.Panes[0].X != l.Panes[1].X || l.Panes[0].Y == l.Panes[1].Y {
		t.Fatalf("narrow: want stacked, got %+v", l.Panes)
	}
	// Four panes on a big screen: every pane usable.
	l = layout(250, 90, layoutState{panes: 4, paneShare: paneShareMax, inputRows: 1})
	if len(l.Panes) != 4 {
		t.Fatalf("4 panes: got %d", len(l.Panes))
	}
	for _, p := range l.Panes {
		if p.H < paneMinH || p.W < 20 {
			t.Fatalf("pane too small: %+v", p)
		}
	}
	// A share that leaves the chat nothing still keeps chatMinH rows.
	l = layout(100, 30, layoutState{panes: 1, paneShare: 100, inputRows: 1})
	if l.Chat.H < chatMinH {
		t.Fatalf("chat squeezed to %d rows", l.Chat.H)
	}
	// Too little height: no pane area at all rather than an unusable one.
	l = layout(100, 9, layoutState{panes: 3, paneShare: 50, inputRows: 1})
	if len(l.Panes) != 0 || l.Chat.empty() {
		t.Fatalf("short screen: panes %+v chat %+v", l.Panes, l.Chat)
	}
}
