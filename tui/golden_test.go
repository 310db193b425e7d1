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
		{ID: "lay", Kind: KindCodexCLI, Name: "Codex Lay", Nickname: "Lay", Dir: "/home/u/work", Command: "codex", AppServer: true},
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
		{"60x20", 60, 20, LangEnglish, false}, // a phone over SSH (docs/serve.md)
		{"60x20ja", 60, 20, LangJapanese, false},
		{"80x24ja", 80, 24, LangJapanese, false},
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

// Seats of the panel scenes, at the test clock (Friday 2026-10-02 14:30
// JST): a weekly reset on Monday 2:00, a 5-hour one in 4 h 9 min 30 s.
var (
	weeklyReset = time.Date(2026, 10, 5, 2, 0, 0, 0, testLoc)
	fiveReset   = testNow().Add(4*time.Hour + 9*time.Minute + 30*time.Second)
)

func pctOf(v float64) *float64 { return &v }

// wordsScene is a room with a seat for every word the panel says: busy
// ones (thinking with subagents, a tool, a long tool name, permission),
// idle ones (just now, minutes ago), limited, starting, exited, failed,
// offline, and a generic CLI that reports nothing.
func wordsScene() *fakeBackend {
	f := scene()
	now := testNow()
	add := func(id, kind, name string) {
		f.accounts = append(f.accounts, AccountInfo{ID: id, Kind: kind, Name: name, Dir: "/home/u/work", Command: "claude"})
	}
	for _, a := range []struct{ id, name string }{{"ada", "Ada"}, {"bea", "Bea"}, {"cy", "Cy"}, {"dee", "Dee"}, {"eve", "Eve"}, {"fay", "Fay"}, {"gus", "Gus"}, {"hal", "Hal"}, {"ivy", "Ivy Long-Name"}} {
		add(a.id, KindClaudeCode, a.name)
	}
	add("sh", KindCLI, "shell")
	seat := func(acc string, st SeatState, a Activity) SeatInfo {
		return SeatInfo{Topic: "t-main", Account: acc, State: st, Activity: a}
	}
	f.seats["t-main"] = []SeatInfo{
		seat("lin", SeatRunning, Activity{Kind: ActivityThinking, Subagents: 2, Since: now.Add(-time.Minute)}),
		seat("ada", SeatRunning, Activity{Kind: ActivityTool, Tool: "Bash", Since: now}),
		seat("bea", SeatRunning, Activity{Kind: ActivityPermission, Tool: "Bash", Since: now}),
		seat("cy", SeatRunning, Activity{Kind: ActivityIdle, Since: now.Add(-5*time.Minute - 30*time.Second)}),
		{Topic: "t-main", Account: "dee", State: SeatRunning, Activity: Activity{Kind: ActivityIdle, Since: now.Add(-time.Hour)},
			Model: "opus", Effort: "high", FiveHour: pctOf(100), FiveHourResets: fiveReset, Limited: true, LimitResets: fiveReset},
		seat("eve", SeatExited, Activity{}),
		{Topic: "t-main", Account: "fay", State: SeatFailed, Err: "claude: executable file not found in $PATH"},
		seat("gus", SeatStarting, Activity{}),
		seat("ivy", SeatRunning, Activity{Kind: ActivityTool, Tool: "mcp__pullcept__say_to_room", Subagents: 1, Since: now}),
		seat("lay", SeatRunning, Activity{Kind: ActivityIdle, Since: now.Add(-20 * time.Second)}),
		seat("sh", SeatRunning, Activity{}),
	}
	return f
}

// usageScene is a room whose seats reported usage: Lin thinking with
// reset times, Ada limited on the week while it waits for permission, Eve
// ended (its figures the last known), Lay with launch warnings; posts are
// held for each reason.
func usageScene() *fakeBackend {
	f := scene()
	now := testNow()
	f.accounts = append(f.accounts,
		AccountInfo{ID: "ada", Kind: KindClaudeCode, Name: "Ada", Dir: "/home/u/work", Command: "claude"},
		AccountInfo{ID: "eve", Kind: KindClaudeCode, Name: "Eve", Dir: "/home/u/work", Command: "claude"})
	f.seats["t-main"] = []SeatInfo{
		{Topic: "t-main", Account: "lin", State: SeatRunning, Activity: Activity{Kind: ActivityThinking, Since: now},
			Model: "Opus 4.6", Effort: "high", FiveHour: pctOf(12), Weekly: pctOf(40), Context: pctOf(35),
			FiveHourResets: fiveReset, WeeklyResets: weeklyReset, UsageAt: now.Add(-time.Minute),
			Held: 2, HeldFor: HoldUnsent, Dir: "/home/u/work/pullcept/tui", Started: now.Add(-28 * time.Minute),
			SessionID: "7009c1a2-5b3e-4d1f-8a2b-0e1f2a3b4c5d",
			Command:   "claude --session-id 7009c1a2-5b3e-4d1f-8a2b-0e1f2a3b4c5d --settings /home/u/.pullcept/settings.json"},
		{Topic: "t-main", Account: "ada", State: SeatRunning, Activity: Activity{Kind: ActivityPermission, Tool: "Bash", Since: now},
			Model: "Sonnet 4.5", Effort: "medium", FiveHour: pctOf(86), Weekly: pctOf(104), Context: pctOf(61),
			FiveHourResets: now.Add(59 * time.Second), WeeklyResets: weeklyReset, UsageAt: now,
			Held: 1, HeldFor: HoldPermission},
		{Topic: "t-main", Account: "eve", State: SeatExited, ExitCode: 0,
			Model: "Haiku 4.5", FiveHour: pctOf(55), Weekly: pctOf(20), FiveHourResets: now.Add(-time.Minute),
			WeeklyResets: time.Date(2026, 10, 6, 9, 30, 0, 0, testLoc), UsageAt: now.Add(-2 * time.Hour)},
		{Topic: "t-main", Account: "lay", State: SeatRunning, Held: 3, HeldFor: HoldNotReady,
			Warnings: []string{"dropped launch option --profile (not allowed)", "room key disabled in .codex/config.toml: this seat cannot join"}},
	}
	return f
}

// observedScene is a room of generic CLI seats, whose CLIs report
// nothing: their words are read off their terminals (issue 34 item 9):
// output arriving, idle since a burst ended minutes ago, idle just now,
// and one in its first second, which says nothing yet.
func observedScene() *fakeBackend {
	f := scene()
	now := testNow()
	for _, a := range []struct{ id, name string }{{"sh", "shell"}, {"py", "python"}, {"rb", "irb"}, {"aider", "aider"}} {
		f.accounts = append(f.accounts, AccountInfo{ID: a.id, Kind: KindCLI, Name: a.name, Dir: "/home/u/work", Command: a.id})
	}
	f.seats["t-main"] = append(f.seats["t-main"],
		SeatInfo{Topic: "t-main", Account: "sh", State: SeatRunning, Activity: Activity{Kind: ActivityOutput, Since: now.Add(-3 * time.Second)}},
		SeatInfo{Topic: "t-main", Account: "py", State: SeatRunning, Activity: Activity{Kind: ActivityIdle, Since: now.Add(-3*time.Minute - 10*time.Second)}},
		SeatInfo{Topic: "t-main", Account: "aider", State: SeatRunning, Activity: Activity{Kind: ActivityIdle, Since: now.Add(-2 * time.Second)}},
		SeatInfo{Topic: "t-main", Account: "rb", State: SeatRunning})
	f.rosters["t-main"] = append(f.rosters["t-main"], room.Member{Name: "shell", AccountID: "sh", Role: room.RoleCLI})
	return f
}

// TestGoldenObservedAddressed: a seat whose terminal is read and that a
// post addressed says "thinking…" while its output arrives (issue 34
// item 9), in the panel and in its pane's title.
func TestGoldenObservedAddressed(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		w, h int
		lang Lang
	}{
		{"80x24", 80, 24, LangEnglish},
		{"80x24ja", 80, 24, LangJapanese},
		{"120x40", 120, 40, LangEnglish},
		{"120x40ja", 120, 40, LangJapanese},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m := sceneModel(t, observedScene(), tc.w, tc.h, tc.lang)
			ask := post("a1", "マスター", "@shell list the files", 40)
			ask.Role, ask.Account, ask.To = room.RoleAdmin, "admin", []string{"shell"}
			send(t, m, eventsMsg{evs: []Event{PostDelivered{Topic: "t-main", Post: ask}}})
			send(t, m, press("ctrl+t"))
			golden.RequireEqual(t, m.View().Content)
		})
	}
}

func TestGoldenPanel(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		scene   func() *fakeBackend
		w, h    int
		lang    Lang
		details string // the account the focused panel's cursor is on, "" none
	}{
		{"words_120x40", wordsScene, 120, 40, LangEnglish, ""},
		{"words_200x60ja", wordsScene, 200, 60, LangJapanese, ""},
		{"usage_120x40", usageScene, 120, 40, LangEnglish, "lin"},
		{"usage_120x40ja", usageScene, 120, 40, LangJapanese, "lin"},
		{"usage_200x60", usageScene, 200, 60, LangEnglish, "lay"},
		{"usage_200x60ja", usageScene, 200, 60, LangJapanese, "lay"},
		{"usage_80x24", usageScene, 80, 24, LangEnglish, ""},
		{"usage_80x24ja", usageScene, 80, 24, LangJapanese, "lin"},
		{"recorded_120x40", recordedScene, 120, 40, LangEnglish, "lay"}, // after a restart (#144)
		{"recorded_120x40ja", recordedScene, 120, 40, LangJapanese, "lay"},
		{"norecord_80x24ja", recordedScene, 80, 24, LangJapanese, "ada"},
		{"link_200x60", linkScene, 200, 60, LangEnglish, "lay"}, // room, via, window
		{"down_120x40", downScene, 120, 40, LangEnglish, "lin"}, // the room socket does not answer
		{"down_120x40ja", downScene, 120, 40, LangJapanese, "lay"},
		{"observed_80x24", observedScene, 80, 24, LangEnglish, ""},
		{"observed_80x24ja", observedScene, 80, 24, LangJapanese, ""},
		{"observed_120x40", observedScene, 120, 40, LangEnglish, "sh"},
		{"observed_120x40ja", observedScene, 120, 40, LangJapanese, "sh"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m := sceneModel(t, tc.scene(), tc.w, tc.h, tc.lang)
			if tc.details != "" {
				toParticipants(t, m, tc.details)
			}
			golden.RequireEqual(t, m.View().Content)
		})
	}
}

// TestGoldenPaneTitles: the panes' titles say what their seats do, and
// the focused one keeps its name and "typing" at every size; at 80×24 the
// status line names the keys that hide the side columns (issue 35).
func TestGoldenPaneTitles(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		w, h int
		lang Lang
	}{
		{"80x24", 80, 24, LangEnglish},
		{"80x24ja", 80, 24, LangJapanese},
		{"120x40", 120, 40, LangEnglish},
		{"200x60", 200, 60, LangEnglish},
		{"200x60ja", 200, 60, LangJapanese},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := wordsScene()
			keep := map[string]bool{"lin": true, "ada": true, "cy": true}
			var ss []SeatInfo
			for _, s := range f.seats["t-main"] {
				if keep[s.Account] {
					ss = append(ss, s)
				}
			}
			f.seats["t-main"] = ss
			m := sceneModel(t, f, tc.w, tc.h, tc.lang)
			send(t, m, press("ctrl+t"))
			send(t, m, press("f6"))
			golden.RequireEqual(t, m.View().Content)
		})
	}
}

// TestGoldenNewTopicStarting: a seat starting in a new topic the index
// does not list yet marks "+ New topic" with ● (spec «トピックの一覧» #141,
// issue 34 item 23).
func TestGoldenNewTopicStarting(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		w, h int
		lang Lang
	}{
		{"80x24", 80, 24, LangEnglish},
		{"80x24ja", 80, 24, LangJapanese},
		{"120x40", 120, 40, LangEnglish},
		{"120x40ja", 120, 40, LangJapanese},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			opts := testOptions()
			opts.Lang = tc.lang
			m := newTestModel(t, scene(), opts, tc.w, tc.h)
			toParticipants(t, m, "lin")
			m.Update(press("s")) // asked, not answered: its command is not run
			golden.RequireEqual(t, m.View().Content)
		})
	}
}
