package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// busyRows is a full 120×40 screen of a CLI at work: every row filled,
// 256-colour and truecolor runs, Japanese text, as the emulator renders it.
func busyRows(cols, rows, seed int) []string {
	out := make([]string, rows)
	for i := range out {
		var b strings.Builder
		fmt.Fprintf(&b, "\x1b[38;5;%dm%4d\x1b[m ", (i+seed)%200+16, i+seed)
		fmt.Fprintf(&b, "\x1b[38;2;%d;120;80m● 実行中のテスト\x1b[m ", (i*7+seed)%256)
		b.WriteString("\x1b[1mgo test ./...\x1b[m ")
		fmt.Fprintf(&b, "\x1b[48;5;236m ok  github.com/pullcept/pullcept/room %d.%03ds \x1b[m", seed%10, i)
		b.WriteString(strings.Repeat("─", cols))
		out[i] = fit(b.String(), cols)
	}
	return out
}

// BenchmarkView4Panes measures one frame with four live 120×40 seat panes
// (every snapshot changes every frame) over a 10,000-post topic: the
// snapshot message through Update (pane re-render) plus View (assembly).
// Goal (docs/design.md §10): ≤ 2 ms per frame.
func BenchmarkView4Panes(b *testing.B) {
	// exact: the backend says the rows' width (Cols), rows are joined as is;
	// measured: Cols unknown, every row is measured and fitted.
	for _, mode := range []struct {
		name string
		cols int
	}{{"exact", 120}, {"measured", 0}} {
		b.Run(mode.name, func(b *testing.B) { benchView4Panes(b, mode.cols) })
	}
}

func benchView4Panes(b *testing.B, cols int) {
	f := newFake()
	accs := []string{"a1", "a2", "a3", "a4"}
	for i, id := range accs {
		f.accounts = append(f.accounts, AccountInfo{ID: id, Kind: KindClaudeCode, Name: fmt.Sprintf("席%d", i+1)})
		f.seats["big"] = append(f.seats["big"], SeatInfo{Topic: "big", Account: id, State: SeatRunning})
	}
	opts := testOptions()
	opts.StartTopic = "big"
	// 244×98 with the side columns hidden and the split at its maximum
	// gives a 2×2 grid of 122×42 panes: 120×40 terminals inside borders.
	m := newTestModel(b, f, opts, 244, 98)
	send(b, m, press("ctrl+b"))
	send(b, m, press("ctrl+o"))
	for i := 0; i < 10; i++ {
		send(b, m, press("ctrl+up"))
	}
	send(b, m, press("ctrl+t"))
	evs := make([]Event, 0, 10000)
	for i := 0; i < 10000; i++ {
		evs = append(evs, PostDelivered{Topic: "big", Post: post(fmt.Sprintf("b%05d", i), fmt.Sprintf("席%d", i%4+1), fmt.Sprintf("発言 %d: the tests pass on linux/amd64 and darwin/arm64 👍", i), i)})
	}
	send(b, m, eventsMsg{evs: evs})
	vis := m.visiblePanes()
	// The chat holds the live end only (chatKeep and a page; the rest
	// pages back in from the log): what a long topic shows.
	if len(vis) != 4 || len(m.chat.posts) < chatKeep {
		b.Fatalf("setup: %d panes, %d posts", len(vis), len(m.chat.posts))
	}
	for _, k := range vis {
		if p := m.seats.panes[k]; p.cols != 120 || p.rows != 40 {
			b.Fatalf("pane %v is %dx%d, want 120x40", k, p.cols, p.rows)
		}
	}
	frames := [2][]string{busyRows(120, 40, 1), busyRows(120, 40, 2)}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		snaps := make(map[seatKey]PaneSnapshot, 4)
		for j, k := range vis {
			snaps[k] = PaneSnapshot{Rows: frames[(i+j)%2], Cols: cols, CursorX: i % 120, CursorY: 39, CursorVisible: true, Version: uint64(i + 1)}
		}
		m.Update(snapshotsDoneMsg{snaps: snaps})
		v := m.View()
		if len(v.Content) == 0 {
			b.Fatal("empty frame")
		}
	}
}

// BenchmarkViewIdle is a frame where nothing changed (a key moved nothing):
// View only assembles cached strings.
func BenchmarkViewIdle(b *testing.B) {
	m := sceneModel(b, scene(), 200, 60, LangJapanese)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.Update(tea.FocusMsg{})
		_ = m.View()
	}
}
