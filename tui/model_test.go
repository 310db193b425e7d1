package tui

import (
	"image/color"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/pullcept/pullcept/room"
)

func plain(m *Model) string { return ansi.Strip(m.View().Content) }

func TestStartupOpensANewUnindexedTopic(t *testing.T) {
	t.Parallel()
	f := scene()
	m := newTestModel(t, f, testOptions(), 120, 40)
	if m.topics.open != "new-1" {
		t.Fatalf("open topic = %q, want new-1", m.topics.open)
	}
	if len(f.opened) != 1 || f.opened[0] != "new-1" {
		t.Fatalf("OpenRoom calls = %v", f.opened)
	}
	if m.topics.indexed("new-1") {
		t.Fatalf("the startup topic must not be indexed")
	}
	if len(m.topics.items) != 4 || m.topics.items[0].ID != "t-main" || m.topics.items[3].ID != "t-2025" {
		t.Fatalf("topics not newest first: %+v", m.topics.items)
	}
	v := plain(m)
	for _, want := range []string{"+ New topic", "リリース準備", "●Fix the flaky", m.env.tr.t(mStWelcome), "New topic · F1 help"} {
		if !strings.Contains(v, want) {
			t.Fatalf("screen lacks %q:\n%s", want, v)
		}
	}
}

func TestFocusCycleAndEscape(t *testing.T) {
	t.Parallel()
	m := newTestModel(t, scene(), testOptions(), 120, 40)
	want := []Focus{FocusChat, FocusTopics, FocusParticipants, FocusInput}
	for _, w := range want {
		send(t, m, press("tab"))
		if m.focus != w {
			t.Fatalf("tab: focus = %v, want %v", m.focus, w)
		}
	}
	send(t, m, press("shift+tab"))
	if m.focus != FocusParticipants {
		t.Fatalf("shift+tab: focus = %v", m.focus)
	}
	send(t, m, press("esc"))
	if m.focus != FocusInput || !m.input.focused {
		t.Fatalf("esc: focus = %v", m.focus)
	}
	// Hiding a column drops it from the cycle.
	send(t, m, press("ctrl+b"))
	send(t, m, press("tab"))
	send(t, m, press("tab"))
	if m.focus != FocusParticipants {
		t.Fatalf("topics hidden: focus = %v, want participants", m.focus)
	}
}

func TestTopicSwitchingByKeysKeepsSeats(t *testing.T) {
	t.Parallel()
	f := scene()
	m := newTestModel(t, f, testOptions(), 120, 40)
	send(t, m, press("alt+down"))
	if m.topics.open != "t-main" {
		t.Fatalf("alt+down from a new topic: %q, want the newest", m.topics.open)
	}
	if len(f.closed) != 1 || f.closed[0] != "new-1" {
		t.Fatalf("leaving an empty unindexed topic should close its room: %v", f.closed)
	}
	send(t, m, press("alt+down"))
	if m.topics.open != "t-run" {
		t.Fatalf("alt+down: %q", m.topics.open)
	}
	send(t, m, press("alt+up"))
	if m.topics.open != "t-main" {
		t.Fatalf("alt+up: %q", m.topics.open)
	}
	if len(f.stopped) != 0 {
		t.Fatalf("switching stopped seats: %v", f.stopped)
	}
	if !strings.Contains(plain(m), "おはようございます") {
		t.Fatalf("t-main's posts not shown")
	}

	// A post in another topic marks it unread until it is opened.
	send(t, m, eventsMsg{evs: []Event{PostDelivered{Topic: "t-old", Post: post("x1", "Lin", "hi", 400)}}})
	if !m.topics.unread["t-old"] {
		t.Fatalf("no unread marker")
	}
	if m.topics.items[0].ID != "t-old" {
		t.Fatalf("activity did not move t-old first: %+v", m.topics.items[0])
	}
	if strings.Contains(plain(m), "hi\n") {
		t.Fatalf("another topic's post shown in the open chat")
	}
	send(t, m, press("ctrl+p"))
	typeText(t, m, "設計")
	send(t, m, press("enter"))
	if m.topics.open != "t-old" || m.topics.unread["t-old"] {
		t.Fatalf("picker: topic %q unread %v", m.topics.open, m.topics.unread["t-old"])
	}
}

func TestNewTopicRenameAndDelete(t *testing.T) {
	t.Parallel()
	f := scene()
	opts := testOptions()
	opts.StartTopic = "t-main"
	m := newTestModel(t, f, opts, 120, 40)

	send(t, m, press("f2"))
	if !m.topics.renaming {
		t.Fatalf("f2 did not open the rename prompt")
	}
	for range []rune("リリース準備") {
		send(t, m, press("backspace"))
	}
	typeText(t, m, "v1.0 リリース")
	send(t, m, press("enter"))
	if len(f.renamed) != 1 || f.renamed[0] != "t-main=v1.0 リリース" {
		t.Fatalf("renamed = %v", f.renamed)
	}

	// Deleting the open topic with a running seat names the seat.
	send(t, m, press("f8"))
	if m.overlay.open != ovDialog || m.overlay.dialog.kind != dialogDeleteTopic {
		t.Fatalf("f8 opened no dialog")
	}
	if got := strings.Join(m.overlay.dialog.lines, "\n"); !strings.Contains(got, "Lin") {
		t.Fatalf("dialog does not name the running seat: %q", got)
	}
	send(t, m, press("enter")) // the focus is on Cancel
	if len(f.deleted) != 0 || m.overlay.open != ovNone {
		t.Fatalf("enter on Cancel deleted: %v", f.deleted)
	}
	send(t, m, press("f8"))
	send(t, m, press("y"))
	if len(f.deleted) != 1 || f.deleted[0] != "t-main" {
		t.Fatalf("deleted = %v", f.deleted)
	}
	// Its neighbour below opens, not a blank new topic (issue 14).
	if m.topics.open != "t-run" || m.topics.indexed("t-main") {
		t.Fatalf("deleting the open topic should open its neighbour, open = %q", m.topics.open)
	}

	// A topic with no running seat: the question has no seat line.
	send(t, m, press("alt+down"))
	send(t, m, press("f8"))
	if len(m.overlay.dialog.lines) != 1 {
		t.Fatalf("dialog lines for a quiet topic: %q", m.overlay.dialog.lines)
	}
	send(t, m, press("esc"))

	send(t, m, press("ctrl+n"))
	if m.topics.open != "new-1" {
		t.Fatalf("ctrl+n: %q", m.topics.open)
	}
}

func TestStatusLineIsNeverSilent(t *testing.T) {
	t.Parallel()
	m := newTestModel(t, scene(), testOptions(), 120, 40)
	for _, tc := range []struct {
		msg  any
		want string
	}{
		{eventsMsg{evs: []Event{LogFailed{Topic: "t-main", MessageID: "p9", Err: "disk full"}}}, "Log write failed in “リリース準備”: disk full"},
		{eventsMsg{evs: []Event{LinesSkipped{Topic: "t-old", Count: 2}}}, "Skipped 2 unreadable log lines in “設計の相談”."},
		{eventsMsg{evs: []Event{SeatChanged{Topic: "t-run", Account: "lay", State: SeatExited, ExitCode: 3}}}, "Lay exited (code 3)."},
		{eventsMsg{evs: []Event{SeatChanged{Topic: "t-run", Account: "lay", State: SeatExited, Requested: true}}}, "Stopped Lay."},
		{eventsMsg{evs: []Event{SeatChanged{Topic: "t-run", Account: "lin", State: SeatFailed, Err: "claude: not found"}}}, "Lin failed: claude: not found"},
		{eventsMsg{evs: []Event{Notice{Text: "Lin cannot reach the room: disabled in settings", Error: true}}}, "Lin cannot reach the room"},
		{eventsClosedMsg{}, "The room server stopped."},
	} {
		send(t, m, tc.msg)
		if !strings.Contains(plain(m), tc.want) {
			t.Fatalf("status lacks %q:\n%s", tc.want, plain(m))
		}
	}
}

func TestQuitAsksOnlyWhenSeatsRun(t *testing.T) {
	t.Parallel()
	f := newFake()
	m := newTestModel(t, f, testOptions(), 100, 30)
	_, cmd := m.Update(press("ctrl+q"))
	if cmd == nil || !m.quitting {
		t.Fatalf("quit with nothing running should quit at once")
	}

	f = scene()
	f.seats["t-run"] = []SeatInfo{{Topic: "t-run", Account: "lay", State: SeatRunning}}
	f.next = map[seatKey]NextStart{{"t-run", "lay"}: NextResumes, {"t-main", "lin"}: NextFreshGone}
	opts := testOptions()
	opts.StartTopic = "t-main"
	m = newTestModel(t, f, opts, 100, 30)
	send(t, m, press("ctrl+q"))
	if m.overlay.open != ovDialog || m.overlay.dialog.kind != dialogQuit || m.quitting {
		t.Fatalf("quit with a running seat must ask first")
	}
	// Each seat with its topic, the open topic's first, and what its next
	// start does (issue 14: topic names were listed as if they were seats).
	want := []string{
		"Quitting stops every running seat. When you start one again in its topic, it:",
		"• Lin in “リリース準備”: starts fresh (its conversation was not found)",
		"• Lay in “Fix the flaky test 🧪”: resumes its conversation",
	}
	if got := m.overlay.dialog.lines; !slices.Equal(got, want) {
		t.Fatalf("quit question:\n%q\nwant\n%q", got, want)
	}
	ja := testOptions()
	ja.Lang, ja.StartTopic = LangJapanese, "t-main"
	m = newTestModel(t, f, ja, 100, 30)
	send(t, m, press("ctrl+q"))
	if got := strings.Join(m.overlay.dialog.lines, "\n"); !strings.Contains(got, "Lay（「Fix the flaky test 🧪」）: 会話を再開します") {
		t.Fatalf("Japanese quit question: %q", got)
	}
	send(t, m, press("esc"))
	if m.quitting || m.overlay.open != ovNone {
		t.Fatalf("esc must cancel quitting")
	}
}

func TestColoursFollowTheTerminalBackground(t *testing.T) {
	t.Parallel()
	m := mainModel(t, scene())
	dark := m.View().Content
	send(t, m, tea.BackgroundColorMsg{Color: color.White})
	if m.env.th.dark {
		t.Fatalf("a white background did not select light colours")
	}
	light := m.View().Content
	if light == dark || ansi.Strip(light) != ansi.Strip(dark) {
		t.Fatalf("light theme should change colours only")
	}
	if !strings.Contains(light, "38;2;24;95;165") { // the light accent #185fa5
		t.Fatalf("light accent not used")
	}
}

func TestMouseOpensTopicsAndFocusesAreas(t *testing.T) {
	t.Parallel()
	m := newTestModel(t, scene(), testOptions(), 120, 40)
	// Row 2 of the topic list is the newest topic (row 0 title, row 1 "+ New").
	send(t, m, mouseClick(m.layout.Topics.X+4, m.layout.Topics.Y+2))
	if m.topics.open != "t-main" || m.focus != FocusTopics {
		t.Fatalf("click: topic %q focus %v", m.topics.open, m.focus)
	}
	send(t, m, mouseClick(m.layout.Input.X+3, m.layout.Input.Y+1))
	if m.focus != FocusInput {
		t.Fatalf("click on the input: focus %v", m.focus)
	}
	send(t, m, mouseClick(m.layout.Participants.X+3, m.layout.Participants.Y+4))
	if r, ok := m.selectedRow(); m.focus != FocusParticipants || !ok || r.account == nil || r.account.ID != "lin" {
		t.Fatalf("click on Lin's row: focus %v row %+v", m.focus, r)
	}
}

// TestResyncedReloadsWhatTheStreamFed: after Resynced (the backend cut this
// UI off for falling behind and lost events) the model says so and reads
// again what it derived from events: the topic list, the accounts, and the
// open topic's history, roster and seats, so posts it missed appear.
func TestResyncedReloadsWhatTheStreamFed(t *testing.T) {
	t.Parallel()
	f := scene()
	opts := testOptions()
	opts.StartTopic = "t-main"
	m := newTestModel(t, f, opts, 120, 40)
	f.mu.Lock()
	opened, histories := len(f.opened), len(f.historyReqs)
	// A post the UI never got an event for.
	f.history["t-main"] = append(f.history["t-main"], post("missed-1", "Lin", "the post you missed", 600))
	f.mu.Unlock()

	send(t, m, eventsMsg{evs: []Event{Resynced{}}})

	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.opened) != opened+1 || len(f.historyReqs) != histories+1 {
		t.Fatalf("after Resynced: OpenRoom %d→%d, History %d→%d calls; want one more of each",
			opened, len(f.opened), histories, len(f.historyReqs))
	}
	if v := plain(m); !strings.Contains(v, "the post you missed") || !strings.Contains(v, "reloaded") {
		t.Fatalf("screen after Resynced lacks the missed post or the notice:\n%s", v)
	}
}

// TestRenameAnotherTopicOpensIt: r on a topic that is not open switches to
// it and loads it (its chat, roster and seats) before the prompt opens.
func TestRenameAnotherTopicOpensIt(t *testing.T) {
	t.Parallel()
	f := scene()
	opts := testOptions()
	opts.StartTopic = "t-main"
	m := newTestModel(t, f, opts, 120, 40)
	send(t, m, press("tab"))
	send(t, m, press("tab")) // the topic list
	if m.focus != FocusTopics {
		t.Fatalf("focus = %v, want the topic list", m.focus)
	}
	for m.topics.cursorID() != "t-old" {
		before := m.topics.cursorID()
		send(t, m, press("down"))
		if m.topics.cursorID() == before {
			t.Fatalf("the topic list has no t-old: %+v", m.topics.items)
		}
	}
	send(t, m, press("r"))
	if m.topics.open != "t-old" || !m.topics.renaming {
		t.Fatalf("r: open %q, renaming %v", m.topics.open, m.topics.renaming)
	}
	f.mu.Lock()
	opened := append([]string(nil), f.opened...)
	f.mu.Unlock()
	if opened[len(opened)-1] != "t-old" || m.chat.loading {
		t.Fatalf("the renamed topic was not loaded: OpenRoom calls %v, chat loading %v", opened, m.chat.loading)
	}
}

// TestHelpScrollStopsAtTheEnd: however far ↓ went, ↑ scrolls back at once.
func TestHelpScrollStopsAtTheEnd(t *testing.T) {
	t.Parallel()
	m := newTestModel(t, scene(), testOptions(), 80, 24)
	send(t, m, press("f1"))
	for range 200 {
		send(t, m, press("down"))
	}
	end, atEnd := m.overlay.helpOff, plain(m)
	if end == 0 || end >= 200 {
		t.Fatalf("help offset after 200×↓ = %d, want the last page's (clamped)", end)
	}
	send(t, m, press("up"))
	if m.overlay.helpOff != end-1 || plain(m) == atEnd {
		t.Fatalf("↑ after the end: offset %d → %d and the page did not move", end, m.overlay.helpOff)
	}
}

// TestFirstPostNamesASeatIndexedTopic: a seat started before the first post
// indexes the topic without a name; the first post names it, and the list
// and status line show the name then, not "Untitled" until a restart (the
// newcomer review found it so).
func TestFirstPostNamesASeatIndexedTopic(t *testing.T) {
	t.Parallel()
	f := scene()
	m := newTestModel(t, f, testOptions(), 120, 40)
	f.mu.Lock()
	f.topics["new-1"] = TopicInfo{ID: "new-1", Indexed: true}
	f.mu.Unlock()
	send(t, m, m.loadTopicsCmd()())
	if !m.topics.indexed("new-1") || m.topics.named("new-1") {
		t.Fatalf("the seat's topic should be listed unnamed: %+v", m.topics.items)
	}
	f.mu.Lock()
	f.postFn = func(topic string, d room.Draft) (room.Result, error) {
		f.mu.Lock()
		ti := f.topics[topic]
		ti.Name = "please review the parser"
		f.topics[topic] = ti
		f.mu.Unlock()
		return room.Result{Delivered: true, Post: room.Post{MessageID: d.MessageID, Role: room.RoleAdmin, Speaker: "マスター", Content: d.Content, TS: d.TS}}, nil
	}
	f.mu.Unlock()
	typeText(t, m, "please review the parser")
	send(t, m, press("enter"))
	if !m.topics.named("new-1") || !strings.Contains(plain(m), "please review the parser") {
		t.Fatalf("the first post did not name the listed topic:\n%s", plain(m))
	}
}

// TestDeleteTopicNotOpenNamesItsSeats: deleting a topic that is not open
// names the seats that will stop, in both languages, read from the
// backend (it has no panes here); an exited seat is not named. Before it
// said "These seats will stop: ●".
func TestDeleteTopicNotOpenNamesItsSeats(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		lang Lang
		want string
	}{
		{LangEnglish, "These seats will stop: Lay, Lin"},
		{LangJapanese, "止まるセッション: Lay, Lin"},
	} {
		f := scene()
		f.seats["t-run"] = []SeatInfo{
			{Topic: "t-run", Account: "lay", State: SeatRunning},
			{Topic: "t-run", Account: "lin", State: SeatStarting},
			{Topic: "t-run", Account: "gh", State: SeatExited},
		}
		opts := testOptions()
		opts.Lang, opts.StartTopic = tc.lang, "t-main"
		m := newTestModel(t, f, opts, 120, 40)
		m.setFocus(FocusTopics)
		for i := 0; i < 8 && m.topics.cursorID() != "t-run"; i++ {
			send(t, m, press("down"))
		}
		if m.topics.cursorID() != "t-run" || m.topics.open == "t-run" {
			t.Fatalf("%s: cursor on %q, open %q", tc.lang, m.topics.cursorID(), m.topics.open)
		}
		send(t, m, press("d"))
		if m.overlay.open != ovDialog || m.overlay.dialog.kind != dialogDeleteTopic || m.overlay.dialog.topic != "t-run" {
			t.Fatalf("%s: d opened no delete question", tc.lang)
		}
		if got := m.overlay.dialog.lines; len(got) != 2 || got[1] != tc.want {
			t.Fatalf("%s: dialog lines %q, want the seats named: %q", tc.lang, got, tc.want)
		}
		send(t, m, press("esc"))
		if len(f.deleted) != 0 {
			t.Fatalf("%s: esc deleted %v", tc.lang, f.deleted)
		}
	}
}
