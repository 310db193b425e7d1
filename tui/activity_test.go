package tui

import (
	"github.com/pullcept/pullcept/room"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

func testEnv(lang Lang) *env {
	km := DefaultKeyMap()
	return &env{th: newTheme(true), tr: catalog{lang: lang}, keys: &km, loc: testLoc, now: testNow}
}

func TestActivityWords(t *testing.T) {
	t.Parallel()
	now := testNow()
	full := 100.0
	for _, tc := range []struct {
		name   string
		s      SeatInfo
		en, ja string
		tone   tone
		owed   bool // addressed, not answered yet (noteOwed)
	}{
		{"unknown", SeatInfo{}, "", "", toneDim, false},
		{"thinking", SeatInfo{Activity: Activity{Kind: ActivityThinking}}, "thinking…", "考え中…", toneBusy, false},
		{"tool", SeatInfo{Activity: Activity{Kind: ActivityTool, Tool: "Bash"}}, "running Bash", "Bash を実行中", toneBusy, false},
		{"tool unnamed", SeatInfo{Activity: Activity{Kind: ActivityTool}}, "running a tool", "ツールを実行中", toneBusy, false},
		{"permission", SeatInfo{Activity: Activity{Kind: ActivityPermission, Tool: "Bash"}}, "waiting for permission", "許可待ち", toneAsk, false},
		{"idle now", SeatInfo{Activity: Activity{Kind: ActivityIdle, Since: now.Add(-59 * time.Second)}}, "idle", "待機", toneDim, false},
		{"idle no time", SeatInfo{Activity: Activity{Kind: ActivityIdle}}, "idle", "待機", toneDim, false},
		{"idle 1 min", SeatInfo{Activity: Activity{Kind: ActivityIdle, Since: now.Add(-time.Minute)}}, "idle 1 min ago", "1分前から待機", toneDim, false},
		{"idle 5 min (seconds dropped)", SeatInfo{Activity: Activity{Kind: ActivityIdle, Since: now.Add(-5*time.Minute - 59*time.Second)}}, "idle 5 min ago", "5分前から待機", toneDim, false},
		{"idle hours", SeatInfo{Activity: Activity{Kind: ActivityIdle, Since: now.Add(-2*time.Hour - 5*time.Minute)}}, "idle 2 h 5 min ago", "2時間5分前から待機", toneDim, false},
		{"idle days", SeatInfo{Activity: Activity{Kind: ActivityIdle, Since: now.Add(-50 * time.Hour)}}, "idle 2 d 2 h ago", "2日2時間前から待機", toneDim, false},
		{"limited wins over idle", SeatInfo{Limited: true, FiveHour: &full, Activity: Activity{Kind: ActivityIdle, Since: now.Add(-time.Hour)}}, "limited", "制限中", toneDim, false},
		{"limited, no report", SeatInfo{Limited: true}, "limited", "制限中", toneDim, false},
		{"a full window is no stop", SeatInfo{Weekly: &full, Activity: Activity{Kind: ActivityIdle, Since: now.Add(-time.Hour)}}, "idle 1 h ago", "1時間前から待機", toneDim, false},
		{"limited with its reset", SeatInfo{Limited: true, LimitResets: time.Date(2026, 10, 5, 22, 45, 0, 0, time.Local)}, "limited · resets 22:45", "制限中 · 22:45 に解除", toneDim, false},
		{"thinking wins over limited", SeatInfo{Limited: true, Activity: Activity{Kind: ActivityThinking}}, "thinking…", "考え中…", toneBusy, false},
		{"tool wins over limited", SeatInfo{Limited: true, Activity: Activity{Kind: ActivityTool, Tool: "Read"}}, "running Read", "Read を実行中", toneBusy, false},
		{"subagents appended", SeatInfo{Activity: Activity{Kind: ActivityTool, Tool: "Task", Subagents: 2}}, "running Task · 2 subagents", "Task を実行中 · サブエージェント 2 件", toneBusy, false},
		{"one subagent alone", SeatInfo{Activity: Activity{Subagents: 1}}, "1 subagent", "サブエージェント 1 件", toneBusy, false},
		{"subagent while limited", SeatInfo{Limited: true, Activity: Activity{Subagents: 3}}, "limited · 3 subagents", "制限中 · サブエージェント 3 件", toneBusy, false},
		// A seat whose terminal is read (its CLI reports nothing, issue 34
		// item 9): output arriving, or thinking while it owes an answer.
		{"output", SeatInfo{Activity: Activity{Kind: ActivityOutput, Since: now}}, "outputting", "出力中", toneBusy, false},
		{"output while addressed", SeatInfo{Activity: Activity{Kind: ActivityOutput, Since: now}}, "thinking…", "考え中…", toneBusy, true},
		{"silence while addressed", SeatInfo{Activity: Activity{Kind: ActivityIdle, Since: now}}, "idle", "待機", toneDim, true},
		{"output wins over limited", SeatInfo{Limited: true, Activity: Activity{Kind: ActivityOutput}}, "outputting", "出力中", toneBusy, false},
	} {
		for _, lang := range []Lang{LangEnglish, LangJapanese} {
			want := tc.en
			if lang == LangJapanese {
				want = tc.ja
			}
			got, tn := fullWord(testEnv(lang), tc.s, tc.owed, now)
			if got != want || tn != tc.tone {
				t.Errorf("%s (%s): got %q tone %d, want %q tone %d", tc.name, lang, got, tn, want, tc.tone)
			}
		}
	}
}

func TestResetTexts(t *testing.T) {
	t.Parallel()
	now := testNow() // Friday 2026-10-02 14:30 JST
	for _, tc := range []struct {
		name   string
		f      func(*env, time.Time, time.Time) string
		at     time.Time
		en, ja string
	}{
		{"4 h 10 min (rounded up)", resetIn, now.Add(4*time.Hour + 9*time.Minute + 1*time.Second), "resets in 4 h 10 min", "4時間10分後にリセット"},
		{"exactly 4 h 10 min", resetIn, now.Add(4*time.Hour + 10*time.Minute), "resets in 4 h 10 min", "4時間10分後にリセット"},
		{"59 s is 1 min", resetIn, now.Add(59 * time.Second), "resets in 1 min", "1分後にリセット"},
		{"1 s is 1 min", resetIn, now.Add(time.Second), "resets in 1 min", "1分後にリセット"},
		{"whole hours", resetIn, now.Add(2 * time.Hour), "resets in 2 h", "2時間後にリセット"},
		{"a day", resetIn, now.Add(24 * time.Hour), "resets in 1 d", "1日後にリセット"},
		{"a day and more, minutes dropped", resetIn, now.Add(3*24*time.Hour + 5*time.Hour + 59*time.Minute), "resets in 3 d 5 h", "3日5時間後にリセット"},
		{"just under a day rounds up to it", resetIn, now.Add(24*time.Hour - 30*time.Second), "resets in 1 d", "1日後にリセット"},
		{"past", resetIn, now.Add(-time.Second), "", ""},
		{"now", resetIn, now, "", ""},
		{"unknown", resetIn, time.Time{}, "", ""},
		{"weekly Monday 2:00", resetAt, time.Date(2026, 10, 5, 2, 0, 0, 0, testLoc), "resets Mon 2:00", "2:00 (月) にリセット"},
		{"weekly from UTC, shown local", resetAt, time.Date(2026, 10, 6, 0, 30, 0, 0, time.UTC), "resets Tue 9:30", "9:30 (火) にリセット"},
		{"weekly Sunday 23:05", resetAt, time.Date(2026, 10, 4, 23, 5, 0, 0, testLoc), "resets Sun 23:05", "23:05 (日) にリセット"},
		{"weekly past", resetAt, now.Add(-time.Minute), "", ""},
		{"weekly unknown", resetAt, time.Time{}, "", ""},
	} {
		if got := tc.f(testEnv(LangEnglish), tc.at, now); got != tc.en {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.en)
		}
		if got := tc.f(testEnv(LangJapanese), tc.at, now); got != tc.ja {
			t.Errorf("%s (ja): got %q, want %q", tc.name, got, tc.ja)
		}
	}
}

func TestHeldReasons(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		s      SeatInfo
		en, ja string
	}{
		{SeatInfo{}, "", ""},
		{SeatInfo{Held: 2, HeldFor: HoldUnsent}, "2 held — you have unsent text in its terminal", "2件保留：端末に未送信の入力があります"},
		{SeatInfo{Held: 1, HeldFor: HoldPermission}, "1 held — waiting for permission", "1件保留：許可待ち"},
		{SeatInfo{Held: 2, HeldFor: HoldAnswered}, "2 held — until it goes on after your answer", "2件保留：答えの後の動きを待っています"},
		{SeatInfo{Held: 3, HeldFor: HoldNotReady}, "3 held — not ready", "3件保留：準備中"},
		{SeatInfo{Held: 2, HeldFor: HoldTurn}, "2 held — until its turn ends", "2件保留：ターンの終わりを待っています"},
		{SeatInfo{Held: 1, HeldFor: HoldConfirm}, "1 held — until it takes the last post", "1件保留：前の投稿の受け取り待ち"},
		{SeatInfo{Held: 3, HeldFor: HoldStuck}, "3 held — not taken: Enter in its pane sends, Ctrl+U clears", "3件保留：未受理。端末で Enter 送信、Ctrl+U 消去"},
		{SeatInfo{Held: 0, HeldFor: HoldStuck}, "a post not taken: Enter in its pane sends, Ctrl+U clears", "未受理の投稿：端末で Enter 送信、Ctrl+U 消去"},
		{SeatInfo{Held: 4}, "4 held", "4件保留"},
	} {
		if got := heldText(testEnv(LangEnglish), tc.s); got != tc.en {
			t.Errorf("%+v: got %q, want %q", tc.s, got, tc.en)
		}
		if got := heldText(testEnv(LangJapanese), tc.s); got != tc.ja {
			t.Errorf("%+v (ja): got %q, want %q", tc.s, got, tc.ja)
		}
	}
	// On the seat's row, wrapped inside the panel.
	f := usageScene()
	m := mainModel(t, f)
	v := plain(m)
	for _, want := range []string{"2 held — you have unsent", "text in its terminal", "1 held — waiting for", "3 held — not ready"} {
		if !strings.Contains(v, want) {
			t.Fatalf("panel lacks %q:\n%s", want, v)
		}
	}
}

func TestUsageLines(t *testing.T) {
	t.Parallel()
	m := mainModel(t, usageScene())
	v := plain(m)
	for _, want := range []string{
		"Opus 4.6 · high", "5h   █░░░░░░░░░  12%", "resets in 4 h 10 min", "week ████░░░░░░  40%", "resets Mon 2:00", "ctx  ████░░░░░░  35%",
		"week ██████████ 104%", "resets in 1 min",
		"Haiku 4.5 · — · last known", "5h   ██████░░░░  55%", "resets Tue 9:30",
	} {
		if !strings.Contains(v, want) {
			t.Fatalf("panel lacks %q:\n%s", want, v)
		}
	}
	// Eve's 5-hour window reset a minute ago: its text is gone, the % stays.
	if strings.Count(v, "resets in") != 2 {
		t.Fatalf("a past reset is still shown:\n%s", v)
	}
	if strings.Contains(v, " 0%") {
		t.Fatalf("an unknown figure shows 0%%:\n%s", v)
	}
	// The danger colour from 100 % on, on the bar and the figure.
	th := m.env.th
	raw := m.View().Content
	if !strings.Contains(raw, th.dangerS.Render("██████████")) || !strings.Contains(raw, th.dangerS.Render("104%")) {
		t.Fatalf("104%% is not in the danger colour")
	}
	// Words of an unfinished turn are coloured, the others dim.
	for _, want := range []string{th.okS.Render("thinking…"), th.accentS.Render("waiting for permission"), th.dim.Render("exited")} {
		if !strings.Contains(raw, want) {
			t.Fatalf("view lacks %q", want)
		}
	}
}

// TestSeatTextsAreSanitized: what a seat sends (model, effort, tool,
// warnings, session id) never reaches the screen with its escape
// sequences or line breaks, and every line keeps its width.
func TestSeatTextsAreSanitized(t *testing.T) {
	t.Parallel()
	evil := []string{"\x1b[5;31;44m", "\x1b]52;c;ZXZpbA==\x07", "\x1b[2J", "\x1b]0;pwned\x07", "\x1bP+q\x1b\\", "\u009b1;1H"}
	f := scene()
	f.accounts = append(f.accounts, AccountInfo{ID: "ada", Kind: KindClaudeCode, Name: "Ada"})
	pc := 50.0
	f.seats["t-main"] = []SeatInfo{
		{Topic: "t-main", Account: "lin", State: SeatRunning, Model: "opus" + evil[0] + "\nNEXT", Effort: "high\r\n" + evil[1],
			FiveHour: &pc, Activity: Activity{Kind: ActivityTool, Tool: "Bash" + evil[2] + "\nrm -rf"},
			SessionID: "id" + evil[3] + "\n2", Command: "claude\n" + evil[4], Dir: "/tmp/" + evil[5] + "x",
			Warnings: []string{"warn" + evil[1] + "\nsecond line"}},
		{Topic: "t-main", Account: "ada", State: SeatRunning, Activity: Activity{Kind: ActivityIdle}, Model: evil[2]},
	}
	m := mainModel(t, f)
	toParticipants(t, m, "lin")
	send(t, m, press("ctrl+t")) // the panes' titles too
	v := m.View().Content
	for _, e := range evil {
		if strings.Contains(v, e) {
			t.Fatalf("escape sequence %q reached the view", e)
		}
	}
	for _, bad := range []string{"\x1b]", "\x1bP", "\u009b", "\r"} {
		if strings.Contains(v, bad) {
			t.Fatalf("%q reached the view", bad)
		}
	}
	lines := strings.Split(v, "\n")
	if len(lines) != m.height {
		t.Fatalf("view has %d lines, want %d", len(lines), m.height)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w != m.width {
			t.Fatalf("line %d is %d cells wide, want %d: %q", i, w, m.width, ansi.Strip(l))
		}
	}
	p := plain(m)
	for _, want := range []string{"opus[5;31;44m NEXT", "running Bash[2J rm", "! warn"} {
		if !strings.Contains(p, want) {
			t.Fatalf("view lacks the cleaned %q:\n%s", want, p)
		}
	}
}

func TestCopySessionID(t *testing.T) {
	t.Parallel()
	const id = "7009c1a2-5b3e-4d1f-8a2b-0e1f2a3b4c5d"
	m := mainModel(t, usageScene())
	toParticipants(t, m, "lin")
	_, cmd := m.Update(press("c"))
	if got := collectMsgs(cmd); !containsMsg(got, tea.SetClipboard(id)()) {
		t.Fatalf("c did not set the clipboard to the session id: %#v", got)
	}
	drive(t, m, nil)
	if !strings.Contains(plain(m), "Copied session id 7009c1a2… of Lin.") {
		t.Fatalf("status does not say what was copied:\n%s", plain(m))
	}
	// No session id: nothing copied, the status line says so.
	toParticipants(t, m, "lay")
	_, cmd = m.Update(press("c"))
	if got := collectMsgs(cmd); len(got) != 0 {
		t.Fatalf("copied without an id: %#v", got)
	}
	if !strings.Contains(plain(m), "No session id for Lay.") {
		t.Fatalf("status does not say there is no id:\n%s", plain(m))
	}
	// In Japanese too, and the key is in the help overlay.
	opts := testOptions()
	opts.Lang, opts.StartTopic = LangJapanese, "t-main"
	m = newTestModel(t, usageScene(), opts, 120, 40)
	toParticipants(t, m, "lin")
	send(t, m, press("c"))
	if !strings.Contains(plain(m), "Lin のセッション ID 7009c1a2… をコピーしました。") {
		t.Fatalf("ja status:\n%s", plain(m))
	}
	send(t, m, press("f1"))
	if !strings.Contains(plain(m), "セッション ID をコピー") {
		t.Fatalf("help lacks the copy key")
	}
}

// collectMsgs runs cmd and the batches it returns, and lists the messages
// (commands that would block are not among those a key press returns).
func collectMsgs(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range msg {
			out = append(out, collectMsgs(c)...)
		}
		return out
	case nil:
		return nil
	default:
		return []tea.Msg{msg}
	}
}

func containsMsg(msgs []tea.Msg, want tea.Msg) bool {
	for _, m := range msgs {
		if m == want {
			return true
		}
	}
	return false
}

func TestLaunchWarningsOnTheStatusLine(t *testing.T) {
	t.Parallel()
	f := scene()
	f.startRes = SeatStart{Warnings: []string{"dropped launch option --profile", "room key\x1b[31m disabled\nin .codex"}}
	m := mainModel(t, f)
	toParticipants(t, m, "lay")
	send(t, m, press("s"))
	if m.status.level != stWarn {
		t.Fatalf("status level = %v, want a warning", m.status.level)
	}
	want := "Lay started fresh. Warning: dropped launch option --profile · room key[31m disabled in .codex"
	if m.status.text != want {
		t.Fatalf("status = %q, want %q", m.status.text, want)
	}
	// A resumed start keeps what it says, the warnings after it.
	f.startRes = SeatStart{Resumed: true, SessionID: "abc", Warnings: []string{"w"}}
	f.seats["t-main"] = f.seats["t-main"][:1]
	send(t, m, eventsMsg{evs: []Event{SeatUpdated{Topic: "t-main", Account: "lay"}}})
	send(t, m, press("s"))
	if m.status.text != "Lay resumed session abc. Warning: w" {
		t.Fatalf("status = %q", m.status.text)
	}
	// The seat's own warnings show on its row, and in full in its details.
	f.seats["t-main"][1].Warnings = []string{"dropped launch option --profile (not allowed here)", "second"}
	send(t, m, eventsMsg{evs: []Event{SeatUpdated{Topic: "t-main", Account: "lay"}}})
	v := plain(m)
	if !strings.Contains(v, "! dropped launch optio… +1") {
		t.Fatalf("row lacks the warning:\n%s", v)
	}
	if !strings.Contains(v, "! dropped launch option") || !strings.Contains(v, "   --profile (not allowed") || !strings.Contains(v, "! second") {
		t.Fatalf("details lack the full warnings:\n%s", v)
	}
}

func TestPanelDetails(t *testing.T) {
	t.Parallel()
	m := mainModel(t, usageScene())
	if strings.Contains(plain(m), "Details") {
		t.Fatalf("details shown while the panel has no focus")
	}
	toParticipants(t, m, "lin")
	v := plain(m)
	for _, want := range []string{"─ Details · Lin ─", "session 7009c1a2-5b3e-4d1f-8…", "c copies it", "command claude --session-id", "dir     …/u/work/pullcept/tui", "started 14:02"} {
		if !strings.Contains(v, want) {
			t.Fatalf("details lack %q:\n%s", want, v)
		}
	}
	toParticipants(t, m, "lay")
	if v := plain(m); !strings.Contains(v, "session none") || strings.Contains(v, "copies it") {
		t.Fatalf("a seat without an id:\n%s", v)
	}
	// An account without a seat has no details.
	toParticipants(t, m, "admin")
	if strings.Contains(plain(m), "Details") {
		t.Fatalf("details for an account with no seat")
	}
	for _, tc := range []struct {
		t    time.Time
		want string
	}{
		{time.Time{}, "—"},
		{time.Date(2026, 10, 2, 5, 2, 0, 0, time.UTC), "14:02"},
		{time.Date(2026, 9, 30, 23, 0, 0, 0, testLoc), "9/30 23:00"},
		{time.Date(2025, 12, 31, 8, 0, 0, 0, testLoc), "2025/12/31 08:00"},
	} {
		if got := startedText(testEnv(LangEnglish), tc.t); got != tc.want {
			t.Errorf("startedText(%v) = %q, want %q", tc.t, got, tc.want)
		}
	}
}

// clock is a test clock the UI reads through Options.Now.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) set(t time.Time) {
	c.mu.Lock()
	c.now = t
	c.mu.Unlock()
}

// TestRelativeTextsRefresh: the text clock is armed for the next change of
// a shown relative text only, and its tick redraws the panel and the pane.
func TestRelativeTextsRefresh(t *testing.T) {
	t.Parallel()
	clk := &clock{now: testNow()}
	f := scene()
	f.seats["t-main"] = []SeatInfo{{Topic: "t-main", Account: "lin", State: SeatRunning, Activity: Activity{Kind: ActivityThinking}}}
	opts := testOptions()
	opts.StartTopic, opts.Now = "t-main", clk.Now
	m := newTestModel(t, f, opts, 120, 40)
	if m.seats.clock.armed {
		t.Fatalf("armed with no relative text shown")
	}
	// The turn ends 20 s ago: "idle" until the minute is full.
	since := testNow().Add(-20 * time.Second)
	f.seats["t-main"][0].Activity = Activity{Kind: ActivityIdle, Since: since}
	send(t, m, eventsMsg{evs: []Event{SeatUpdated{Topic: "t-main", Account: "lin"}}})
	if w, _ := panelWord(m, "Lin"); w != "idle" {
		t.Fatalf("idle not shown: %q\n%s", w, plain(m))
	}
	c := m.seats.clock
	if !c.armed || !c.at.Equal(since.Add(time.Minute)) {
		t.Fatalf("clock armed=%v at %v, want at %v", c.armed, c.at, since.Add(time.Minute))
	}
	// Its tick, once the minute is full, says so in the row and the title.
	send(t, m, press("ctrl+t"))
	clk.set(since.Add(time.Minute))
	send(t, m, textTickMsg{seq: c.seq})
	v := plain(m)
	if !strings.Contains(v, "idle 1 min ago") || !strings.Contains(v, "Lin · idle 1 min ago") {
		t.Fatalf("not refreshed:\n%s", v)
	}
	if m.seats.clock.seq == c.seq || !m.seats.clock.at.Equal(since.Add(2*time.Minute)) {
		t.Fatalf("not re-armed for the next minute: %+v", m.seats.clock)
	}
	// A stale tick changes nothing.
	armed := m.seats.clock
	send(t, m, textTickMsg{seq: c.seq})
	if m.seats.clock.seq != armed.seq || !m.seats.clock.armed {
		t.Fatalf("a stale tick disarmed the clock")
	}
	// Thinking again: no relative text, the running timer just runs out.
	f.seats["t-main"][0].Activity = Activity{Kind: ActivityThinking}
	send(t, m, eventsMsg{evs: []Event{SeatUpdated{Topic: "t-main", Account: "lin"}}})
	send(t, m, textTickMsg{seq: m.seats.clock.seq})
	if m.seats.clock.armed {
		t.Fatalf("re-armed with no relative text shown")
	}
}

func TestTextChange(t *testing.T) {
	t.Parallel()
	now := testNow()
	for _, tc := range []struct {
		name  string
		s     SeatInfo
		usage bool
		want  time.Time // zero: none
	}{
		{"nothing relative", SeatInfo{State: SeatRunning, Activity: Activity{Kind: ActivityThinking}}, true, time.Time{}},
		{"idle minute", SeatInfo{State: SeatRunning, Activity: Activity{Kind: ActivityIdle, Since: now.Add(-90 * time.Second)}}, false, now.Add(30 * time.Second)},
		{"limited hides idle", SeatInfo{State: SeatRunning, Limited: true, Activity: Activity{Kind: ActivityIdle, Since: now}}, false, time.Time{}},
		{"5 h text next minute", SeatInfo{State: SeatRunning, FiveHourResets: now.Add(10*time.Minute + 20*time.Second)}, true, now.Add(20 * time.Second)},
		{"5 h text in its last minute ends at the reset", SeatInfo{State: SeatRunning, FiveHourResets: now.Add(40 * time.Second)}, true, now.Add(40 * time.Second)},
		{"usage not shown", SeatInfo{State: SeatRunning, FiveHourResets: now.Add(time.Hour)}, false, time.Time{}},
		{"weekly passes", SeatInfo{State: SeatExited, WeeklyResets: now.Add(3 * time.Hour)}, true, now.Add(3 * time.Hour)},
		{"past resets", SeatInfo{State: SeatRunning, FiveHourResets: now.Add(-time.Second), WeeklyResets: now}, true, time.Time{}},
		{"offline", SeatInfo{State: SeatOffline, WeeklyResets: now.Add(time.Hour)}, true, time.Time{}},
	} {
		got, ok := textChange(tc.s, now, tc.usage)
		if ok != !tc.want.IsZero() || (ok && !got.Equal(tc.want)) {
			t.Errorf("%s: got %v %v, want %v", tc.name, got, ok, tc.want)
		}
	}
}

// panelWord is the word at the end of the panel row that names account
// name (the panel is the screen's right column).
func panelWord(m *Model, name string) (string, bool) {
	l := m.layout.Participants
	for _, line := range strings.Split(plain(m), "\n")[l.Y : l.Y+l.H] {
		cells := ansi.Cut(line, l.X, l.X+l.W)
		if f := strings.Fields(cells); len(f) > 0 && f[0] == name || len(f) > 1 && f[1] == name {
			i := strings.Index(cells, name) + len(name)
			return strings.TrimSpace(cells[i:]), true
		}
	}
	return "", false
}

// TestSeatUpdatedRereadsCoalesced: a burst of SeatUpdated events reads the
// open topic's seats once, plus once more for those that came meanwhile;
// another topic's are not read.
func TestSeatUpdatedRereadsCoalesced(t *testing.T) {
	t.Parallel()
	f := scene()
	m := mainModel(t, f)
	before := f.seatReads
	var evs []Event
	for range 20 {
		evs = append(evs, SeatUpdated{Topic: "t-main", Account: "lin"}, SeatUpdated{Topic: "t-old", Account: "lin"})
	}
	f.seats["t-main"][0].Activity = Activity{Kind: ActivityThinking}
	send(t, m, eventsMsg{evs: evs})
	if n := f.seatReads - before; n < 1 || n > 2 {
		t.Fatalf("20 updates read the seats %d times, want 1 or 2", n)
	}
	if w, _ := panelWord(m, "Lin"); w != "thinking…" {
		t.Fatalf("Lin's word = %q after the update", w)
	}
}

// TestOwnPostsByOrigin: a post is drawn as the human's own (right) only by
// its origin — the admin role the room gives the UI's entry alone — never
// because a seat took the human's name.
func TestOwnPostsByOrigin(t *testing.T) {
	t.Parallel()
	e := testEnv(LangEnglish)
	e.selfName = "Alice"
	mine := room.Post{MessageID: "m1", Role: room.RoleAdmin, Speaker: "Alice", Account: "admin", Content: "hi", TS: "2026-12-01T09:00:00Z"}
	impostor := room.Post{MessageID: "m2", Role: room.RoleCLI, Speaker: "Alice", Account: "evil", Content: "hi", TS: "2026-12-01T09:00:00Z"}
	if got, want := renderItem(e, &chatItem{posts: []room.Post{mine}}, 60, false, "", false, -1, -1, nil, false), renderOwn(e, mine, " ", 59, -1).lines; strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the human's post is not drawn as own:\n%s", strings.Join(got, "\n"))
	}
	if got, want := renderItem(e, &chatItem{posts: []room.Post{impostor}}, 60, false, "", false, -1, -1, nil, false), renderPost(e, impostor, " ", 59, -1).lines; strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("a seat named like the human is drawn as own:\n%s", strings.Join(got, "\n"))
	}
}

// TestBidiControlsShownNotObeyed: a bidi control in a post (or a seat's
// text) is drawn as its code, so "U+202E" cannot reverse what follows; the
// rest of the text stays as written.
func TestBidiControlsShownNotObeyed(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"invoice\u202egnp.exe": "invoice<U+202E>gnp.exe",
		"\u2067rtl\u2069 ok":   "<U+2067>rtl<U+2069> ok",
		"日本語 \u200f":           "日本語 <U+200F>",
	} {
		if got := sanitize(in); got != want {
			t.Errorf("sanitize(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestFoldedPostsShown (issue 32): a seat whose typing queue folded posts
// says so on its row, in both languages.
func TestFoldedPostsShown(t *testing.T) {
	t.Parallel()
	s := SeatInfo{Folded: 19937}
	for lang, want := range map[Lang]string{
		LangEnglish:  "19937 posts not typed: its queue was full; read_room_history has them",
		LangJapanese: "19937件は未入力：キューが満杯。read_room_history で読めます",
	} {
		got := strings.Join(seatLines(testEnv(lang), s, 200, time.Now(), false), "\n")
		if !strings.Contains(ansi.Strip(got), want) {
			t.Errorf("%v: %q, want %q", lang, ansi.Strip(got), want)
		}
	}
	if got := seatLines(testEnv(LangEnglish), SeatInfo{}, 200, time.Now(), false); len(got) != 0 {
		t.Errorf("nothing folded: %q", got)
	}
}

// TestAddressedSeatOutputSaysThinking: a seat whose terminal is read says
// "thinking…" while output arrives after a post addressed it and before
// it answered (spec «走っているアカウントが何をしているか»: the screen's own
// record of the live posts, by name against the roster; issue 34 item 9);
// a name nobody holds records nothing, and the record starts afresh in
// another topic.
func TestAddressedSeatOutputSaysThinking(t *testing.T) {
	t.Parallel()
	f := observedScene()
	m := mainModel(t, f)
	row := func() string { return rowOf(plain(m), "shell") }
	if !strings.Contains(row(), "outputting") {
		t.Fatalf("before any post: %q, want outputting", row())
	}
	live := func(p room.Post) { send(t, m, eventsMsg{evs: []Event{PostDelivered{Topic: "t-main", Post: p}}}) }
	ask := post("a1", "マスター", "list the files", 40)
	ask.Role, ask.Account, ask.To = room.RoleAdmin, "admin", []string{"Shell", "nobody"}
	live(ask)
	if !strings.Contains(row(), "thinking…") || len(m.seats.owed) != 1 {
		t.Fatalf("addressed: %q (owed %v), want thinking… for shell only", row(), m.seats.owed)
	}
	reply := post("a2", "shell", "a.txt b.txt", 41)
	reply.Role, reply.Account = room.RoleCLI, "sh"
	live(reply)
	if !strings.Contains(row(), "outputting") {
		t.Fatalf("after its answer: %q, want outputting", row())
	}
	live(ask)
	m.switchTopic("t-old")
	send(t, m, nil)
	if len(m.seats.owed) != 0 {
		t.Fatalf("another topic keeps the record: %v", m.seats.owed)
	}
}
