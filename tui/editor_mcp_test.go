package tui

import (
	"strings"
	"testing"
)

// openServer opens the editor on the github server's account.
func openServer(t *testing.T, f *fakeBackend, w, h int, lang Lang) *Model {
	t.Helper()
	return openAccount(t, f, "gh", w, h, lang)
}

// TestServerSectionShowsTheServer: an mcp account's editor has no launch
// fields but its server: state with the restart key, command, args and
// env line-numbered (env values masked until edited), and the log with
// each line's time, at its end.
func TestServerSectionShowsTheServer(t *testing.T) {
	t.Parallel()
	f := mcpScene()
	m := openServer(t, f, 120, 40, LangEnglish)
	ed := m.overlay.editor
	want := []edField{fKind, fName, fNickname, fHue, fSrvState, fSrvCommand, fSrvArgs, fSrvEnv}
	if got := ed.fields(); !equalFields(got, want) {
		t.Fatalf("fields = %v, want %v", got, want)
	}
	v := flat(m)
	for _, s := range []string{
		"Server entry “github” in /home/u/.local/share/pullcept/mcp-servers.json",
		"state running · Enter restarts it", "command node",
		"args (per line) 1 /opt/pullcept/webhook-bridge.mjs 2 --channel 3 main",
		"1 WEBHOOK_WORKER_URL=•••• 2 LOG_LEVEL=••••",
		"Server log", "14:10:00 [pullcept] started node", "14:30:12 ping ok",
	} {
		if !strings.Contains(v, s) {
			t.Fatalf("%q not shown:\n%s", s, plain(m))
		}
	}
	if strings.Contains(v, "github-webhook.example.com/") && !strings.Contains(v, "connected to wss://github-webhook.example.com/events") {
		t.Fatalf("an env value is shown:\n%s", plain(m))
	}
	if strings.Contains(v, "Launch line") || strings.Contains(v, "working dir") {
		t.Fatalf("launch fields in an mcp account's editor:\n%s", plain(m))
	}
	editField(t, m, fSrvEnv)
	if v := flat(m); !strings.Contains(v, "WEBHOOK_WORKER_URL=https://github-webhook.example.com") {
		t.Fatalf("the env field being edited is masked:\n%s", plain(m))
	}
	// The log box pages up and back to its end, which it then follows.
	f.mu.Lock()
	for i := range 40 {
		f.mcp.logs["gh"] = append(f.mcp.logs["gh"], LogLine{At: testNow(), Text: "tick " + strings.Repeat("·", i%5)})
	}
	f.mcp.logs["gh"] = append(f.mcp.logs["gh"], LogLine{At: testNow(), Text: "the last line"})
	f.mu.Unlock()
	send(t, m, eventsMsg{evs: []Event{MCPServerChanged{AccountID: "gh"}}})
	if !strings.Contains(flat(m), "14:30:00 the last line") {
		t.Fatalf("the log does not follow its end:\n%s", plain(m))
	}
	editField(t, m, fSrvState)
	for range 3 {
		send(t, m, press("pgup"))
	}
	if ed.srv.follow || strings.Contains(flat(m), "the last line") {
		t.Fatalf("pgup did not leave the log's end:\n%s", plain(m))
	}
	for range 5 {
		send(t, m, press("pgdown"))
	}
	if !ed.srv.follow || !strings.Contains(flat(m), "14:30:00 the last line") {
		t.Fatalf("pgdown did not come back to the log's end:\n%s", plain(m))
	}
}

func equalFields(a, b []edField) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestServerRestartKey: Enter on the state row restarts the server; with
// fields typed since, the row says it saves them first, and it does.
func TestServerRestartKey(t *testing.T) {
	t.Parallel()
	f := mcpScene()
	f.mcp.servers["gh"] = func(s MCPServerInfo) MCPServerInfo {
		s.State, s.ExitCode, s.Reason = MCPExited, 1, "Error: WEBHOOK_WORKER_URL unreachable"
		return s
	}(f.mcp.servers["gh"])
	m := openServer(t, f, 120, 40, LangEnglish)
	if v := flat(m); !strings.Contains(v, "exited 1 · Enter restarts it Error: WEBHOOK_WORKER_URL unreachable") {
		t.Fatalf("the exit is not shown:\n%s", plain(m))
	}
	editField(t, m, fSrvState)
	send(t, m, press("enter"))
	if len(f.mcp.restarts) != 1 || len(f.mcp.saves) != 0 {
		t.Fatalf("restarts %v, saves %v", f.mcp.restarts, f.mcp.saves)
	}
	v := flat(m)
	if !strings.Contains(v, "Restarting github.") || !strings.Contains(v, "state running") || !strings.Contains(v, "[pullcept] started node") {
		t.Fatalf("after the restart:\n%s", plain(m))
	}
	// Typed args: the row says they are saved first, and Enter does so.
	editField(t, m, fSrvArgs)
	send(t, m, press("ctrl+end"))
	send(t, m, press("enter"))
	typeText(t, m, "--verbose")
	editField(t, m, fSrvState)
	if v := flat(m); !strings.Contains(v, "Enter saves the fields below and restarts it") {
		t.Fatalf("the row does not say it saves:\n%s", plain(m))
	}
	send(t, m, press("enter"))
	want := "gh|node|/opt/pullcept/webhook-bridge.mjs\n--channel\nmain\n--verbose|WEBHOOK_WORKER_URL=https://github-webhook.example.com\nLOG_LEVEL=debug"
	if len(f.mcp.saves) != 1 || f.mcp.saves[0] != want || len(f.mcp.restarts) != 2 {
		t.Fatalf("saves %q, restarts %v", f.mcp.saves, f.mcp.restarts)
	}
	ed := m.overlay.editor
	if ed.serverDirty() || ed.unsaved() || !strings.Contains(ed.msg, "Saved the server's fields; restarting github.") {
		t.Fatalf("dirty %v, msg %q", ed.serverDirty(), ed.msg)
	}
}

// TestServerFieldsRefusedByLine: ctrl+s with an env line the backend
// refuses saves nothing, names the field and line, marks the line and
// focuses the field; fixed, the fields are saved, then the account.
func TestServerFieldsRefusedByLine(t *testing.T) {
	t.Parallel()
	for _, lang := range []Lang{LangEnglish, LangJapanese} {
		f := mcpScene()
		m := openServer(t, f, 120, 40, lang)
		editField(t, m, fSrvEnv)
		send(t, m, press("ctrl+end"))
		send(t, m, press("enter"))
		typeText(t, m, "NO_EQUALS")
		editField(t, m, fName)
		typeText(t, m, "!")
		send(t, m, press("ctrl+s"))
		ed := m.overlay.editor
		if m.overlay.open != ovEditor || len(f.saved) != 0 || len(f.mcp.saves) != 1 {
			t.Fatalf("%s: saved %v, server saves %v", lang, f.saved, f.mcp.saves)
		}
		wantMsg := map[Lang]string{
			LangEnglish:  `Not saved: env (NAME=value) line 3: no "=" (write NAME=value)`,
			LangJapanese: `保存できません: 環境変数 3 行目: no "=" (write NAME=value)`,
		}[lang]
		if ed.msg != wantMsg || !ed.msgErr || ed.field != fSrvEnv {
			t.Fatalf("%s: message %q, field %v", lang, ed.msg, ed.field)
		}
		if p, ok := ed.fieldProblem(fSrvEnv); !ok || p.Line != 3 {
			t.Fatalf("%s: the env field is not marked: %+v", lang, p)
		}
		editField(t, m, fSrvState) // unfocused, line 3 is numbered in the danger colour
		if got := ed.numberedLines(&m.env, ed.srv.env.Value(), FieldServerEnv, true); got[2] != m.env.th.dangerS.Render(" 3 ")+"NO_EQUALS" {
			t.Fatalf("%s: line 3 drawn %q", lang, got[2])
		}
		editField(t, m, fSrvEnv)
		send(t, m, press("ctrl+end"))
		typeText(t, m, "=1")
		send(t, m, press("ctrl+s"))
		if m.overlay.open != ovNone || len(f.mcp.saves) != 2 || !strings.HasSuffix(f.mcp.saves[1], "NO_EQUALS=1") ||
			len(f.saved) != 1 || f.saved[0].Name != "github!" {
			t.Fatalf("%s: after the fix: overlay %v, server saves %q, saved %+v", lang, m.overlay.open, f.mcp.saves, f.saved)
		}
	}
}

// TestServerChangedRefreshesTheEditor: MCPServerChanged for the open
// account reads it again: its new state and log show, fields not typed in
// follow the file, a typed one stays. Another account's change does not
// read the editor's server (the panel's rows read every server).
func TestServerChangedRefreshesTheEditor(t *testing.T) {
	t.Parallel()
	f := mcpScene()
	m := openServer(t, f, 120, 40, LangEnglish)
	setField(t, m, fSrvCommand, "/usr/bin/node")
	reads := f.mcp.logReads
	send(t, m, eventsMsg{evs: []Event{MCPServerChanged{AccountID: "lin"}}})
	if f.mcp.logReads != reads {
		t.Fatalf("another account's change read the server")
	}
	f.mu.Lock()
	s := f.mcp.servers["gh"]
	s.State, s.Reason, s.Args, s.Stale = MCPFailed, "spawn node: no such file", "/opt/new.mjs", true
	f.mcp.servers["gh"] = s
	f.mcp.logs["gh"] = append(f.mcp.logs["gh"], LogLine{At: testNow(), Text: "[pullcept] failed: spawn node"})
	f.mu.Unlock()
	send(t, m, eventsMsg{evs: []Event{MCPServerChanged{AccountID: "gh"}}})
	v := flat(m)
	for _, s := range []string{"state failed · Enter saves the fields below and restarts it", "spawn node: no such file",
		"mcp-servers.json changed since it started", "14:30:00 [pullcept] failed: spawn node"} {
		if !strings.Contains(v, s) {
			t.Fatalf("%q not shown:\n%s", s, plain(m))
		}
	}
	ed := m.overlay.editor
	if got := ed.serverText(); got.command != "/usr/bin/node" || got.args != "/opt/new.mjs" {
		t.Fatalf("fields after the change: %+v", got)
	}
	// Esc asks first: the typed command is unsaved.
	send(t, m, press("esc"))
	if m.overlay.open != ovEditor || !strings.Contains(ed.msg, "Unsaved changes") {
		t.Fatalf("Esc dropped typed server fields: %q", ed.msg)
	}
}

// TestServerReadFailsReadOnly: a server that cannot be read is said so,
// and its fields take no keys.
func TestServerReadFailsReadOnly(t *testing.T) {
	t.Parallel()
	f := mcpScene()
	f.mcp.readErr = errTest("mcp-servers.json: permission denied")
	m := openServer(t, f, 120, 40, LangEnglish)
	if v := flat(m); !strings.Contains(v, "state Cannot read the server: mcp-servers.json: permission denied") {
		t.Fatalf("the failure is not shown:\n%s", plain(m))
	}
	editField(t, m, fSrvCommand)
	typeText(t, m, "x")
	ed := m.overlay.editor
	if ed.inputs[fSrvCommand].Value() != "" || !strings.Contains(ed.msg, "permission denied") {
		t.Fatalf("typed into an unread server: %q, %q", ed.inputs[fSrvCommand].Value(), ed.msg)
	}
	editField(t, m, fSrvState)
	send(t, m, press("enter"))
	if len(f.mcp.restarts) != 0 {
		t.Fatal("restarted a server it could not read")
	}
	// A backend without MCP servers: the section says so.
	if mcpServersOf(struct{ Backend }{f}) != nil {
		t.Fatal("a backend without the methods runs MCP servers")
	}
	ed.srv.api = nil
	if v := flat(m); !strings.Contains(v, "This build runs no local MCP servers.") {
		t.Fatalf("no word of the missing servers:\n%s", plain(m))
	}
}

type errTest string

func (e errTest) Error() string { return string(e) }

// TestNewServerAccount: a new account whose kind is MCP has the server's
// fields (no state, no log: there is no server yet); saving hands them
// and the account to CreateMCPAccount, a refusal keeps the editor open
// with the line, and the saved server's account folds its notices.
func TestNewServerAccount(t *testing.T) {
	t.Parallel()
	f := mcpScene()
	m := sceneModel(t, f, 120, 40, LangEnglish)
	toParticipants(t, m, "lin")
	send(t, m, press("a"))
	editField(t, m, fKind)
	send(t, m, press("left")) // Claude Code → MCP
	ed := m.overlay.editor
	if got := ed.fields(); !equalFields(got, []edField{fKind, fName, fNickname, fHue, fSrvCommand, fSrvArgs, fSrvEnv}) {
		t.Fatalf("fields = %v", got)
	}
	if v := flat(m); !strings.Contains(v, "Saving writes a new entry to mcp-servers.json") || strings.Contains(v, "Server log") {
		t.Fatalf("new server:\n%s", plain(m))
	}
	setField(t, m, fName, "ci bot")
	setField(t, m, fSrvCommand, "npx")
	editField(t, m, fSrvArgs)
	typeText(t, m, "ci-notify")
	editField(t, m, fSrvEnv)
	typeText(t, m, "TOKEN")
	send(t, m, press("ctrl+s"))
	if m.overlay.open != ovEditor || len(f.mcp.creates) != 1 || ed.field != fSrvEnv || !strings.Contains(ed.msg, "line 1") {
		t.Fatalf("refused create: overlay %v, creates %q, msg %q", m.overlay.open, f.mcp.creates, ed.msg)
	}
	typeText(t, m, "=abc")
	send(t, m, press("ctrl+s"))
	if m.overlay.open != ovNone || len(f.mcp.creates) != 2 || f.mcp.creates[1] != "ci bot|npx|ci-notify|TOKEN=abc" || len(f.saved) != 0 {
		t.Fatalf("create: overlay %v, creates %q, SaveAccount %v", m.overlay.open, f.mcp.creates, f.saved)
	}
	if _, ok := m.env.mcp["mcp-ci-bot"]; !ok {
		t.Fatalf("the new server's account is not known: %v", m.env.mcp)
	}
}
