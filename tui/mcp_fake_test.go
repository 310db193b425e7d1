package tui

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// mcpFake is fakeBackend's MCPServers: the servers by account id, their
// logs, and what the editor asked. It reads the fields as the app does
// (a line without "=", a name twice and an empty command are refused,
// each with its line).
type mcpFake struct {
	servers  map[string]MCPServerInfo
	logs     map[string][]LogLine
	readErr  error
	reads    int      // MCPServer calls (the editor's and the panel's)
	logReads int      // MCPServerLog calls (the editor's)
	saves    []string // "id|command|args|env"
	restarts []string
	creates  []string // "name|command|args|env"
}

func (f *fakeBackend) MCPServer(id string) (MCPServerInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.mcp.reads++
	if f.mcp.readErr != nil {
		return MCPServerInfo{}, f.mcp.readErr
	}
	s, ok := f.mcp.servers[id]
	if !ok {
		return MCPServerInfo{}, fmt.Errorf("no server for %s", id)
	}
	return s, nil
}

func (f *fakeBackend) MCPServerLog(id string) []LogLine {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.mcp.logReads++
	return append([]LogLine(nil), f.mcp.logs[id]...)
}

// checkServerFields is the fake's reading of the fields.
func checkServerFields(command, env string) error {
	var ps []FieldProblem
	if strings.TrimSpace(command) == "" {
		ps = append(ps, FieldProblem{Field: FieldServerCommand, Text: "command is required"})
	}
	seen := map[string]bool{}
	for i, l := range strings.Split(env, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		name, _, ok := strings.Cut(l, "=")
		switch {
		case !ok:
			ps = append(ps, FieldProblem{Field: FieldServerEnv, Line: i + 1, Text: `no "=" (write NAME=value)`})
		case seen[strings.ToUpper(name)]:
			ps = append(ps, FieldProblem{Field: FieldServerEnv, Line: i + 1, Text: name + " is set twice"})
		}
		seen[strings.ToUpper(name)] = true
	}
	if len(ps) > 0 {
		return &MCPServerRefused{Problems: ps}
	}
	return nil
}

func (f *fakeBackend) SaveMCPServer(id, command, args, env string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.mcp.saves = append(f.mcp.saves, id+"|"+command+"|"+args+"|"+env)
	if err := checkServerFields(command, env); err != nil {
		return err
	}
	s, ok := f.mcp.servers[id]
	if !ok {
		return errors.New("no server for " + id)
	}
	s.Command, s.Args, s.Env = command, args, env
	s.Stale = s.State == MCPRunning || s.State == MCPStarting
	f.mcp.servers[id] = s
	return nil
}

func (f *fakeBackend) RestartMCPServer(id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.mcp.restarts = append(f.mcp.restarts, id)
	s, ok := f.mcp.servers[id]
	if !ok {
		return errors.New("no server for " + id)
	}
	s.State, s.Stale, s.Reason, s.ExitCode = MCPRunning, false, "", 0
	f.mcp.servers[id] = s
	f.mcp.logs[id] = append(f.mcp.logs[id], LogLine{At: testNow(), Text: "[pullcept] started " + s.Command})
	return nil
}

func (f *fakeBackend) CreateMCPAccount(a AccountInfo, command, args, env string) (AccountInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.mcp.creates = append(f.mcp.creates, a.Name+"|"+command+"|"+args+"|"+env)
	if err := checkServerFields(command, env); err != nil {
		return AccountInfo{}, err
	}
	entry := strings.ReplaceAll(a.Name, " ", "-")
	a.ID = "mcp-" + entry
	f.accounts = append(f.accounts, a)
	if f.mcp.servers == nil {
		f.mcp.servers, f.mcp.logs = map[string]MCPServerInfo{}, map[string][]LogLine{}
	}
	f.mcp.servers[a.ID] = MCPServerInfo{Entry: entry, Registered: true, Command: command, Args: args, Env: env, State: MCPStarting}
	return a, nil
}

// mcpScene is scene with the github server's entry running and a log
// that arrived over the last minutes.
func mcpScene() *fakeBackend {
	f := scene()
	f.mcp.servers = map[string]MCPServerInfo{"gh": {
		Entry: "github", Registered: true, Command: "node",
		Args: "/opt/pullcept/webhook-bridge.mjs\n--channel\nmain",
		Env:  "WEBHOOK_WORKER_URL=https://github-webhook.example.com\nLOG_LEVEL=debug",
		File: "/home/u/.local/share/pullcept/mcp-servers.json", State: MCPRunning,
	}}
	at := func(min, sec int) time.Time {
		return testNow().Add(-time.Duration(min)*time.Minute + time.Duration(sec)*time.Second)
	}
	f.mcp.logs = map[string][]LogLine{"gh": {
		{At: at(20, 0), Text: "[pullcept] started node /opt/pullcept/webhook-bridge.mjs --channel main"},
		{At: at(19, 58), Text: "webhook-bridge 0.4.1 listening for channel pushes"},
		{At: at(19, 57), Text: "connected to wss://github-webhook.example.com/events"},
		{At: at(12, 3), Text: "event 4812 pull_request opened (pullcept/pullcept#12)"},
		{At: at(9, 41), Text: "event 4813 check_suite completed: success — a long line that the log box wraps under its time rather than cutting it at the edge"},
		{At: at(5, 17), Text: "event 4814 pull_request closed (merged)"},
		{At: at(0, 12), Text: "ping ok"},
	}}
	return f
}
