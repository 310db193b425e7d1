package tui

import (
	"fmt"
	"strings"
	"testing"
)

// TestPanePansToTheSeatsCursor: a seat whose screen is taller than the
// pane (its size follows another attached terminal, docs/serve.md) shows
// the rows around its cursor — a CLI's prompt at the bottom — not its top,
// and the real cursor lands on the panned row.
func TestPanePansToTheSeatsCursor(t *testing.T) {
	rows := make([]string, 30)
	for i := range rows {
		rows[i] = fmt.Sprintf("line-%02d", i)
	}
	p := &pane{has: true, state: SeatRunning, snap: PaneSnapshot{Rows: rows, Cols: 20, CursorX: 2, CursorY: 29, CursorVisible: true}}
	r := rect{X: 0, Y: 0, W: 22, H: 12} // 20×10 inside the border
	src, first := p.window(10)
	if got := strings.TrimSpace(src[len(src)-1]); got != "line-29" || !strings.HasPrefix(src[0], "line-20") || first != 20 {
		t.Fatalf("a 10-row pane shows %q … %q (first %d), want line-20 … line-29", src[0], src[len(src)-1], first)
	}
	if _, y, _, ok := p.cursor(r); !ok || y != 10 {
		t.Fatalf("the cursor at row %d (ok %v), want the pane's last inner row, 10", y, ok)
	}
	p.snap.CursorY = 3 // a full-screen program with its cursor near the top
	if src, _ := p.window(10); !strings.HasPrefix(src[0], "line-00") {
		t.Fatalf("with the cursor at the top the pane shows from %q, want line-00", src[0])
	}
	p.snap.Rows = rows[:8] // it fits: nothing pans
	if src, first := p.window(10); first != 0 || len(src) != 8 {
		t.Fatalf("a screen that fits: first %d, %d rows", first, len(src))
	}
}
