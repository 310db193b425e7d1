package tui

import (
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/pullcept/pullcept/room"
)

// hueCode is the SGR foreground parameters the theme draws hue h with
// ("38;2;r;g;b"), whatever else (bold) the same sequence sets.
func hueCode(m *Model, h int) string {
	s := m.env.th.hueStyle(h).Render("X")
	s = s[:strings.Index(s, "X")]
	return strings.TrimSuffix(strings.TrimPrefix(s, "\x1b["), "m")
}

// viewLine is the first line of the model's view holding text (with its
// escapes), "" when none does.
func viewLine(m *Model, text string) string {
	for _, l := range strings.Split(m.View().Content, "\n") {
		if strings.Contains(ansi.Strip(l), text) {
			return l
		}
	}
	return ""
}

// editField focuses the open editor's field f.
func editField(t *testing.T, m *Model, f edField) {
	t.Helper()
	for i := 0; m.overlay.editor.field != f; i++ {
		if i > 20 {
			t.Fatalf("field %v not reached", f)
		}
		send(t, m, press("tab"))
	}
}

// setField replaces the text of the open editor's one-line field f.
func setField(t *testing.T, m *Model, f edField, v string) {
	t.Helper()
	editField(t, m, f)
	for range m.overlay.editor.inputs[f].Value() {
		send(t, m, press("end"))
		send(t, m, press("backspace"))
	}
	typeText(t, m, v)
}

// TestRenameRedrawsTheSamePeople: the human and a seat's account are
// renamed and recoloured in the editor. At once: the @ popup offers the
// seat's new name in every topic whose roster the room renamed (and never
// the old one); every post of the seat's account, old (said as "Lin", hue
// 120) and new, is drawn in the account's new colour; the human's old
// posts stay on the right, in the human's new colour, though they carry the
// old name (docs/design.md §10, spec «画面の人の色は描いた行にもその場で届く»).
func TestRenameRedrawsTheSamePeople(t *testing.T) {
	t.Parallel()
	f := scene()
	old := post("p8", "Lin", "the old words of Lin", 7)
	old.Account, old.Hue = "lin", hue(120)
	mine := post("p9", "マスター", "my old words", 8)
	mine.Role, mine.Account = room.RoleAdmin, "admin"
	f.history["t-main"] = append(f.history["t-main"], old, mine)
	f.rosters["t-run"] = f.rosters["t-main"]
	m := mainModel(t, f)

	toParticipants(t, m, "lin")
	send(t, m, press("e"))
	setField(t, m, fNickname, "Linnea")
	editField(t, m, fHue)
	send(t, m, press("right"))
	send(t, m, press("right")) // the palette's second hue (the first is the accent)
	send(t, m, press("ctrl+s"))
	toParticipants(t, m, "admin")
	send(t, m, press("e"))
	setField(t, m, fName, "Master")
	editField(t, m, fHue)
	send(t, m, press("left")) // the palette's last hue
	send(t, m, press("ctrl+s"))
	if len(f.saved) != 2 || f.saved[0].Nickname != "Linnea" || f.saved[1].Name != "Master" {
		t.Fatalf("saved = %+v", f.saved)
	}
	linHue, myHue := huePalette()[1], huePalette()[len(huePalette())-1]

	// The room renames the seats of the account in every open room.
	renamed := []room.Member{
		{Name: "Master", AccountID: "admin", Role: room.RoleAdmin, Local: true},
		{Name: "Linnea", FullName: "Claude Lin", AccountID: "lin", Hue: &linHue, Role: room.RoleClaudeCode},
		{Name: "Lay", AccountID: "lay", Role: room.RoleCodexCLI},
	}
	send(t, m, eventsMsg{evs: []Event{RosterChanged{Topic: "t-main", Roster: renamed}, RosterChanged{Topic: "t-run", Roster: renamed}}})
	send(t, m, press("esc"))
	for m.focus != FocusInput {
		send(t, m, press("tab"))
	}
	typeText(t, m, "@Li")
	if !reflect.DeepEqual(m.input.comp.items, []string{"Linnea"}) {
		t.Fatalf("@Li offers %v, want [Linnea]", m.input.comp.items)
	}
	send(t, m, press("esc")) // the popup sits over the chat's last rows
	if l := viewLine(m, "the old words of Lin"); l == "" {
		t.Fatal("the old post is not drawn")
	}
	if l := viewLine(m, "Lin  09:07"); !strings.Contains(l, hueCode(m, linHue)) {
		t.Fatalf("the old post's speaker is not in the account's new colour %d: %q", linHue, l)
	}
	l := viewLine(m, "my old words")
	if !strings.Contains(l, hueCode(m, myHue)+"mmy old words") {
		t.Fatalf("the human's old post is not in the new colour %d: %q", myHue, l)
	}
	if i := strings.Index(ansi.Strip(l), "my old words"); i < 60 {
		t.Fatalf("the human's old post is not on the right (column %d): %q", i, ansi.Strip(l))
	}
	// The other topic's popup follows its own renamed roster.
	if got := completionItems(m.accounts.rosters["t-run"], m.env.selfName, "li"); !reflect.DeepEqual(got, []string{"Linnea"}) {
		t.Fatalf("t-run offers %v", got)
	}
}

// TestEditorKindChangeResetsTheOldKinds: moving an account's kind resets
// what belonged to the old one — a default name becomes the new kind's
// (numbered past the names in use), the command becomes the new kind's as
// found on PATH, launch options and a generic CLI's resume line are emptied
// — and the editor says so before anything is saved; a chosen name stays;
// a running account's kind is refused with its own reason
// (docs/design.md §9 "Identity").
func TestEditorKindChangeResetsTheOldKinds(t *testing.T) {
	t.Parallel()
	f := scene()
	f.paths["codex"] = "/opt/bin/codex"
	f.accounts = append(f.accounts,
		AccountInfo{ID: "cc2", Kind: KindClaudeCode, Name: "Claude Code 2", Dir: "/w", Command: "claude", Options: "--model opus"},
		AccountInfo{ID: "rev", Kind: KindCLI, Name: "Reviewer", Dir: "/w", Command: "aider", Options: "--yes", ResumeLine: "aider --restore {session_id}"},
		AccountInfo{ID: "cx9", Kind: KindCodexCLI, Name: "Codex CLI", Dir: "/w", Command: "codex"},
	)
	m := mainModel(t, f)

	toParticipants(t, m, "cc2")
	send(t, m, press("e"))
	editField(t, m, fKind)
	send(t, m, press("right")) // Claude Code → Codex CLI
	ed := m.overlay.editor
	want := "Kind is now Codex CLI (not saved yet). Changed with it: name “Claude Code 2” → “Codex CLI 2”; " +
		"command “claude” → “/opt/bin/codex”; launch options “--model opus” → (empty)."
	if ed.msg != want || ed.msgErr {
		t.Fatalf("message = %q (error %v), want %q", ed.msg, ed.msgErr, want)
	}
	if !strings.Contains(strings.Join(strings.Fields(plain(m)), " "), "Changed with it:") {
		t.Fatalf("the change is not shown:\n%s", plain(m))
	}
	if len(f.saved) != 0 {
		t.Fatal("a kind change saved by itself")
	}
	send(t, m, press("ctrl+s"))
	if len(f.saved) != 1 {
		t.Fatalf("saved %d", len(f.saved))
	}
	if s := f.saved[0]; s.Kind != KindCodexCLI || s.Name != "Codex CLI 2" || s.Command != "/opt/bin/codex" || s.Options != "" || s.Dir != "/w" {
		t.Fatalf("saved %+v", s)
	}

	// A chosen name stays; a generic CLI's resume line goes with its kind.
	toParticipants(t, m, "rev")
	send(t, m, press("e"))
	editField(t, m, fKind)
	send(t, m, press("left")) // CLI → Codex CLI
	ed = m.overlay.editor
	if got := ed.collect(); got.Name != "Reviewer" || got.Command != "/opt/bin/codex" || got.Options != "" || got.ResumeLine != "" {
		t.Fatalf("after the kind change: %+v", got)
	}
	if !strings.Contains(ed.msg, "resume line “aider --restore {session_id}” → (empty)") || strings.Contains(ed.msg, "name ") {
		t.Fatalf("message = %q", ed.msg)
	}
	send(t, m, press("esc")) // unsaved changes: the first Esc asks
	send(t, m, press("esc"))

	// A running account's kind stays, with its reason.
	toParticipants(t, m, "lin")
	send(t, m, press("e"))
	editField(t, m, fKind)
	send(t, m, press("right"))
	if ed := m.overlay.editor; ed.acc.Kind != KindClaudeCode || ed.msg != "A running account's kind cannot change: stop its seats first." {
		t.Fatalf("running: kind %s, message %q", ed.acc.Kind, ed.msg)
	}
}

// TestEditorKindChangeInJapanese: the message is the screen's language,
// and a default name made in the other language is still the default.
func TestEditorKindChangeInJapanese(t *testing.T) {
	t.Parallel()
	f := scene()
	f.accounts = append(f.accounts, AccountInfo{ID: "g", Kind: KindCLI, Name: "CLI（汎用） 3", Dir: "/w", Command: "bash"})
	opts := testOptions()
	opts.Lang, opts.StartTopic = LangJapanese, "t-main"
	m := newTestModel(t, f, opts, 120, 40)
	toParticipants(t, m, "g")
	send(t, m, press("e"))
	editField(t, m, fKind)
	send(t, m, press("right")) // CLI → MCP
	want := "種別をMCPにしました（未保存）。あわせて変えたもの: 名前「CLI（汎用） 3」→「MCP」、コマンド「bash」→（空）。"
	if ed := m.overlay.editor; ed.msg != want {
		t.Fatalf("message = %q, want %q", ed.msg, want)
	}
}

// TestIsDefaultName: a kind's label in either language, numbered or not,
// any case; nothing else.
func TestIsDefaultName(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, kind string
		want       bool
	}{
		{"Claude Code", KindClaudeCode, true},
		{"claude code 12", KindClaudeCode, true},
		{" Codex CLI 2 ", KindCodexCLI, true},
		{"CLI（汎用）", KindCLI, true},
		{"Claude Code", KindCodexCLI, false},
		{"Claude Coder", KindClaudeCode, false},
		{"Claude Code 2b", KindClaudeCode, false},
		{"Lin", KindClaudeCode, false},
		{"マスター", KindAdmin, false},
	} {
		if got := isDefaultName(tc.name, tc.kind); got != tc.want {
			t.Errorf("isDefaultName(%q, %s) = %v", tc.name, tc.kind, got)
		}
	}
}

// TestDefaultNamesSkipDisplayNames: a new account's default name skips
// the names and the display names (nicknames) already in use.
func TestDefaultNamesSkipDisplayNames(t *testing.T) {
	t.Parallel()
	ab := newAccountBook()
	ab.list = []AccountInfo{{ID: "a", Name: "Someone", Nickname: "Claude Code"}, {ID: "b", Name: "claude code 2"}}
	if got := ab.uniqueName("Claude Code"); got != "Claude Code 3" {
		t.Fatalf("uniqueName = %q", got)
	}
}
