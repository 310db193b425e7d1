package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/pullcept/pullcept/room"
)

// scene fills a fake backend with a small Japanese-speaking room: the
// admin マスター, two AI seats, an MCP server's notices, two older topics.
func scene() *fakeBackend {
	f := newFake()
	f.accounts = []AccountInfo{
		{ID: "admin", Kind: KindAdmin, Name: "マスター"},
		{ID: "lin", Kind: KindClaudeCode, Name: "Claude Lin", Nickname: "Lin", Hue: hue(120), Dir: "/home/u/work", Command: "claude"},
		{ID: "lay", Kind: KindCodexCLI, Name: "Codex Lay", Nickname: "Lay", Dir: "/home/u/work", Command: "codex"},
		{ID: "gh", Kind: KindMCP, Name: "github"},
	}
	day := func(d, h int) time.Time { return time.Date(2026, 10, d, h, 0, 0, 0, testLoc) }
	f.topics["t-old"] = TopicInfo{ID: "t-old", Name: "設計の相談", LastActivity: day(1, 18), Indexed: true}
	f.topics["t-run"] = TopicInfo{ID: "t-run", Name: "Fix the flaky test 🧪", LastActivity: day(2, 11), Indexed: true, Running: true}
	f.topics["t-main"] = TopicInfo{ID: "t-main", Name: "リリース準備", LastActivity: day(2, 14), Indexed: true}
	f.topics["t-2025"] = TopicInfo{ID: "t-2025", Name: "", LastActivity: time.Date(2025, 3, 4, 5, 0, 0, 0, testLoc), Indexed: true}

	ps := []room.Post{
		post("p1", "マスター", "おはようございます。今日はリリースの準備をします。", 0),
		post("p2", "Lin", "了解です 👍 まずテストを全部回します。", 1),
		post("p3", "github", "PR #12 opened", 2),
		post("p4", "github", "CI passed on #12", 3),
		post("p5", "github", "PR #12 merged", 4),
		post("p6", "Lay", "I will review the changelog and the migration notes; this line is long enough to wrap on a narrow screen.", 5),
		post("p7", "マスター", "ありがとう。", 6),
	}
	ps[0].Role, ps[6].Role = room.RoleAdmin, room.RoleAdmin
	for i := 2; i <= 4; i++ {
		ps[i].Role, ps[i].Account = room.RoleMCP, "gh"
	}
	ps[3].To = []string{"Lin"}
	ps[6].To = []string{"Lin", "Lay"}
	f.history["t-main"] = ps
	f.rosters["t-main"] = []room.Member{
		{Name: "マスター", AccountID: "admin", Role: room.RoleAdmin, Local: true},
		{Name: "Lin", AccountID: "lin", Hue: hue(120), Role: room.RoleClaudeCode},
		{Name: "Lay", AccountID: "lay", Role: room.RoleCodexCLI},
	}
	five, week := 12.0, 40.0
	f.seats["t-main"] = []SeatInfo{{Topic: "t-main", Account: "lin", State: SeatRunning, Model: "opus", Effort: "high", FiveHour: &five, Weekly: &week}}
	return f
}

func sceneModel(t testing.TB, f *fakeBackend, w, h int, lang Lang) *Model {
	t.Helper()
	opts := testOptions()
	opts.Lang = lang
	opts.StartTopic = "t-main"
	return newTestModel(t, f, opts, w, h)
}

// paneRows makes a recorded-looking screen for a fake seat: a prompt box
// with Japanese text and truecolor, exactly cols cells per row.
func paneRows(cols, rows int, seed int) []string {
	out := make([]string, rows)
	for i := range out {
		var s string
		switch {
		case i == 0:
			s = fmt.Sprintf("\x1b[38;2;215;119;87m✻\x1b[m Welcome to Claude Code (frame %d)", seed)
		case i == 2:
			s = "> [pullcept] {\"role\":\"admin\",\"from\":\"マスター\"}"
		case i == 3:
			s = "  ありがとう。"
		case i%7 == 0:
			s = fmt.Sprintf("\x1b[1;32m●\x1b[m line %d of output \x1b[48;5;236m highlighted \x1b[m", i+seed)
		}
		out[i] = fit(s, cols)
	}
	return out
}

// brakedScene is scene after Lin and Lay answered each other until the
// brake engaged in the open topic (docs/design.md §2 "The brake"): Lin's last
// answer, then Pullcept's notice; 設計の相談 is braked too.
func brakedScene() (*fakeBackend, []Event) {
	f := scene()
	lin := post("p8", "Lin", "Lay, the migration notes look fine to me.", 7)
	lin.Account = "lin"
	notice := post("p9", "Pullcept", "Brake: after 12 AI posts in a row with no post from the human, the room stopped "+
		"typing AI posts into the seats. They are still delivered and logged (read_room_history). "+
		"To continue, the human posts, or releases the brake (Pullcept's release_brake key).", 7)
	notice.Role, notice.FromApp = room.RoleApp, true
	f.history["t-main"] = append(f.history["t-main"], lin, notice)
	return f, []Event{BrakeChanged{Topic: "t-old", On: true, Count: 12}, BrakeChanged{Topic: "t-main", On: true, Count: 12}}
}

func TestGoldenScreens(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		w, h   int
		lang   Lang
		braked bool
	}{
		{"80x24", 80, 24, LangEnglish, false},
		{"120x40", 120, 40, LangEnglish, false},
		{"200x60", 200, 60, LangEnglish, false},
		{"120x40ja", 120, 40, LangJapanese, false},
		{"80x24braked", 80, 24, LangEnglish, true},
		{"120x40braked", 120, 40, LangEnglish, true},
		{"120x40jabraked", 120, 40, LangJapanese, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f, evs := scene(), []Event(nil)
			if tc.braked {
				f, evs = brakedScene()
			}
			m := sceneModel(t, f, tc.w, tc.h, tc.lang)
			if evs != nil {
				send(t, m, eventsMsg{evs: evs})
			}
			golden.RequireEqual(t, m.View().Content)
		})
	}
}

func TestGoldenPanes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		w, h int
	}{
		{"80x24", 80, 24},
		{"120x40", 120, 40},
		{"200x60", 200, 60},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := scene()
			f.seats["t-main"] = append(f.seats["t-main"], SeatInfo{Topic: "t-main", Account: "lay", State: SeatRunning})
			m := sceneModel(t, f, tc.w, tc.h, LangEnglish)
			send(t, m, press("ctrl+t"))
			for _, k := range m.visiblePanes() {
				cols, rows := m.seats.panes[k].cols, m.seats.panes[k].rows
				f.snaps[k] = PaneSnapshot{Rows: paneRows(cols, rows, 1), CursorX: 2, CursorY: 3, CursorVisible: true, Version: 1}
			}
			send(t, m, screenChangedMsg{})
			send(t, m, press("f6"))
			v := m.View()
			golden.RequireEqual(t, v.Content)
			if v.Cursor == nil {
				t.Fatalf("focused pane shows no cursor")
			}
		})
	}
}

func TestGoldenOverlays(t *testing.T) {
	t.Parallel()
	f := scene()
	m := sceneModel(t, f, 120, 40, LangEnglish)
	t.Run("popup", func(t *testing.T) {
		typeText(t, m, "@l")
		golden.RequireEqual(t, m.View().Content)
		send(t, m, press("esc"))
		send(t, m, press("ctrl+c"))
	})
	t.Run("help", func(t *testing.T) {
		send(t, m, press("f1"))
		golden.RequireEqual(t, m.View().Content)
		send(t, m, press("esc"))
	})
	t.Run("editor", func(t *testing.T) {
		f.accounts[1].Env = "ANTHROPIC_API_KEY=sk-secret\nCLAUDE_CONFIG_DIR=/home/u/.claude-work"
		send(t, m, accountsLoadedMsg{accounts: f.accounts})
		send(t, m, press("tab"))
		send(t, m, press("tab"))
		send(t, m, press("tab"))
		if m.focus != FocusParticipants {
			t.Fatalf("focus = %v, want participants", m.focus)
		}
		send(t, m, press("down"))
		send(t, m, press("e"))
		c := m.View().Content
		if strings.Contains(c, "sk-secret") {
			t.Fatalf("env value shown unmasked:\n%s", c)
		}
		golden.RequireEqual(t, c)
		send(t, m, press("esc"))
	})
}
