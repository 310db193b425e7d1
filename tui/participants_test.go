package tui

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// toParticipants moves focus to the account panel and its cursor to id.
func toParticipants(t *testing.T, m *Model, id string) {
	t.Helper()
	for i := 0; i < 6 && m.focus != FocusParticipants; i++ {
		send(t, m, press("tab"))
	}
	rows := m.partData().rows()
	for i, r := range rows {
		if r.account != nil && r.account.ID == id {
			m.accounts.panel.sel = i
			send(t, m, press("esc"))
			send(t, m, press("shift+tab"))
			if m.focus != FocusParticipants {
				t.Fatalf("focus = %v", m.focus)
			}
			return
		}
	}
	t.Fatalf("no row for %q", id)
}

func TestParticipantPanelRows(t *testing.T) {
	t.Parallel()
	m := mainModel(t, scene())
	v := plain(m)
	for _, want := range []string{"admin — 1", "マスター", "(you)", "Claude Code — 1", "Lin", "running", "opus · high", "5h   █░░░░░░░░░  12%", "week ████░░░░░░  40%", "ctx  —", "Codex CLI — 1", "Lay", "offline", "MCP — 1", "github"} {
		if !strings.Contains(v, want) {
			t.Fatalf("panel lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, " 0%") {
		t.Fatalf("an unknown usage field shows 0%%")
	}
	// A guest connection (no account) is listed under Guests.
	f := scene()
	f.rosters["t-main"] = append(f.rosters["t-main"], roomMember("visitor"))
	m = mainModel(t, f)
	if v := plain(m); !strings.Contains(v, "Guests — 1") || !strings.Contains(v, "visitor") {
		t.Fatalf("guest not listed:\n%s", v)
	}
}

func TestStartAndStopASeat(t *testing.T) {
	t.Parallel()
	f := scene()
	f.startRes = SeatStart{Resumed: true, SessionID: "abc-123"}
	m := mainModel(t, f)
	toParticipants(t, m, "lay")
	send(t, m, press("s"))
	if len(f.started) != 1 || !strings.HasPrefix(f.started[0], "t-main|lay|") {
		t.Fatalf("started = %v", f.started)
	}
	if !strings.Contains(plain(m), "Lay resumed session abc-123.") {
		t.Fatalf("resume not reported:\n%s", plain(m))
	}
	if m.seats.infos["lay"].State != SeatRunning {
		t.Fatalf("seats not refreshed: %+v", m.seats.infos)
	}
	send(t, m, press("s"))
	if len(f.started) != 1 {
		t.Fatalf("a running seat was started twice")
	}
	send(t, m, press("x"))
	if m.overlay.open != ovDialog || m.overlay.dialog.kind != dialogStopSeat {
		t.Fatalf("x did not ask")
	}
	send(t, m, press("y"))
	if len(f.stopped) != 1 || f.stopped[0] != "t-main|lay" {
		t.Fatalf("stopped = %v", f.stopped)
	}
	if _, ok := m.seats.infos["lay"]; ok {
		t.Fatalf("stopped seat still listed")
	}
}

func TestRefusedLaunchIsShown(t *testing.T) {
	t.Parallel()
	f := scene()
	f.startErr = errors.New("launch options carry their own --settings")
	m := mainModel(t, f)
	toParticipants(t, m, "lay")
	send(t, m, press("enter"))
	v := plain(m)
	if !strings.Contains(v, "Lay was not started: launch options carry their own --settings") || !strings.Contains(v, "failed") {
		t.Fatalf("refusal not shown:\n%s", v)
	}
	if len(m.seats.starting) != 0 {
		t.Fatalf("still starting after the refusal")
	}
}

func TestStartingShowsASpinner(t *testing.T) {
	t.Parallel()
	f := scene()
	m := mainModel(t, f)
	toParticipants(t, m, "lay")
	// Drive by hand: the start command is not run yet.
	_, cmd := m.Update(press("s"))
	if !m.seats.starting[seatKey{"t-main", "lay"}] {
		t.Fatalf("not starting")
	}
	if !strings.Contains(plain(m), "⠋ starting") {
		t.Fatalf("no spinner while starting:\n%s", plain(m))
	}
	drive(t, m, cmd)
	if len(m.seats.starting) != 0 || strings.Contains(plain(m), "starting") {
		t.Fatalf("spinner left after the start answered")
	}
}

func TestFirstRunHintAndQuickCreate(t *testing.T) {
	t.Parallel()
	f := newFake()
	f.accounts = []AccountInfo{{ID: "admin", Kind: KindAdmin, Name: "me"}}
	f.paths["claude"] = "/usr/local/bin/claude"
	m := newTestModel(t, f, testOptions(), 120, 40)
	v := plain(m)
	for _, want := range []string{"No AI accounts yet", "1 Claude Code (found)", "2 Codex CLI (not on PATH)", "3 CLI"} {
		if !strings.Contains(v, want) {
			t.Fatalf("hint lacks %q:\n%s", want, v)
		}
	}
	// At 80 columns the panel is narrow: the hint wraps, nothing is cut.
	send(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
	if v := plain(m); !strings.Contains(v, "(not on") || !strings.Contains(v, "PATH)") || strings.Contains(v, "(not on P ") {
		t.Fatalf("the narrow hint cuts a line:\n%s", v)
	}
	send(t, m, tea.WindowSizeMsg{Width: 120, Height: 40})
	for m.focus != FocusParticipants {
		send(t, m, press("tab"))
	}
	send(t, m, press("1"))
	if m.overlay.open != ovEditor {
		t.Fatalf("1 did not open the editor")
	}
	a := m.overlay.editor.collect()
	if a.Kind != KindClaudeCode || a.Command != "/usr/local/bin/claude" || a.Dir != "/home/u" || a.Name != "Claude Code" {
		t.Fatalf("prefill = %+v", a)
	}
	if !strings.Contains(plain(m), "/usr/local/bin/claude  --session-id") {
		t.Fatalf("launch line preview missing:\n%s", plain(m))
	}
	send(t, m, press("ctrl+s"))
	if len(f.saved) != 1 || f.saved[0].Kind != KindClaudeCode || m.overlay.open != ovNone {
		t.Fatalf("save: %+v ov=%v", f.saved, m.overlay.open)
	}
	if strings.Contains(plain(m), "No AI accounts yet") {
		t.Fatalf("hint still shown after creating an account")
	}
}

func TestEditorFieldsPreviewAndMasking(t *testing.T) {
	t.Parallel()
	f := scene()
	f.accounts[2].Env = "OPENAI_API_KEY=sk-live-123"
	m := mainModel(t, f)
	toParticipants(t, m, "lay")
	send(t, m, press("e"))
	if m.overlay.open != ovEditor || m.overlay.editor.acc.ID != "lay" {
		t.Fatalf("editor not open on lay")
	}
	if v := plain(m); strings.Contains(v, "sk-live-123") || !strings.Contains(v, "OPENAI_API_KEY=••••") {
		t.Fatalf("env not masked:\n%s", v)
	}
	// Clear the working dir: the preview reports the problem while typing.
	for m.overlay.editor.field != fDir {
		send(t, m, press("tab"))
	}
	for range "/home/u/work" {
		send(t, m, press("backspace"))
	}
	if v := plain(m); !strings.Contains(v, "working directory is required") {
		t.Fatalf("problem not shown:\n%s", v)
	}
	typeText(t, m, "/srv/プロジェクト")
	for m.overlay.editor.field != fEnv {
		send(t, m, press("tab"))
	}
	if !strings.Contains(plain(m), "sk-live-123") {
		t.Fatalf("the env field being edited should show its text")
	}
	send(t, m, press("esc"))
	if m.overlay.open != ovEditor || !strings.Contains(m.overlay.editor.msg, "Unsaved changes") {
		t.Fatalf("esc with unsaved changes must ask first")
	}
	send(t, m, press("esc"))
	if m.overlay.open != ovNone || len(f.saved) != 0 {
		t.Fatalf("esc must cancel without saving")
	}
	send(t, m, press("e"))
	for m.overlay.editor.field != fDir {
		send(t, m, press("tab"))
	}
	send(t, m, press("end"))
	typeText(t, m, "/sub")
	for m.overlay.editor.field != fHue {
		send(t, m, press("shift+tab"))
	}
	send(t, m, press("right"))
	send(t, m, press("ctrl+s"))
	if len(f.saved) != 1 || f.saved[0].Dir != "/home/u/work/sub" || f.saved[0].Hue == nil || *f.saved[0].Hue != huePalette()[0] || f.saved[0].Env != "OPENAI_API_KEY=sk-live-123" {
		t.Fatalf("saved = %+v", f.saved)
	}
}

func TestEditorDeleteRules(t *testing.T) {
	t.Parallel()
	f := scene()
	m := mainModel(t, f)
	for _, tc := range []struct {
		id, want string
	}{
		{"lin", "A running account cannot be deleted"},
		{"admin", "This screen's own admin account cannot be deleted"},
	} {
		toParticipants(t, m, tc.id)
		send(t, m, press("e"))
		send(t, m, press("ctrl+d"))
		send(t, m, press("ctrl+d"))
		if !strings.Contains(plain(m), tc.want) || len(f.deletedAccs) != 0 {
			t.Fatalf("%s: want refusal %q, deleted %v", tc.id, tc.want, f.deletedAccs)
		}
		send(t, m, press("esc"))
	}
	toParticipants(t, m, "lay")
	send(t, m, press("e"))
	send(t, m, press("ctrl+d"))
	if len(f.deletedAccs) != 0 || !strings.Contains(plain(m), "Press Ctrl+D again") {
		t.Fatalf("first ctrl+d must only arm")
	}
	send(t, m, press("ctrl+d"))
	if len(f.deletedAccs) != 1 || f.deletedAccs[0] != "lay" || m.overlay.open != ovNone {
		t.Fatalf("deleted = %v", f.deletedAccs)
	}
	if strings.Contains(plain(m), "Codex CLI — 1") {
		t.Fatalf("deleted account still listed")
	}
}

// A generic CLI seat reports no usage: its row shows no empty 5h/week/ctx
// meters, while a Claude Code seat that has not reported yet shows them
// dashed (newcomer review).
func TestCLISeatShowsNoEmptyMeters(t *testing.T) {
	t.Parallel()
	f := scene()
	f.accounts = append(f.accounts, AccountInfo{ID: "sh", Kind: KindCLI, Name: "Shell", Dir: "/home/u/work", Command: "bash"})
	f.seats["t-main"] = append(f.seats["t-main"], SeatInfo{Topic: "t-main", Account: "sh", State: SeatRunning})
	m := sceneModel(t, f, 200, 60, LangEnglish)
	lines := strings.Split(plain(m), "\n")
	for i, l := range lines {
		if !strings.Contains(l, "Shell") {
			continue
		}
		for _, next := range lines[i+1 : min(i+3, len(lines))] {
			if strings.Contains(next, "5h —") || strings.Contains(next, "— · —") {
				t.Fatalf("the CLI seat's row has empty meters:\n%s", strings.Join(lines[i:min(i+3, len(lines))], "\n"))
			}
		}
		return
	}
	t.Fatalf("no Shell row:\n%s", plain(m))
}
