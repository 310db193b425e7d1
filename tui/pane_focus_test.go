package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// twoPanes is scene with Lay running beside Lin, both panes shown, their
// snapshots drawn.
func twoPanes(t *testing.T) (*fakeBackend, *Model) {
	t.Helper()
	f := scene()
	f.seats["t-main"] = append(f.seats["t-main"], SeatInfo{Topic: "t-main", Account: "lay", State: SeatRunning})
	m := mainModel(t, f)
	send(t, m, press("ctrl+t"))
	for i, k := range m.visiblePanes() {
		f.snaps[k] = PaneSnapshot{Rows: paneRows(30, 10, i), CursorX: 1, CursorY: 1, CursorVisible: true, Version: 1}
	}
	send(t, m, screenChangedMsg{})
	return f, m
}

// TestNextPaneCyclesEveryPane: F6 moves through every pane and wraps, also
// from inside a pane (it used to reach the seat as bytes, so focus never
// left the first pane); Shift+F6 goes back. Neither reaches a seat.
func TestNextPaneCyclesEveryPane(t *testing.T) {
	t.Parallel()
	f, m := twoPanes(t)
	lin, lay := seatKey{"t-main", "lin"}, seatKey{"t-main", "lay"}
	f.inputs = nil
	for i, want := range []seatKey{lin, lay, lin, lay} {
		send(t, m, press("f6"))
		if m.focus != FocusPane || m.focusPane != want {
			t.Fatalf("f6 #%d: focus %v on %v, want %v", i+1, m.focus, m.focusPane, want)
		}
	}
	send(t, m, press("shift+f6"))
	if m.focusPane != lin {
		t.Fatalf("shift+f6 went to %v, want %v", m.focusPane, lin)
	}
	send(t, m, press("shift+f6"))
	if m.focusPane != lay {
		t.Fatalf("shift+f6 did not wrap: %v", m.focusPane)
	}
	typeText(t, m, "a")
	if len(f.inputs) != 1 || f.inputs[0] != "lay:a" {
		t.Fatalf("inputs = %q: F6 reached a seat, or the key went elsewhere", f.inputs)
	}
}

// TestPaneKeysFollowTheKeyMap: next_pane, prev_pane and close_pane are
// re-mappable like every key; the defaults then reach the seat.
func TestPaneKeysFollowTheKeyMap(t *testing.T) {
	t.Parallel()
	f := scene()
	f.seats["t-main"] = append(f.seats["t-main"], SeatInfo{Topic: "t-main", Account: "lay", State: SeatRunning})
	opts := testOptions()
	opts.StartTopic = "t-main"
	opts.Keys = map[string][]string{"next_pane": {"alt+."}, "prev_pane": {"alt+,"}, "close_pane": {"ctrl+w"}}
	m := newTestModel(t, f, opts, 120, 40)
	send(t, m, press("alt+."))
	if m.focus != FocusPane || m.focusPane.account != "lin" {
		t.Fatalf("alt+. (next_pane): focus %v %v", m.focus, m.focusPane)
	}
	f.inputs = nil
	send(t, m, press("f6"))
	if m.focusPane.account != "lin" || len(f.inputs) != 1 {
		t.Fatalf("f6 after the override: focus %v, inputs %q (want it typed into Lin)", m.focusPane, f.inputs)
	}
	send(t, m, press("alt+,"))
	if m.focusPane.account != "lay" {
		t.Fatalf("alt+, (prev_pane): %v", m.focusPane)
	}
	f.seats["t-main"][1].State, f.seats["t-main"][1].ExitCode = SeatExited, 1
	send(t, m, eventsMsg{evs: []Event{SeatChanged{Topic: "t-main", Account: "lay", State: SeatExited, ExitCode: 1}}})
	send(t, m, press("alt+,"))
	send(t, m, press("x"))
	if len(f.forgot) != 0 {
		t.Fatalf("x closed the pane after close_pane moved: %v", f.forgot)
	}
	send(t, m, press("ctrl+w"))
	if len(f.forgot) != 1 || f.forgot[0] != "t-main|lay" {
		t.Fatalf("ctrl+w (close_pane): forgot %v", f.forgot)
	}
}

// TestExitedPaneLeavesTypingAndCloses: when the focused pane's seat exits
// (/exit), focus goes back to the input bar — the next keys are not lost
// to a dead terminal; F6 still reaches the exited pane, where keys are not
// sent anywhere, its title offers the close key, and that key closes it:
// the backend forgets the seat and the pane is gone.
func TestExitedPaneLeavesTypingAndCloses(t *testing.T) {
	t.Parallel()
	f, m := twoPanes(t)
	lin := seatKey{"t-main", "lin"}
	send(t, m, press("f6"))
	f.seats["t-main"][0].State, f.seats["t-main"][0].ExitCode = SeatExited, 3
	send(t, m, eventsMsg{evs: []Event{SeatChanged{Topic: "t-main", Account: "lin", State: SeatExited, ExitCode: 3}}})
	if m.focus != FocusInput {
		t.Fatalf("focus stayed on the exited pane: %v", m.focus)
	}
	if last := m.status.log[len(m.status.log)-1].text; !strings.Contains(last, "Your keys are back in the input bar.") {
		t.Fatalf("the move of the keys is not said: %q", last) // issue 35: it was silent
	}
	if top := ansi.Strip(m.seats.panes[lin].view[0]); !strings.Contains(top, "Lin · exited 3 · F6") || strings.Contains(top, "typing") {
		t.Fatalf("exited pane's title = %q (it says how to reach the close key)", top)
	}
	f.inputs = nil
	typeText(t, m, "x")
	if m.input.value() != "x" || len(f.inputs) != 0 {
		t.Fatalf("after the exit the key went to %q / input %q", f.inputs, m.input.value())
	}
	send(t, m, press("ctrl+c"))

	send(t, m, press("f6"))
	if m.focus != FocusPane || m.focusPane != lin {
		t.Fatalf("f6 did not reach the exited pane: %v %v", m.focus, m.focusPane)
	}
	if top := ansi.Strip(m.seats.panes[lin].view[0]); !strings.Contains(top, "x closes") {
		t.Fatalf("focused exited pane's title = %q", top)
	}
	typeText(t, m, "q")
	if len(f.inputs) != 0 || len(f.forgot) != 0 {
		t.Fatalf("a key in an exited pane went somewhere: inputs %q forgot %v", f.inputs, f.forgot)
	}
	send(t, m, press("x"))
	if len(f.forgot) != 1 || f.forgot[0] != "t-main|lin" {
		t.Fatalf("forgot = %v", f.forgot)
	}
	if _, ok := m.seats.panes[lin]; ok || len(m.layout.Panes) != 1 {
		t.Fatalf("the closed pane is still shown: %d panes", len(m.layout.Panes))
	}
	if m.focus != FocusInput || !strings.Contains(plain(m), "Closed Lin's terminal.") {
		t.Fatalf("after closing: focus %v\n%s", m.focus, plain(m))
	}
	if st := m.partData().state("lin"); st != SeatOffline {
		t.Fatalf("Lin's row after closing: %v, want offline", st)
	}
}

// TestRunningPaneIsNotClosed: the close key in a pane whose seat runs is
// the seat's letter.
func TestRunningPaneIsNotClosed(t *testing.T) {
	t.Parallel()
	f, m := twoPanes(t)
	send(t, m, press("f6"))
	f.inputs = nil
	send(t, m, press("x"))
	if len(f.forgot) != 0 || len(f.inputs) != 1 || f.inputs[0] != "lin:x" {
		t.Fatalf("forgot %v, inputs %q", f.forgot, f.inputs)
	}
}

// TestPaneOfADeletedAccountCloses: a seat whose account is gone keeps its
// pane (after the known ones) until the human closes it.
func TestPaneOfADeletedAccountCloses(t *testing.T) {
	t.Parallel()
	f := scene()
	f.seats["t-main"] = append(f.seats["t-main"], SeatInfo{Topic: "t-main", Account: "gone", State: SeatExited, Requested: true})
	m := mainModel(t, f)
	send(t, m, press("f6"))
	send(t, m, press("f6"))
	ghost := seatKey{"t-main", "gone"}
	if m.focusPane != ghost {
		t.Fatalf("f6 twice: %v, want the deleted account's pane", m.focusPane)
	}
	if top := ansi.Strip(m.seats.panes[ghost].view[0]); !strings.Contains(top, "stopped") {
		t.Fatalf("its title = %q", top)
	}
	send(t, m, press("x"))
	if len(f.forgot) != 1 || f.forgot[0] != "t-main|gone" || len(m.layout.Panes) != 1 {
		t.Fatalf("forgot %v, panes %d", f.forgot, len(m.layout.Panes))
	}
}

// TestEndWords: a pane says how its seat ended — never the raw 143 or 129
// of a stop the human asked for, and a program's own exit 130 (the code a
// SIGINT gives) as the exit it was.
func TestEndWords(t *testing.T) {
	t.Parallel()
	km := DefaultKeyMap()
	for _, tc := range []struct {
		end    seatEnd
		en, ja string
		tn     tone
	}{
		{seatEnd{requested: true, code: 143}, "stopped", "停止", toneDim},
		{seatEnd{requested: true, code: 129}, "stopped", "停止", toneDim},
		{seatEnd{signal: 9, code: 137}, "killed by signal 9", "シグナル 9 で終了", toneDanger},
		{seatEnd{signal: 2, code: 130}, "killed by signal 2", "シグナル 2 で終了", toneDanger},
		{seatEnd{code: 130}, "exited 130", "終了 130", toneDanger},
		{seatEnd{code: 3}, "exited 3", "終了 3", toneDanger},
		{seatEnd{}, "exited 0", "終了 0", toneDim},
	} {
		en := &env{th: newTheme(true), tr: catalog{lang: LangEnglish}, keys: &km}
		ja := &env{th: newTheme(true), tr: catalog{lang: LangJapanese}, keys: &km}
		if w, tn := endWords(en, tc.end); w != tc.en || tn != tc.tn {
			t.Errorf("%+v: %q %v, want %q %v", tc.end, w, tn, tc.en, tc.tn)
		}
		if w, _ := endWords(ja, tc.end); w != tc.ja {
			t.Errorf("%+v ja: %q, want %q", tc.end, w, tc.ja)
		}
	}
	f := scene()
	f.seats["t-main"][0] = SeatInfo{Topic: "t-main", Account: "lin", State: SeatExited, Requested: true, ExitCode: 143}
	m := mainModel(t, f)
	send(t, m, press("ctrl+t"))
	v := plain(m)
	if !strings.Contains(v, "Lin · stopped") || strings.Contains(v, "143") {
		t.Fatalf("a stopped seat's pane:\n%s", v)
	}
	if !strings.Contains(v, "stopped") {
		t.Fatalf("participant row of a stopped seat:\n%s", v)
	}
}

// TestBrokenPaneSaysSo: a pane whose emulator failed on the seat's output
// shows a frozen picture; its title says so, in the danger colour.
func TestBrokenPaneSaysSo(t *testing.T) {
	t.Parallel()
	f, m := twoPanes(t)
	lin := seatKey{"t-main", "lin"}
	snap := f.snaps[lin]
	snap.Broken = "terminal emulator failed: index out of range"
	snap.Version++
	f.snaps[lin] = snap
	send(t, m, screenChangedMsg{})
	if top := ansi.Strip(m.seats.panes[lin].view[0]); !strings.Contains(top, "Lin · frozen: emulator") {
		t.Fatalf("broken pane's title = %q", top)
	}
}
