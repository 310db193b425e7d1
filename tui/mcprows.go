package tui

import tea "charm.land/bubbletea/v2"

// The participant panel's mcp rows (spec «参加者パネル» #193): a local MCP
// server takes no seat, so its row reads the server's state, not the
// room's roster. Running says "running" and keeps the name's colour, as a
// seat in the room does (issue 35: a running server's row said nothing, so
// MCP accounts seemed to have no state); every other state is the row's
// word, with the
// same words as a seat's where they mean the same (starting, exited,
// failed, offline), "stopped" for one stopped by hand and "unregistered"
// for an account whose entry left mcp-servers.json; an exit or a failure
// says why on the line under it (the spec's tooltip). The state is read
// through MCPServers when the accounts are loaded and on each
// MCPServerChanged, one read at a time.

// serversReadMsg is the mcp accounts' servers as read, by account id; an
// account whose server could not be read is left out (its row says
// nothing rather than a guess).
type serversReadMsg struct {
	servers map[string]MCPServerInfo
}

// readServersCmd reads the server of every mcp account, one read at a
// time (asked meanwhile, it reads once more after); nil when the backend
// runs no MCP servers or no account is an mcp one.
func (m *Model) readServersCmd() tea.Cmd {
	api := mcpServersOf(m.backend)
	if api == nil {
		return nil
	}
	var ids []string
	for _, a := range m.accounts.list {
		if a.Kind == KindMCP {
			ids = append(ids, a.ID)
		}
	}
	if len(ids) == 0 && len(m.accounts.servers) == 0 {
		return nil
	}
	if !m.accounts.serverReads.start() {
		return nil
	}
	return func() tea.Msg {
		out := make(map[string]MCPServerInfo, len(ids))
		for _, id := range ids {
			if info, err := api.MCPServer(id); err == nil {
				out[id] = info
			}
		}
		return serversReadMsg{servers: out}
	}
}

// onServersRead keeps the servers for the panel and reads again when a
// change came while the read ran.
func (m *Model) onServersRead(msg serversReadMsg) []tea.Cmd {
	m.accounts.servers = msg.servers
	m.accounts.panel.changed()
	if m.accounts.serverReads.done() {
		return []tea.Cmd{m.readServersCmd()}
	}
	return nil
}

// serverDown reports whether an mcp account's server is known and not
// running: its name is drawn faint, like a seat that is not in the room.
func (d *partData) serverDown(id string) bool {
	s, ok := d.servers[id]
	return ok && (s.State != MCPRunning || !s.Registered)
}

// serverBadge is an mcp account's word: its state ("running" too), nothing
// when it was never read.
func serverBadge(e *env, d *partData, id string) (string, tone) {
	s, ok := d.servers[id]
	if !ok {
		return "", toneDim
	}
	tr := e.tr
	switch {
	case !s.Registered:
		return tr.t(mPartsUnregistered), toneDim
	case s.State == MCPRunning:
		return tr.t(mPartsRunning), toneDim
	case s.State == MCPStarting:
		return tr.t(mPartsStarting), toneDim
	case s.State == MCPExited:
		return tr.t(mPartsExited), toneDim
	case s.State == MCPFailed:
		return tr.t(mPartsFailed), toneDanger
	case s.State == MCPStopped:
		return tr.t(mPartsStopped), toneDim
	}
	return tr.t(mPartsOffline), toneDim
}

// serverWhy is the line under an mcp row whose server exited or failed:
// its exit code and the reason, "" for any other state.
func serverWhy(e *env, d *partData, id string) (string, bool) {
	s, ok := d.servers[id]
	if !ok || !s.Registered {
		return "", false
	}
	switch s.State {
	case MCPExited:
		why := e.tr.t(mPartsServerExit, s.ExitCode)
		if r := oneLine(s.Reason); r != "" {
			why += " · " + r
		}
		return why, false
	case MCPFailed:
		return orDash(oneLine(s.Reason)), true
	}
	return "", false
}
