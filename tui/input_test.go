package tui

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/pullcept/pullcept/room"
)

func mainModel(t *testing.T, f *fakeBackend) *Model {
	t.Helper()
	opts := testOptions()
	opts.StartTopic = "t-main"
	return newTestModel(t, f, opts, 120, 40)
}

func TestCompletionItems(t *testing.T) {
	t.Parallel()
	roster := []room.Member{
		{Name: "マスター", Local: true},
		{Name: "Lin"}, {Name: "Lay"}, {Name: "Lin"}, {Name: "lisa"}, {Name: "Bob"}, {Name: "マスター"},
	}
	for _, tc := range []struct {
		q    string
		want []string
	}{
		{"", []string{"Lin", "Lay", "lisa", "Bob"}},
		{"l", []string{"Lin", "Lay", "lisa"}},
		{"LI", []string{"Lin", "lisa"}},
		{"x", nil},
	} {
		if got := completionItems(roster, "マスター", tc.q); !reflect.DeepEqual(got, tc.want) {
			t.Fatalf("query %q: got %v want %v", tc.q, got, tc.want)
		}
	}
}

func TestCompletionPopupStates(t *testing.T) {
	t.Parallel()
	f := scene()
	m := mainModel(t, f)
	in := m.input
	open := func() bool { return in.comp.open() }

	typeText(t, m, "@")
	if !open() || !reflect.DeepEqual(in.comp.items, []string{"Lin", "Lay"}) {
		t.Fatalf("@ at start: open=%v items=%v", open(), in.comp.items)
	}
	typeText(t, m, "La")
	if !reflect.DeepEqual(in.comp.items, []string{"Lay"}) {
		t.Fatalf("@La: items=%v", in.comp.items)
	}
	send(t, m, press("tab"))
	if in.value() != "@Lay " || open() {
		t.Fatalf("tab pick: %q open=%v", in.value(), open())
	}

	// Mid-word @ (an e-mail) does not open.
	typeText(t, m, "mail a@l")
	if open() {
		t.Fatalf("a@l opened the popup")
	}
	// Full-width ＠ after a space opens; ↓ moves; Enter picks.
	typeText(t, m, " ＠")
	if !open() {
		t.Fatalf("＠ did not open")
	}
	send(t, m, press("down"))
	if in.comp.sel != 1 {
		t.Fatalf("down: sel=%d", in.comp.sel)
	}
	send(t, m, press("up"))
	send(t, m, press("up"))
	if in.comp.sel != 1 {
		t.Fatalf("up wraps: sel=%d", in.comp.sel)
	}
	send(t, m, press("enter"))
	if !strings.HasSuffix(in.value(), " @Lay ") || open() {
		t.Fatalf("enter pick: %q open=%v", in.value(), open())
	}
	if len(f.posts) != 0 {
		t.Fatalf("enter in the popup must not send")
	}

	// Esc closes and it stays closed while typing on in the same @word.
	typeText(t, m, "@")
	send(t, m, press("esc"))
	if open() {
		t.Fatalf("esc did not close")
	}
	typeText(t, m, "L")
	if open() {
		t.Fatalf("the closed @ reopened")
	}
	// A new @ opens again; the roster change is followed live.
	typeText(t, m, " @")
	if !open() {
		t.Fatalf("a new @ should open")
	}
	send(t, m, eventsMsg{evs: []Event{RosterChanged{Topic: "t-main", Roster: []room.Member{{Name: "マスター", Local: true}, {Name: "Lin"}, {Name: "Codex 2"}}}}})
	if !reflect.DeepEqual(in.comp.items, []string{"Lin", "Codex 2"}) {
		t.Fatalf("roster change: items=%v", in.comp.items)
	}
	if !strings.Contains(ansi.Strip(m.View().Content), "@Codex 2") {
		t.Fatalf("popup not drawn with the new roster")
	}
}

func TestEnterSendsShiftEnterNewline(t *testing.T) {
	t.Parallel()
	f := scene()
	m := mainModel(t, f)
	typeText(t, m, "hello")
	send(t, m, press("shift+enter"))
	typeText(t, m, "世界")
	send(t, m, press("alt+enter"))
	typeText(t, m, "!")
	if len(f.posts) != 0 {
		t.Fatalf("a newline key sent the post")
	}
	send(t, m, press("enter"))
	if len(f.posts) != 1 {
		t.Fatalf("posts = %d", len(f.posts))
	}
	d := f.posts[0]
	if d.Content != "hello\n世界\n!" || d.LastSeen != "p7" || d.MessageID == "" || d.TS != "2026-10-02T05:30:00.000Z" {
		t.Fatalf("draft = %+v", d)
	}
	if m.input.value() != "" {
		t.Fatalf("input not cleared: %q", m.input.value())
	}
	if m.chat.newest != d.MessageID {
		t.Fatalf("own delivered post not rendered: newest=%q", m.chat.newest)
	}
	send(t, m, press("enter"))
	if len(f.posts) != 1 {
		t.Fatalf("an empty input sent a post")
	}
}

func TestRefusalPutsTheOriginalTextBack(t *testing.T) {
	t.Parallel()
	for _, err := range []error{room.ErrOnlyMentions, room.ErrEmptyPost} {
		f := scene()
		f.postFn = func(string, room.Draft) (room.Result, error) { return room.Result{}, err }
		m := mainModel(t, f)
		typeText(t, m, "@Lin  ")
		send(t, m, press("enter"))
		if m.input.value() != "@Lin  " {
			t.Fatalf("%v: input = %q", err, m.input.value())
		}
		if !strings.Contains(plain(m), err.Error()) {
			t.Fatalf("%v: no reason on the status line", err)
		}
	}
}

func TestFloorRejectionRendersMissedPostsOnce(t *testing.T) {
	t.Parallel()
	f := scene()
	p8 := post("p8", "Lay", "新しい発言です", 300)
	p7 := f.history["t-main"][6]
	calls := 0
	f.postFn = func(topic string, d room.Draft) (room.Result, error) {
		calls++
		if calls == 1 {
			return room.Result{Delivered: false, Missed: []room.Post{p7, p8}}, nil
		}
		return room.Result{Delivered: true, Post: room.Post{MessageID: d.MessageID, Speaker: "マスター", Role: room.RoleAdmin, Content: d.Content, TS: d.TS}}, nil
	}
	m := mainModel(t, f)
	typeText(t, m, "出荷します")
	send(t, m, press("enter"))
	if m.input.value() != "出荷します" {
		t.Fatalf("input after rejection = %q", m.input.value())
	}
	if n := strings.Count(plain(m), "新しい発言です"); n != 1 {
		t.Fatalf("missed post drawn %d times", n)
	}
	if n := strings.Count(plain(m), "ありがとう。"); n != 1 {
		t.Fatalf("already rendered post drawn %d times", n)
	}
	if m.chat.newest != "p8" {
		t.Fatalf("watermark = %q, want p8", m.chat.newest)
	}
	// The PostDelivered event for p8 arrives later: still drawn once.
	send(t, m, eventsMsg{evs: []Event{PostDelivered{Topic: "t-main", Post: p8}}})
	if n := strings.Count(plain(m), "新しい発言です"); n != 1 {
		t.Fatalf("missed post drawn %d times after its event", n)
	}
	send(t, m, press("enter"))
	if len(f.posts) != 2 || f.posts[1].LastSeen != "p8" || f.posts[1].Content != "出荷します" {
		t.Fatalf("retry draft = %+v", f.posts[len(f.posts)-1])
	}
}

func TestRealCursorSitsAtTheCaret(t *testing.T) {
	t.Parallel()
	m := mainModel(t, scene())
	typeText(t, m, "日本語")
	v := m.View()
	if v.Cursor == nil {
		t.Fatalf("no real cursor while typing (IME needs it)")
	}
	in := m.layout.Input
	if v.Cursor.X != in.X+1+6 || v.Cursor.Y != in.Y+1 {
		t.Fatalf("cursor at (%d,%d), want (%d,%d)", v.Cursor.X, v.Cursor.Y, in.X+7, in.Y+1)
	}
	send(t, m, press("shift+tab")) // tab keeps a non-empty input's focus
	if m.View().Cursor != nil {
		t.Fatalf("cursor shown while another area has focus")
	}
}

func TestInputGrowsWithItsText(t *testing.T) {
	t.Parallel()
	m := mainModel(t, scene())
	h0 := m.layout.Input.H
	for i := 0; i < 3; i++ {
		typeText(t, m, "line")
		send(t, m, press("ctrl+j"))
	}
	if m.layout.Input.H != h0+3 {
		t.Fatalf("input height %d after 3 newlines, was %d", m.layout.Input.H, h0)
	}
	for i := 0; i < 10; i++ {
		send(t, m, press("ctrl+j"))
	}
	if m.layout.Input.H != maxInputRows+2 {
		t.Fatalf("input height %d, max %d", m.layout.Input.H, maxInputRows+2)
	}
	send(t, m, press("ctrl+c"))
	if m.input.value() != "" || m.layout.Input.H != h0 {
		t.Fatalf("ctrl+c did not clear: %q h=%d", m.input.value(), m.layout.Input.H)
	}
}

// TestHugePasteIsRefusedWhole: a paste the input cannot hold is refused
// whole with a reason, before the textarea sees it — it keeps at most
// 10 000 lines and trimmed a longer paste row by row (a 300 KB paste of
// short lines took minutes and lost its tail silently). A paste that fits
// goes in whole.
func TestHugePasteIsRefusedWhole(t *testing.T) {
	t.Parallel()
	m := mainModel(t, scene())
	send(t, m, tea.PasteMsg{Content: "kept "})
	var lines []string
	for i := range 20000 {
		lines = append(lines, fmt.Sprintf("line %05d", i))
	}
	for _, c := range []struct{ what, paste, want string }{
		{"2 MiB", strings.Repeat("x", 2<<20), "Paste not taken: the post would be 2.0 MiB"},
		{"20 000 short lines", strings.Join(lines, "\n"), "Paste not taken: 20001 rows at this width; the input holds 9999"},
	} {
		send(t, m, tea.PasteMsg{Content: c.paste})
		if v := plain(m); !strings.Contains(strings.Join(strings.Fields(v), " "), c.want) {
			t.Fatalf("%s: no refusal %q on screen:\n%s", c.what, c.want, v)
		}
		if got := m.input.value(); got != "kept " {
			t.Fatalf("%s: the input holds %d bytes, want only what was there", c.what, len(got))
		}
	}
	fits := strings.Join(lines[:3000], "\n")
	send(t, m, tea.PasteMsg{Content: fits})
	if got := m.input.value(); got != "kept "+fits {
		t.Fatalf("a paste that fits: the input holds %d bytes, want %d", len(got), len("kept "+fits))
	}
}
