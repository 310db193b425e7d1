package tui

import (
	"strings"
	"sync/atomic"
	"testing"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"
)

// sendQuits is send that reports whether a command the message led to
// directly (not through a later Update) ended the program.
func sendQuits(t *testing.T, m *Model, msg tea.Msg) bool {
	t.Helper()
	var quit atomic.Bool
	var watch func(tea.Cmd) tea.Cmd
	watch = func(c tea.Cmd) tea.Cmd {
		if c == nil {
			return nil
		}
		return func() tea.Msg {
			switch msg := c().(type) {
			case tea.QuitMsg:
				quit.Store(true)
				return msg
			case tea.BatchMsg:
				out := make(tea.BatchMsg, len(msg))
				for i, c := range msg {
					out[i] = watch(c)
				}
				return out
			default:
				return msg
			}
		}
	}
	_, cmd := m.Update(msg)
	drive(t, m, watch(cmd))
	return quit.Load()
}

// servedModel is a served UI on scene with Lay running in another topic,
// its StopAll calls counted.
func servedModel(t *testing.T, lang Lang, w, h int) (*Model, *atomic.Int32) {
	t.Helper()
	f := scene()
	f.seats["t-run"] = []SeatInfo{{Topic: "t-run", Account: "lay", State: SeatRunning}}
	f.next = map[seatKey]NextStart{{"t-run", "lay"}: NextResumes, {"t-main", "lin"}: NextFreshGone}
	stops := new(atomic.Int32)
	opts := testOptions()
	opts.Lang, opts.StartTopic = lang, "t-main"
	opts.Served, opts.StopAll = true, func() { stops.Add(1) }
	return newTestModel(t, f, opts, w, h), stops
}

// TestServedQuitDetachesAtOnceWhenNothingRuns: no seat to keep or stop,
// so there is nothing to ask.
func TestServedQuitDetachesAtOnceWhenNothingRuns(t *testing.T) {
	t.Parallel()
	stops := 0
	opts := testOptions()
	opts.Served, opts.StopAll = true, func() { stops++ }
	m := newTestModel(t, newFake(), opts, 100, 30)
	if !sendQuits(t, m, press("ctrl+q")) || !m.quitting || m.overlay.open != ovNone {
		t.Fatalf("served ctrl+q with nothing running: quitting %v overlay %v", m.quitting, m.overlay.open)
	}
	if stops != 0 {
		t.Fatalf("detaching called StopAll %d times", stops)
	}
}

// TestServedQuitAsksDetachOrStopEverything: with seats running, ctrl+q
// asks; Detach has the focus, Esc and n cancel, y detaches, and only
// choosing Stop everything calls StopAll.
func TestServedQuitAsksDetachOrStopEverything(t *testing.T) {
	t.Parallel()
	m, stops := servedModel(t, LangEnglish, 100, 30)
	if sendQuits(t, m, press("ctrl+q")) || m.quitting {
		t.Fatalf("served ctrl+q with seats running must ask first")
	}
	d := m.overlay.dialog
	if m.overlay.open != ovDialog || d.kind != dialogLeave || d.choice != answerSafe {
		t.Fatalf("dialog %v, want the leave question with Detach focused", d)
	}
	got := strings.Join(d.lines, "\n")
	for _, want := range []string{"“pullcept attach” brings this screen back", "Stop everything: every running seat stops",
		"• Lin in “リリース準備”: starts fresh", "• Lay in “Fix the flaky test 🧪”: resumes its conversation"} {
		if !strings.Contains(got, want) {
			t.Fatalf("leave question lacks %q:\n%s", want, got)
		}
	}
	// The focus goes round: Stop everything, Cancel, Detach.
	for _, want := range []int{answerAction, answerCancel, answerSafe} {
		send(t, m, press("tab"))
		if d.choice != want {
			t.Fatalf("tab: focus %d, want %d", d.choice, want)
		}
	}
	for _, k := range []string{"esc", "n"} {
		if sendQuits(t, m, press(k)) || m.quitting || m.overlay.open != ovNone {
			t.Fatalf("%s must cancel (quitting %v, overlay %v)", k, m.quitting, m.overlay.open)
		}
		send(t, m, press("ctrl+q"))
	}
	if !sendQuits(t, m, press("enter")) || !m.quitting || stops.Load() != 0 {
		t.Fatalf("enter on Detach: quitting %v, StopAll calls %d", m.quitting, stops.Load())
	}

	m, stops = servedModel(t, LangEnglish, 100, 30)
	send(t, m, press("ctrl+q"))
	if !sendQuits(t, m, press("y")) || !m.quitting || stops.Load() != 0 {
		t.Fatalf("y must detach, never stop everything: quitting %v, StopAll calls %d", m.quitting, stops.Load())
	}

	m, stops = servedModel(t, LangEnglish, 100, 30)
	send(t, m, press("ctrl+q"))
	send(t, m, press("tab"))
	if !sendQuits(t, m, press("enter")) || !m.quitting || stops.Load() != 1 {
		t.Fatalf("Stop everything: quitting %v, StopAll calls %d", m.quitting, stops.Load())
	}
}

// TestServedStopEverythingWithoutStopAll quits without a panic.
func TestServedStopEverythingWithoutStopAll(t *testing.T) {
	t.Parallel()
	m, _ := servedModel(t, LangEnglish, 100, 30)
	m.opts.StopAll = nil
	send(t, m, press("ctrl+q"))
	send(t, m, press("tab"))
	if !sendQuits(t, m, press("enter")) || !m.quitting {
		t.Fatalf("Stop everything with no StopAll must still quit")
	}
}

// TestQuitDialogKeepsTwoAnswers: a local UI's quit question has no safe
// answer and y quits, as before served UIs.
func TestQuitDialogKeepsTwoAnswers(t *testing.T) {
	t.Parallel()
	f := scene()
	opts := testOptions()
	opts.StartTopic = "t-main"
	m := newTestModel(t, f, opts, 100, 30)
	send(t, m, press("ctrl+q"))
	d := m.overlay.dialog
	if m.overlay.open != ovDialog || d.kind != dialogQuit || d.safe != "" || d.choice != answerCancel {
		t.Fatalf("local quit question: %+v", d)
	}
	send(t, m, press("tab"))
	send(t, m, press("tab"))
	if d.choice != answerCancel {
		t.Fatalf("two tabs must come back to Cancel, focus %d", d.choice)
	}
	if !sendQuits(t, m, press("y")) || !m.quitting {
		t.Fatalf("y must quit a local UI")
	}
}

// TestServedSaysDetach: the help row and the ctrl+c hint name what the
// quit key does in a served UI.
func TestServedSaysDetach(t *testing.T) {
	t.Parallel()
	for _, served := range []bool{false, true} {
		opts := testOptions()
		opts.Served = served
		m := newTestModel(t, newFake(), opts, 120, 40)
		send(t, m, press("ctrl+c"))
		wantHint, wantHelp, notHelp := "Ctrl+Q quits.", "quit", "detach (seats run on)"
		if served {
			wantHint, wantHelp, notHelp = "Ctrl+Q detaches.", "detach (seats run on)", "quit"
		}
		if !strings.Contains(plain(m), wantHint) {
			t.Fatalf("served %v: status lacks %q:\n%s", served, wantHint, plain(m))
		}
		send(t, m, press("f1"))
		row := ""
		for _, l := range strings.Split(plain(m), "\n") {
			if i := strings.Index(l, "Ctrl+Q"); i >= 0 {
				row = strings.TrimSpace(l[i+len("Ctrl+Q"):])
			}
		}
		if !strings.HasPrefix(row, wantHelp) || strings.HasPrefix(row, notHelp) {
			t.Fatalf("served %v: help's Ctrl+Q row %q, want %q", served, row, wantHelp)
		}
	}
}

// TestServedFieldsNeverReadTheHostClipboard: bubbles' ctrl+v reads the
// clipboard of the server host, so no field of a served UI binds it; the
// client terminal's paste still types.
func TestServedFieldsNeverReadTheHostClipboard(t *testing.T) {
	t.Parallel()
	ctrlV := press("ctrl+v")
	opts := testOptions()
	opts.Served = true
	m := newTestModel(t, newFake(), opts, 100, 30)
	if b := m.input.ta.KeyMap.Paste; b.Enabled() || key.Matches(ctrlV, b) {
		t.Fatalf("served input bar binds Paste to %v", b.Keys())
	}
	send(t, m, tea.PasteMsg{Content: "from the client"})
	if got := m.input.value(); got != "from the client" {
		t.Fatalf("bracketed paste into the served input bar: %q", got)
	}

	e := &env{served: true}
	ed := newEditor(e, AccountInfo{Kind: KindMCP, Name: "x"}, true, false, false)
	for f, in := range ed.inputs {
		if key.Matches(ctrlV, in.KeyMap.Paste) {
			t.Fatalf("served editor field %v binds Paste", f)
		}
	}
	for name, ta := range map[string]*textarea.Model{"env": &ed.envArea, "body": &ed.chr.area, "args": &ed.srv.args, "server env": &ed.srv.env} {
		if key.Matches(ctrlV, ta.KeyMap.Paste) {
			t.Fatalf("served editor %s area binds Paste", name)
		}
	}
	for name, b := range map[string]key.Binding{
		"topic finder": newTopicPicker(e, nil, nil).in.KeyMap.Paste,
		"rename":       newTopicList(e).rename.KeyMap.Paste,
		"attach":       newAttachPicker(&env{served: true, tr: catalog{lang: LangEnglish}}, "").in.KeyMap.Paste,
	} {
		if key.Matches(ctrlV, b) {
			t.Fatalf("served %s field binds Paste", name)
		}
	}

	// A local UI keeps bubbles' ctrl+v: its clipboard is the human's.
	local := newTestModel(t, newFake(), testOptions(), 100, 30)
	if !key.Matches(ctrlV, local.input.ta.KeyMap.Paste) {
		t.Fatalf("local input bar lost its Paste binding")
	}
}

// TestGoldenServedQuit: the leave question on small screens, English and
// Japanese: every line and all three buttons show.
func TestGoldenServedQuit(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		w, h int
		lang Lang
	}{
		{"60x20", 60, 20, LangEnglish},
		{"80x24", 80, 24, LangEnglish},
		{"60x20ja", 60, 20, LangJapanese},
		{"80x24ja", 80, 24, LangJapanese},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m, _ := servedModel(t, tc.lang, tc.w, tc.h)
			send(t, m, press("ctrl+q"))
			if m.overlay.open != ovDialog {
				t.Fatalf("no dialog")
			}
			golden.RequireEqual(t, m.View().Content)
		})
	}
}
