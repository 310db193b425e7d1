package tui

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/pullcept/pullcept/room"
)

// avatarScene is a room where two accounts share their first letters, the
// spec's own example (Claude Lay and Claude Lin are both "C"), with the
// human マスター, an MCP server, a guest, a name only in the log and
// Pullcept's own note; the setting says initials.
func avatarScene() *fakeBackend {
	f := scene()
	f.set.info.Avatars = AvatarsInitials
	f.accounts = []AccountInfo{
		{ID: "admin", Kind: KindAdmin, Name: "マスター"},
		{ID: "lin", Kind: KindClaudeCode, Name: "Claude Lin", Hue: hue(120), Dir: "/home/u/work", Command: "claude"},
		{ID: "lay", Kind: KindCodexCLI, Name: "Claude Lay", Dir: "/home/u/work", Command: "codex"},
		{ID: "gh", Kind: KindMCP, Name: "github"},
	}
	lin := func(p room.Post) room.Post { p.Speaker, p.Account = "Claude Lin", "lin"; return p }
	lay := func(p room.Post) room.Post {
		p.Speaker, p.Account, p.Role = "Claude Lay", "lay", room.RoleCodexCLI
		return p
	}
	ps := []room.Post{
		post("p0", "Lin", "(an old log's line: no account)", 0),
		post("p1", "マスター", "おはようございます。今日はリリースの準備をします。", 1),
		lin(post("p2", "", "了解です 👍 まずテストを全部回します。", 2)),
		post("p3", "github", "PR #12 opened", 3),
		post("p4", "github", "CI passed on #12", 4),
		lay(post("p5", "", "I will review the changelog.", 5)),
		post("p6", "山田太郎", "ゲストです。", 6),
		post("p7", "Pullcept", "Lin stopped.", 7),
		post("p8", "マスター", "ありがとう。", 8),
	}
	ps[1].Role, ps[1].Account, ps[8].Role, ps[8].Account = room.RoleAdmin, "admin", room.RoleAdmin, "admin"
	for i := 3; i <= 4; i++ {
		ps[i].Role, ps[i].Account = room.RoleMCP, "gh"
	}
	ps[6].Role = room.RoleCLI
	ps[7].Role, ps[7].FromApp = room.RoleApp, true
	f.history["t-main"] = ps
	f.rosters["t-main"] = []room.Member{
		{Name: "マスター", AccountID: "admin", Role: room.RoleAdmin, Local: true},
		{Name: "Claude Lin", AccountID: "lin", Hue: hue(120), Role: room.RoleClaudeCode},
		{Name: "山田太郎", Role: room.RoleCLI},
	}
	return f
}

// TestGoldenAvatars: the chat and the panel with marks of initials
// (docs/design.md §10 "Avatars"), English and Japanese, 80×24 and 200×60.
func TestGoldenAvatars(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		w, h int
		lang Lang
	}{
		{"80x24", 80, 24, LangEnglish},
		{"80x24ja", 80, 24, LangJapanese},
		{"200x60", 200, 60, LangEnglish},
		{"200x60ja", 200, 60, LangJapanese},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m := sceneModel(t, avatarScene(), tc.w, tc.h, tc.lang)
			golden.RequireEqual(t, m.View().Content)
		})
	}
}

// chatLine is the first line of the chat that holds s, as drawn (styles
// stripped); "" when none does.
func chatLine(m *Model, s string) string {
	for _, l := range plainLines(m.chat.view) {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}

// panelLine is the first line of the panel that holds s, styles and all.
func panelLine(m *Model, s string) string {
	for _, l := range m.accounts.panel.view {
		if strings.Contains(ansi.Strip(l), s) {
			return l
		}
	}
	return ""
}

// TestAvatarsMarkWhoIsWho: with initials on, every other speaker's heading
// and every panel row have their mark, the two Claudes different ones;
// the screen's own posts none; a name only in the log and a guest marks of
// their own; an offline seat's mark as faint as its name.
func TestAvatarsMarkWhoIsWho(t *testing.T) {
	t.Parallel()
	m := sceneModel(t, avatarScene(), 200, 60, LangEnglish)
	for _, want := range []string{"(CLi) Claude Lin", "(CLa) Claude Lay", "(G) github (2)", "(L) Lin", "(山) 山田太郎", "(P) Pullcept"} {
		if chatLine(m, want) == "" {
			t.Errorf("the chat has no %q:\n%s", want, strings.Join(plainLines(m.chat.view), "\n"))
		}
	}
	for _, own := range []string{"ありがとう。", "おはようございます"} {
		if l := chatLine(m, own); strings.Contains(l, "(マ)") || strings.Contains(l, "マスター") {
			t.Errorf("an own post has a mark or a name: %q", l)
		}
	}
	for _, want := range []string{"(マ)  マスター", "(CLi) Claude Lin", "(CLa) Claude Lay", "(G)   github", "(山)  山田太郎"} {
		if panelLine(m, want) == "" {
			t.Errorf("the panel has no %q:\n%s", want, strings.Join(plainLines(m.accounts.panel.view), "\n"))
		}
	}
	// Claude Lay has no seat: its row is faint, mark and name alike;
	// Claude Lin runs: neither is.
	if l := panelLine(m, "(CLa)"); strings.Count(l, "\x1b[2;") < 2 {
		t.Errorf("the offline row's mark and name are not both faint: %q", l)
	}
	if l := panelLine(m, "(CLi)"); strings.Contains(l, "\x1b[2;") {
		t.Errorf("the running row is faint: %q", l)
	}
}

// TestAvatarsSettingAppliesAtOnce: the overlay's row turns the marks on and
// off at once and saves the setting; names only draws the screen exactly
// as before there were marks.
func TestAvatarsSettingAppliesAtOnce(t *testing.T) {
	t.Parallel()
	f := avatarScene()
	f.set.info.Avatars = AvatarsNames
	m := sceneModel(t, f, 120, 40, LangEnglish)
	before := m.View().Content
	if l := chatLine(m, "Claude Lin"); strings.Contains(l, "(CLi)") {
		t.Fatalf("names only, yet a mark: %q", l)
	}
	send(t, m, press("f3"))
	send(t, m, press("down"))
	send(t, m, press("down"))
	send(t, m, press("right"))
	if !strings.Contains(shown(m), "Avatars") || !strings.Contains(shown(m), "initials and names") {
		t.Fatalf("the row does not say initials:\n%s", shown(m))
	}
	if got := f.set.saves; len(got) != 1 || got[0].Avatars != AvatarsInitials {
		t.Fatalf("saves %+v, want one with initials", got)
	}
	if l := chatLine(m, "Claude Lin"); !strings.Contains(l, "(CLi) Claude Lin") {
		t.Fatalf("after the change the chat has %q", l)
	}
	send(t, m, press("left"))
	send(t, m, press("esc"))
	if got := f.set.saves; len(got) != 2 || got[1].Avatars != AvatarsNames {
		t.Fatalf("saves %+v, want names only last", got)
	}
	if after := m.View().Content; after != before {
		t.Fatalf("names only again is not the screen as it was:\n%s\n---\n%s", ansi.Strip(before), ansi.Strip(after))
	}
}

// TestAvatarsFollowTheParticipants: a speaker that comes in the live chat
// gets a mark at once, told from the accounts' names ("Claude Lix" beside
// "Claude Lin"), and never moves an account's; renaming an account moves
// its mark and the others' it shared initials with.
func TestAvatarsFollowTheParticipants(t *testing.T) {
	t.Parallel()
	f := avatarScene()
	m := sceneModel(t, f, 200, 60, LangEnglish)
	p := post("p9", "Claude Lix", "a stranger named like them", 9)
	send(t, m, eventsMsg{evs: []Event{PostDelivered{Topic: "t-main", Post: p}}})
	if l := chatLine(m, "Claude Lix"); !strings.Contains(l, "(CLix) Claude Lix") {
		t.Fatalf("the live speaker's heading: %q", l)
	}
	if l := chatLine(m, "Claude Lin"); !strings.Contains(l, "(CLi) Claude Lin") {
		t.Fatalf("a stranger moved an account's mark: %q", l)
	}
	accs := slices.Clone(f.accounts)
	accs[2].Name = "Ada Lay"
	send(t, m, accountsLoadedMsg{accounts: accs})
	if l := chatLine(m, "I will review"); l == "" {
		t.Fatal("the post is gone")
	}
	if l := panelLine(m, "Ada Lay"); !strings.Contains(ansi.Strip(l), "(AL)") {
		t.Fatalf("the renamed account's row: %q", ansi.Strip(l))
	}
	if l := panelLine(m, "Claude Lin"); !strings.Contains(ansi.Strip(l), "(CL)") {
		t.Fatalf("alone with its initials, Claude Lin's row: %q", ansi.Strip(l))
	}
}
