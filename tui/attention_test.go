package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// attnScene is the golden scene with its dwell timers recorded and a clock
// the test moves.
type attnScene struct {
	f     *fakeBackend
	m     *Model
	due   []uint64 // ringDueMsg ids armed, in order
	ticks []tea.Msg
	clock time.Time
}

func newAttnScene(t *testing.T, items ...AttentionItem) *attnScene {
	t.Helper()
	s := &attnScene{f: scene(), clock: time.Date(2026, 12, 2, 15, 0, 0, 0, testLoc)}
	s.f.attn.items = items
	opts := testOptions()
	opts.Lang = LangEnglish
	opts.StartTopic = "t-main"
	opts.Now = func() time.Time { return s.clock }
	opts.Getenv = func(k string) string {
		if k == "TERM_PROGRAM" {
			return "WezTerm"
		}
		return ""
	}
	// The ring settings as a fresh config.json has them.
	s.f.set.info.NotifyDwell, s.f.set.info.NotifyCooldown = 5, 60
	s.m = newTestModel(t, s.f, opts, 120, 40)
	s.m.attn.after = func(_ time.Duration, msg tea.Msg) tea.Cmd {
		s.due = append(s.due, msg.(ringDueMsg).id)
		s.ticks = append(s.ticks, msg)
		return nil
	}
	return s
}

// add lists it (the backend's next change) and hands the UI the event.
func (s *attnScene) add(t *testing.T, it AttentionItem) {
	t.Helper()
	s.f.mu.Lock()
	s.f.attn.items = append(s.f.attn.items, it)
	items := slices.Clone(s.f.attn.items)
	s.f.mu.Unlock()
	send(t, s.m, eventsMsg{evs: []Event{AttentionChanged{Items: items}}})
}

// drop takes an item off the list (a card answered) and tells the UI.
func (s *attnScene) drop(t *testing.T, id uint64) {
	t.Helper()
	s.f.mu.Lock()
	s.f.attn.items = slices.DeleteFunc(s.f.attn.items, func(it AttentionItem) bool { return it.ID == id })
	items := slices.Clone(s.f.attn.items)
	s.f.mu.Unlock()
	send(t, s.m, eventsMsg{evs: []Event{AttentionChanged{Items: items}}})
}

// ring fires item id's dwell and returns what was written to the terminal
// ("" for nothing).
func (s *attnScene) ring(t *testing.T, id uint64) string {
	t.Helper()
	var out strings.Builder
	for _, c := range s.m.ringDue(id) {
		if c == nil {
			continue
		}
		if raw, ok := c().(tea.RawMsg); ok {
			out.WriteString(raw.Msg.(string))
		}
	}
	return out.String()
}

// fire hands the UI the dwell timer armed last, as it fires, and returns
// what was written to the terminal.
func (s *attnScene) fire(t *testing.T) string {
	t.Helper()
	if len(s.ticks) == 0 {
		t.Fatal("no dwell timer armed")
	}
	cmds, _ := s.m.attentionMsg(s.ticks[len(s.ticks)-1])
	var out strings.Builder
	for _, c := range cmds {
		if c == nil {
			continue
		}
		if raw, ok := c().(tea.RawMsg); ok {
			out.WriteString(raw.Msg.(string))
		}
	}
	return out.String()
}

func TestAttentionKnownAtStartNeverRings(t *testing.T) {
	t.Parallel()
	s := newAttnScene(t, AttentionItem{ID: 4, Kind: AttnAddressed, Topic: "t-old", Account: "lin", Ref: "m1", Detail: "Lin"})
	if len(s.due) != 0 {
		t.Fatalf("dwell armed for an item listed before this window: %v", s.due)
	}
	if st := shown(s.m); !strings.Contains(st, "! 1 need you: F5") {
		t.Fatalf("status line lacks the count:\n%s", st)
	}
}

func TestAttentionOtherTopicRingsAfterDwell(t *testing.T) {
	t.Parallel()
	s := newAttnScene(t)
	s.m.settings.info.NotifySequence, s.m.settings.info.NotifyDwell = "osc9", 5
	s.m.settings.loaded = true
	s.add(t, AttentionItem{ID: 1, Kind: AttnAddressed, Topic: "t-old", Account: "lin", Ref: "m1", Detail: "Lin"})
	if !slices.Equal(s.due, []uint64{1}) {
		t.Fatalf("dwell armed for %v", s.due)
	}
	got := s.ring(t, 1)
	if got != "\x1b]9;Pullcept: 設計の相談: Lin wrote to you\x07" {
		t.Fatalf("rang %q", got)
	}
	if s.m.attn.rings != 1 {
		t.Fatalf("rings = %d", s.m.attn.rings)
	}
	// The topic list marks the topic holding it.
	if st := shown(s.m); !strings.Contains(st, "!設計の相談") {
		t.Fatalf("topic list lacks the mark:\n%s", st)
	}
}

func TestAttentionOnTheFocusedScreenIsSeenNotRung(t *testing.T) {
	t.Parallel()
	s := newAttnScene(t)
	send(t, s.m, tea.FocusMsg{})
	s.add(t, AttentionItem{ID: 1, Kind: AttnAddressed, Topic: "t-main", Account: "lin", Ref: "m1", Detail: "Lin"})
	if len(s.due) != 0 || !slices.Equal(s.f.seenIDs(), []uint64{1}) {
		t.Fatalf("due %v seen %v", s.due, s.f.seenIDs())
	}
	if got := s.ring(t, 1); got != "" {
		t.Fatalf("rang %q", got)
	}
}

func TestAttentionBlurredRingsThenFocusSees(t *testing.T) {
	t.Parallel()
	s := newAttnScene(t)
	send(t, s.m, tea.BlurMsg{})
	s.add(t, AttentionItem{ID: 1, Kind: AttnAddressed, Topic: "t-main", Account: "lin", Ref: "m1", Detail: "Lin"})
	if !slices.Equal(s.due, []uint64{1}) || len(s.f.seenIDs()) != 0 {
		t.Fatalf("due %v seen %v", s.due, s.f.seenIDs())
	}
	if got := s.ring(t, 1); got == "" {
		t.Fatal("no ring with focus out")
	}
	send(t, s.m, tea.FocusMsg{})
	if !slices.Equal(s.f.seenIDs(), []uint64{1}) {
		t.Fatalf("focus back did not see it: %v", s.f.seenIDs())
	}
}

func TestAttentionCardAnsweredInTheDwellNeverRings(t *testing.T) {
	t.Parallel()
	s := newAttnScene(t)
	send(t, s.m, tea.BlurMsg{})
	s.add(t, AttentionItem{ID: 1, Kind: AttnCard, Topic: "t-main", Account: "lin", Ref: "7", Detail: "Bash"})
	s.drop(t, 1)
	if got := s.ring(t, 1); got != "" {
		t.Fatalf("rang %q for a card already answered", got)
	}
}

func TestAttentionCooldownPerSeat(t *testing.T) {
	t.Parallel()
	s := newAttnScene(t)
	send(t, s.m, tea.BlurMsg{})
	s.add(t, AttentionItem{ID: 1, Kind: AttnAddressed, Topic: "t-old", Account: "lin", Ref: "m1"})
	s.add(t, AttentionItem{ID: 2, Kind: AttnAddressed, Topic: "t-old", Account: "lin", Ref: "m2"})
	s.add(t, AttentionItem{ID: 3, Kind: AttnAddressed, Topic: "t-old", Account: "lay", Ref: "m3"})
	rang := 0
	for _, id := range []uint64{1, 2, 3} {
		if s.ring(t, id) != "" {
			rang++
		}
	}
	if rang != 2 {
		t.Fatalf("%d rings: the cooldown lets one per seat", rang)
	}
	s.clock = s.clock.Add(60 * time.Second)
	s.add(t, AttentionItem{ID: 4, Kind: AttnAddressed, Topic: "t-old", Account: "lin", Ref: "m4"})
	if s.ring(t, 4) == "" {
		t.Fatal("no ring after the cooldown")
	}
}

func TestAttentionOffNeverRings(t *testing.T) {
	t.Parallel()
	s := newAttnScene(t)
	s.m.settings.info.Notify = NotifyOff
	s.m.settings.loaded = true
	send(t, s.m, tea.BlurMsg{})
	s.add(t, AttentionItem{ID: 1, Kind: AttnAddressed, Topic: "t-old", Account: "lin", Ref: "m1"})
	if len(s.due) != 0 || s.ring(t, 1) != "" {
		t.Fatalf("off: due %v", s.due)
	}
}

func TestAttentionJumpWalksItems(t *testing.T) {
	t.Parallel()
	s := newAttnScene(t)
	s.add(t, AttentionItem{ID: 1, Kind: AttnAddressed, Topic: "t-old", Account: "lin", Ref: "m1", Detail: "Lin"})
	s.add(t, AttentionItem{ID: 2, Kind: AttnBraked, Topic: "t-run", Count: 12})
	send(t, s.m, press("f5"))
	if s.m.topics.open != "t-old" || s.m.focus != FocusChat {
		t.Fatalf("f5 went to %q focus %v", s.m.topics.open, s.m.focus)
	}
	send(t, s.m, press("f5"))
	if s.m.topics.open != "t-run" {
		t.Fatalf("second f5 went to %q", s.m.topics.open)
	}
	if !slices.Contains(s.f.seenIDs(), 1) || !slices.Contains(s.f.seenIDs(), 2) {
		t.Fatalf("seen %v", s.f.seenIDs())
	}
}

func TestAttentionListOverlay(t *testing.T) {
	t.Parallel()
	s := newAttnScene(t)
	s.add(t, AttentionItem{ID: 1, Kind: AttnExited, Topic: "t-old", Account: "lay", Detail: "exit 3"})
	s.add(t, AttentionItem{ID: 2, Kind: AttnMCPDied, Account: "gh", Detail: "exit 1"})
	send(t, s.m, press("shift+f5"))
	st := shown(s.m)
	for _, want := range []string{"Needs you", "設計の相談: Lay ended: exit 3", "MCP server github ended: exit 1"} {
		if !strings.Contains(st, want) {
			t.Fatalf("list lacks %q:\n%s", want, st)
		}
	}
	send(t, s.m, press("esc"))
	if s.m.overlay.open != ovNone {
		t.Fatal("esc left the list open")
	}
}

// TestAttentionMCPEditorIsOnScreen: a local MCP server's end is on the
// screen while its account's editor shows its state (newcomer review:
// it rang there).
func TestAttentionMCPEditorIsOnScreen(t *testing.T) {
	t.Parallel()
	s := newAttnScene(t)
	acc, ok := s.m.accounts.find("gh")
	if !ok {
		t.Fatal("no gh account in the scene")
	}
	send(t, s.m, tea.FocusMsg{}) // a terminal that reports its focus
	drive(t, s.m, tea.Batch(s.m.openEditor(acc, false)...))
	s.add(t, AttentionItem{ID: 1, Kind: AttnMCPDied, Account: "gh", Detail: "exit 1"})
	if len(s.due) != 0 || !slices.Equal(s.f.seenIDs(), []uint64{1}) {
		t.Fatalf("due %v seen %v", s.due, s.f.seenIDs())
	}
}

// TestAttentionDetailIsOneRow: a detail is seat- or server-written (a local
// MCP server's initialize error, an exit's error): its line breaks must not
// become rows of the list, where they drew items that are not listed — a
// card of another seat — and pushed the real ones down.
func TestAttentionDetailIsOneRow(t *testing.T) {
	t.Parallel()
	s := newAttnScene(t)
	forged := "設計の相談: Lin asks to use Bash"
	s.add(t, AttentionItem{ID: 1, Kind: AttnMCPDied, Account: "gh", Detail: "initialize failed: x\n  " + forged + "\r\n\n\n"})
	s.add(t, AttentionItem{ID: 2, Kind: AttnExited, Topic: "t-old", Account: "lay", Detail: "exit 3\n" + forged})
	send(t, s.m, press("shift+f5"))
	st := shown(s.m)
	rows := 0
	for _, line := range strings.Split(st, "\n") {
		if strings.Contains(line, "Lin asks") && !strings.Contains(line, "ended:") {
			t.Errorf("a detail drew a row of its own: %q", line)
		}
		if strings.Contains(line, " ended: ") {
			rows++
		}
	}
	if rows != 2 {
		t.Errorf("%d item rows, want 2:\n%s", rows, st)
	}
	if got := s.m.itemText(s.m.attn.items[0]); strings.ContainsAny(got, "\r\n") {
		t.Errorf("item text %q holds a line break", got)
	}
}

// TestAttentionFloodArmsOneTimer: a seat addressing the human thousands of
// times a second hands this UI up to 200 new items an event. Each waited
// out its dwell in a timer of its own, a goroutine for up to the 600 s
// dwell: at the 25 000 new items a second a flood brings a UI, millions.
// One timer waits now, for the item due first; the next is armed as it
// fires, and each seat still rings once within its cooldown.
func TestAttentionFloodArmsOneTimer(t *testing.T) {
	t.Parallel()
	s := newAttnScene(t)
	send(t, s.m, tea.BlurMsg{})
	var items []AttentionItem
	for id := uint64(1); id <= 2000; id++ {
		items = append(items, AttentionItem{ID: id, Kind: AttnAddressed, Topic: "t-old", Account: "bad", Ref: fmt.Sprint(id)})
		if len(items) > 200 {
			items = items[1:]
		}
		if id%50 == 0 {
			send(t, s.m, eventsMsg{evs: []Event{AttentionChanged{Items: slices.Clone(items)}}})
		}
	}
	if len(s.due) != 1 || s.due[0] != 1 {
		t.Fatalf("%d dwell timers armed (first %v), want one", len(s.due), s.due[:min(len(s.due), 3)])
	}
	// Another seat's item a second later is due a second later.
	s.clock = s.clock.Add(time.Second)
	items = append(items[1:], AttentionItem{ID: 2001, Kind: AttnCard, Topic: "t-run", Account: "lin", Ref: "9", Detail: "Bash"})
	send(t, s.m, eventsMsg{evs: []Event{AttentionChanged{Items: slices.Clone(items)}}})
	if len(s.due) != 1 {
		t.Fatalf("a later item armed a timer of its own: %v", s.due)
	}
	s.clock = s.clock.Add(4 * time.Second)
	if out := s.fire(t); strings.Count(out, "\x1b]777;") != 1 || !strings.Contains(out, "bad wrote to you") {
		t.Fatalf("the flood's first dwell rang %q, want one ring", out)
	}
	if len(s.due) != 2 {
		t.Fatalf("no timer armed for the card: %v", s.due)
	}
	s.clock = s.clock.Add(time.Second)
	if out := s.fire(t); !strings.Contains(out, "Lin asks to use Bash") {
		t.Fatalf("the card's dwell rang %q", out)
	}
	if s.m.attn.rings != 2 {
		t.Fatalf("%d rings, want 2", s.m.attn.rings)
	}
}

// TestAttentionLoadDoesNotUndoANewerChange: the list read at start or after
// Resynced is answered by a command, so a change event may be handled
// before it: the older answer then put back the list before that change
// (an item missing from the count and the list until the next change).
// And an item new in a list read after Resynced waits out its dwell and
// rings, as it would have from its event.
func TestAttentionLoadDoesNotUndoANewerChange(t *testing.T) {
	t.Parallel()
	old := AttentionItem{ID: 1, Kind: AttnExited, Topic: "t-old", Account: "lay", Detail: "exit 3"}
	s := newAttnScene(t, old)
	send(t, s.m, tea.BlurMsg{})
	newer := AttentionItem{ID: 2, Kind: AttnAddressed, Topic: "t-run", Account: "lin", Ref: "m2", Detail: "Lin"}
	s.add(t, newer)
	send(t, s.m, attentionLoadedMsg{items: []AttentionItem{old}}) // read before the change
	if len(s.m.attn.items) != 2 {
		t.Fatalf("a late answer put back an older list: %+v", s.m.attn.items)
	}
	// Events lost (Resynced): the list read again holds an item no event
	// brought.
	s.f.mu.Lock()
	s.f.attn.items = append(s.f.attn.items, AttentionItem{ID: 3, Kind: AttnBraked, Topic: "t-run", Count: 12})
	s.f.mu.Unlock()
	s.due = nil
	send(t, s.m, eventsMsg{evs: []Event{Resynced{}}})
	if len(s.m.attn.items) != 3 || !slices.Contains(s.due, 3) && s.m.attn.due[3].IsZero() {
		t.Fatalf("after Resynced: items %d, item 3 not waiting to ring (armed %v)", len(s.m.attn.items), s.due)
	}
}

// TestAttentionNoFocusReportsSeesOnInput: a terminal that never reports
// focus (tmux without focus-events, its default) counts as focused, so
// what is on its screen never rings; it reported the item seen at once
// too, which took it off the list for every window — a window left open
// on another machine swallowed every item of its open topic, and the
// window the human sat at never rang. Such a terminal reports items seen
// only with its human's input (a key, a paste, a click), as F5 does.
func TestAttentionNoFocusReportsSeesOnInput(t *testing.T) {
	t.Parallel()
	s := newAttnScene(t)
	s.add(t, AttentionItem{ID: 1, Kind: AttnAddressed, Topic: "t-main", Account: "lin", Ref: "m1", Detail: "Lin"})
	if len(s.due) != 0 || len(s.f.seenIDs()) != 0 {
		t.Fatalf("no input yet: armed %v, seen %v", s.due, s.f.seenIDs())
	}
	if got := s.ring(t, 1); got != "" {
		t.Fatalf("rang %q for an item on the screen", got)
	}
	send(t, s.m, press("down"))
	if !slices.Equal(s.f.seenIDs(), []uint64{1}) {
		t.Fatalf("a key did not see it: %v", s.f.seenIDs())
	}
}

// TestAttentionOnlyTheShownCardIsOnScreen: with two cards waiting, the
// card shown is on the screen and the one behind it rings — a seat that
// keeps one card open hides no other seat's (breaker review); while the
// card box has the keys, every card is (the box counts them).
func TestAttentionOnlyTheShownCardIsOnScreen(t *testing.T) {
	t.Parallel()
	s := newAttnScene(t)
	send(t, s.m, tea.FocusMsg{})
	first, second := bashCard(7), bashCard(8)
	second.Account = "lay"
	s.f.perm.cards = []PermissionCard{first, second}
	send(t, s.m, eventsMsg{evs: []Event{PermissionAsked{Card: first}, PermissionAsked{Card: second}}})
	s.add(t, AttentionItem{ID: 1, Kind: AttnCard, Topic: "t-main", Account: "lin", Ref: "7", Detail: "Bash"})
	s.add(t, AttentionItem{ID: 2, Kind: AttnCard, Topic: "t-main", Account: "lay", Ref: "8", Detail: "Bash"})
	if !slices.Equal(s.due, []uint64{2}) || !slices.Equal(s.f.seenIDs(), []uint64{1}) {
		t.Fatalf("due %v seen %v: the card shown is seen, the one behind waits to ring", s.due, s.f.seenIDs())
	}
	send(t, s.m, press("f7")) // the human answers cards: the box counts the rest
	if !slices.Contains(s.f.seenIDs(), 2) {
		t.Fatalf("seen %v with the card box focused", s.f.seenIDs())
	}
}
