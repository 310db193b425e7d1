package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// panelRow is the panel's line that holds name, and the lines under it
// that belong to its row (indented three cells), joined by spaces, plain.
func panelRow(t *testing.T, m *Model, name string) (string, string) {
	t.Helper()
	view := m.accounts.panel.view
	for i, l := range view {
		if strings.Contains(ansi.Strip(l), name) {
			var under []string
			for _, n := range view[i+1:] {
				n = ansi.Strip(n)
				if !strings.HasPrefix(n, "   ") || strings.TrimSpace(n) == "" {
					break
				}
				under = append(under, strings.TrimSpace(n))
			}
			return ansi.Strip(l), strings.Join(under, " ")
		}
	}
	t.Fatalf("no panel row for %q:\n%s", name, plain(m))
	return "", ""
}

// setServer changes the fake's server of gh and tells the UI.
func setServer(t *testing.T, m *Model, f *fakeBackend, change func(*MCPServerInfo)) {
	t.Helper()
	f.mu.Lock()
	s := f.mcp.servers["gh"]
	change(&s)
	f.mcp.servers["gh"] = s
	f.mu.Unlock()
	send(t, m, eventsMsg{evs: []Event{MCPServerChanged{AccountID: "gh"}}})
}

// TestMCPRowsSayTheServerState: an mcp account's row reads its server's
// state (spec «参加者パネル» #193): running (issue 35: it said nothing, so
// MCP accounts seemed to have no state), starting,
// exited (with its code and reason under it), failed (its reason), stopped
// or unregistered, in English and Japanese, following MCPServerChanged.
// Before, the row said nothing whatever its server did.
func TestMCPRowsSayTheServerState(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		lang                                                 Lang
		running, starting, exited, code, failed, stopped, un string
	}{
		{LangEnglish, "running", "starting", "exited", "exit code 1 · connect ECONNREFUSED", "failed", "stopped", "unregistered"},
		{LangJapanese, "稼働中", "起動中", "終了", "終了コード 1 · connect ECONNREFUSED", "起動失敗", "停止", "未登録"},
	} {
		f := mcpScene()
		m := sceneModel(t, f, 120, 40, tc.lang)
		if row, _ := panelRow(t, m, "github"); strings.Join(strings.Fields(row), " ") != "github "+tc.running {
			t.Fatalf("%v: a running server's row says %q", tc.lang, row)
		}
		steps := []struct {
			change     func(*MCPServerInfo)
			word, next string
		}{
			{func(s *MCPServerInfo) { s.State = MCPStarting }, tc.starting, ""},
			{func(s *MCPServerInfo) { s.State, s.ExitCode, s.Reason = MCPExited, 1, "connect ECONNREFUSED" }, tc.exited, tc.code},
			{func(s *MCPServerInfo) { s.State, s.Reason = MCPFailed, "spawn node: no such file" }, tc.failed, "spawn node: no such file"},
			{func(s *MCPServerInfo) { s.State, s.Reason = MCPStopped, "" }, tc.stopped, ""},
			{func(s *MCPServerInfo) { s.Registered = false }, tc.un, ""},
			{func(s *MCPServerInfo) { s.State, s.Registered = MCPRunning, true }, tc.running, ""},
		}
		for _, st := range steps {
			setServer(t, m, f, st.change)
			row, next := panelRow(t, m, "github")
			if got := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(row), "github")); got != st.word {
				t.Fatalf("%v: row %q, want the word %q", tc.lang, row, st.word)
			}
			if st.next != "" && strings.TrimSpace(next) != st.next {
				t.Fatalf("%v: under the row %q, want %q", tc.lang, next, st.next)
			}
			if st.next == "" && strings.TrimSpace(next) != "" {
				t.Fatalf("%v: %q under the %q row", tc.lang, next, st.word)
			}
		}
	}
}

// serversScene is scene with a server in every state the panel tells
// apart: github running, ci exited, hook failed, relay stopped by hand,
// bot starting, old unregistered.
func serversScene() *fakeBackend {
	f := mcpScene()
	add := func(id, name string, s MCPServerInfo) {
		f.accounts = append(f.accounts, AccountInfo{ID: id, Kind: KindMCP, Name: name})
		s.Entry, s.Command = name, "node"
		f.mcp.servers[id] = s
	}
	add("ci", "ci-watch", MCPServerInfo{Registered: true, State: MCPExited, ExitCode: 1, Reason: "connect ECONNREFUSED 127.0.0.1:8787"})
	add("hook", "hooks", MCPServerInfo{Registered: true, State: MCPFailed, Reason: `exec: "node": executable file not found in $PATH`})
	add("relay", "relay", MCPServerInfo{Registered: true, State: MCPStopped})
	add("bot", "bot", MCPServerInfo{Registered: true, State: MCPStarting})
	add("old", "old-bridge", MCPServerInfo{Registered: false, State: MCPNotStarted})
	return f
}

// TestGoldenPanelServers: the MCP group with a server in each state, at
// 80×24 and 120×40, English and Japanese.
func TestGoldenPanelServers(t *testing.T) {
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
			m := sceneModel(t, serversScene(), tc.w, tc.h, tc.lang)
			golden.RequireEqual(t, m.View().Content)
		})
	}
}
