package app

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/pullcept/pullcept/app/localmcp"
	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/tui"
)

// Pullcept's own local MCP servers (docs/design.md §6 "Local MCP servers";
// spec «ローカル MCP サーバ», «webhook の通知（#169）»): mcp-servers.json in
// the data dir says what runs (config.MCPServers), an mcp account per
// entry says who speaks (config.AddMCPAccounts at Load), the supervisor
// (app/localmcp) runs them as an MCP client and turns their channel pushes
// into notices, posted here into every room that has an AI seat at that
// moment.

// openMCPServers writes the default webhook-bridge entry when the file is
// missing and the bridge is really found, and starts every entry.
func (a *App) openMCPServers() {
	a.mcpFile = config.NewMCPServers(a.dataDir)
	if wrote, err := a.mcpFile.WriteDefault(findWebhookBridge); err != nil {
		a.logger.Warn("mcp-servers.json: default entry", "err", err)
	} else if wrote {
		a.logger.Info("mcp-servers.json written with the github-webhook-mcp bridge found on PATH")
	}
	a.mcp = localmcp.NewSupervisor(localmcp.Options{OnNotice: a.mcpNotice, OnFolded: a.mcpFolded,
		Logger: a.logger.With("part", "mcp"), SignatureWait: a.opts.signatureWait, NoticeEvery: a.opts.noticeEvery})
	list, err := a.mcpFile.List()
	if err != nil {
		a.notices = append(a.notices, fmt.Sprintf("%s: %v", config.MCPServersFileName, err))
		return
	}
	for _, s := range list {
		if s.Err != nil {
			a.notices = append(a.notices, fmt.Sprintf("%s: %s: %v", config.MCPServersFileName, s.Name, s.Err))
			continue
		}
		if err := a.mcp.Start(s.Name, mcpSpec(s)); err != nil {
			a.logger.Warn("mcp server not started", "server", s.Name, "err", err)
		}
	}
}

// findWebhookBridge finds the github-webhook-mcp bridge installed on PATH
// (npm's bin link, resolved to its script): the default entry is written
// only for a bridge that is really there, never an invented path.
func findWebhookBridge() (string, bool) {
	p, err := exec.LookPath(config.WebhookServerName)
	if err != nil {
		return "", false
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() || !strings.HasSuffix(p, ".js") && !strings.HasSuffix(p, ".mjs") {
		return "", false
	}
	return p, true
}

// mcpSpec is how the supervisor starts entry s.
func mcpSpec(s config.MCPServer) localmcp.Spec {
	env := make([]string, 0, len(s.Env))
	for _, v := range s.Env {
		env = append(env, v.Name+"="+v.Value)
	}
	return localmcp.Spec{Command: s.Command, Args: s.Args, Env: env}
}

// mcpAccount is the mcp account that speaks for server (its Server, or the
// id the migration gives it).
func (a *App) mcpAccount(server string) (config.Account, bool) {
	for _, acc := range a.accounts.All() {
		if acc.Kind == config.KindMCP && acc.Server == server {
			return acc, true
		}
	}
	acc, ok := a.accounts.Account(config.MCPAccountIDPrefix + server)
	return acc, ok && acc.Kind == config.KindMCP
}

// mcpNotice posts one notice of server into every room that has an AI seat
// now (spec: none, and the event stays unprocessed on the server's side;
// Pullcept never marks it).
func (a *App) mcpNotice(server string, note localmcp.Notice) {
	acc, ok := a.mcpAccount(server)
	if !ok {
		a.mcp.Note(server, "notice dropped: no mcp account speaks for this server")
		return
	}
	rooms := a.hub.RoomsWithSeats()
	if len(rooms) == 0 {
		a.mcp.Note(server, "notice not posted: no room has an AI seat (the event stays unprocessed)")
		return
	}
	for _, topic := range rooms {
		n := room.MCPNote{AccountID: acc.ID, Speaker: acc.DisplayName(), Hue: acc.Hue, Content: note.Text, Signer: note.Signer}
		if _, err := a.hub.MCPNotice(topic, n); err != nil {
			a.mcp.Note(server, fmt.Sprintf("notice not posted in %s: %v", topic, err))
		}
	}
}

// mcpFolded posts, as Pullcept's own notice, that server pushed n notices
// over its rate (docs/design.md §6 "Local MCP servers": the brake), into
// every room that has an AI seat now: "Lin's server: 14,993 more notices,
// folded". The name is the account's, never text from the server.
func (a *App) mcpFolded(server string, n uint64) {
	name := server
	if acc, ok := a.mcpAccount(server); ok {
		name = acc.DisplayName()
	}
	text := localmcp.FoldedText(string(a.uiLang()), name, n)
	for _, topic := range a.hub.RoomsWithSeats() {
		if _, err := a.hub.AppNotice(topic, text); err != nil {
			a.mcp.Note(server, fmt.Sprintf("fold notice not posted in %s: %v", topic, err))
		}
	}
}

// closeMCPServers ends every server (stdin closed, then the tree).
func (a *App) closeMCPServers() {
	if a.mcp != nil {
		a.mcp.Close()
	}
}

// --- the tui's MCPServers ---

var _ tui.MCPServers = (*Backend)(nil)

// errNoServer: the account speaks for no entry of mcp-servers.json.
var errNoServer = errors.New("this account has no entry in mcp-servers.json")

// serverOf is the entry name of mcp account id.
func (b *Backend) serverOf(id string) (string, error) {
	acc, ok := b.a.accounts.Account(id)
	if !ok || acc.Kind != config.KindMCP {
		return "", fmt.Errorf("%s: not an mcp account", id)
	}
	if acc.Server != "" {
		return acc.Server, nil
	}
	return strings.TrimPrefix(acc.ID, config.MCPAccountIDPrefix), nil
}

// MCPServer is the account's entry and its server's state.
func (b *Backend) MCPServer(id string) (tui.MCPServerInfo, error) {
	name, err := b.serverOf(id)
	if err != nil {
		return tui.MCPServerInfo{}, err
	}
	info := tui.MCPServerInfo{Entry: name, File: b.a.mcpFile.Path()}
	list, err := b.a.mcpFile.List()
	if err != nil {
		return info, err
	}
	for _, s := range list {
		if s.Name != name {
			continue
		}
		info.Registered = true
		info.Command = s.Command
		info.Args, _ = config.MCPArgsText(s.Args)
		info.Env, _ = config.MCPEnvText(s.Env)
		if s.Err != nil {
			info.Warnings = append(info.Warnings, s.Err.Error())
		}
		st := b.a.mcp.State(name)
		info.Stale = st.Phase != localmcp.NotStarted && !sameSpec(st.Spec, mcpSpec(s))
	}
	st := b.a.mcp.State(name)
	info.State, info.ExitCode, info.Reason = mcpPhase(st.Phase), st.Code, st.Reason
	return info, nil
}

func sameSpec(a, b localmcp.Spec) bool {
	return a.Command == b.Command && strings.Join(a.Args, "\x00") == strings.Join(b.Args, "\x00") &&
		strings.Join(a.Env, "\x00") == strings.Join(b.Env, "\x00")
}

func mcpPhase(p localmcp.Phase) tui.MCPServerState {
	switch p {
	case localmcp.Starting:
		return tui.MCPStarting
	case localmcp.Running:
		return tui.MCPRunning
	case localmcp.Exited:
		return tui.MCPExited
	case localmcp.Failed:
		return tui.MCPFailed
	case localmcp.Stopped:
		return tui.MCPStopped
	}
	return tui.MCPNotStarted
}

// MCPServerLog is the server's last lines with their times.
func (b *Backend) MCPServerLog(id string) []tui.LogLine {
	name, err := b.serverOf(id)
	if err != nil {
		return nil
	}
	lines := b.a.mcp.Log(name)
	out := make([]tui.LogLine, len(lines))
	for i, l := range lines {
		out[i] = tui.LogLine{At: l.At, Text: l.Text}
	}
	return out
}

// parseServerFields reads the editor's three fields; refusals name the
// field and line (tui.MCPServerRefused).
func parseServerFields(command, args, env string) (string, []string, []config.MCPEnv, error) {
	vars, problems := config.CheckMCPEnvField(env)
	var refused tui.MCPServerRefused
	if strings.TrimSpace(command) == "" {
		refused.Problems = append(refused.Problems, tui.FieldProblem{Field: tui.FieldServerCommand, Line: 1, Text: "a command is required"})
	}
	for _, p := range problems {
		refused.Problems = append(refused.Problems, tui.FieldProblem{Field: tui.FieldServerEnv, Line: p.Line, Text: p.Err.Error()})
	}
	if len(refused.Problems) > 0 {
		return "", nil, nil, &refused
	}
	return strings.TrimSpace(command), config.ParseMCPArgs(args), vars, nil
}

// SaveMCPServer writes the entry's command, args and env (the file's other
// keys and entries kept); a running server keeps running until restarted.
func (b *Backend) SaveMCPServer(id, command, args, env string) error {
	name, err := b.serverOf(id)
	if err != nil {
		return err
	}
	cmd, argv, vars, err := parseServerFields(command, args, env)
	if err != nil {
		return err
	}
	return b.a.mcpFile.SetServer(name, cmd, argv, vars)
}

// RestartMCPServer ends the server's run and starts it again from the file
// (a server whose entry is gone is only stopped).
func (b *Backend) RestartMCPServer(id string) error {
	name, err := b.serverOf(id)
	if err != nil {
		return err
	}
	list, err := b.a.mcpFile.List()
	if err != nil {
		return err
	}
	for _, s := range list {
		if s.Name == name {
			if s.Err != nil {
				return s.Err
			}
			return b.a.mcp.Restart(name, mcpSpec(s))
		}
	}
	b.a.mcp.Stop(name)
	return errNoServer
}

// CreateMCPAccount writes the new entry first, then the account (so the
// server's first notice speaks with the chosen name and colour), then
// starts the server.
func (b *Backend) CreateMCPAccount(in tui.AccountInfo, command, args, env string) (tui.AccountInfo, error) {
	cmd, argv, vars, err := parseServerFields(command, args, env)
	if err != nil {
		return in, err
	}
	list, err := b.a.mcpFile.List()
	if err != nil {
		return in, err
	}
	names := make([]string, len(list))
	for i, s := range list {
		names[i] = s.Name
	}
	name := config.NewMCPServerName(in.Name, names, b.a.accounts.All())
	e := toEdit(in)
	e.Kind, e.Server = string(config.KindMCP), name
	if e.ID == "" {
		e.ID = config.MCPAccountIDPrefix + name
	}
	// The account is checked before the entry is written: a refused account
	// must leave no entry, whose command would run at the next start.
	if _, err := b.a.accounts.Draft(e); err != nil {
		return in, err
	}
	if err := b.a.mcpFile.SetServer(name, cmd, argv, vars); err != nil {
		return in, err
	}
	acc, err := b.a.accounts.Save(e)
	if err != nil {
		if rerr := b.a.mcpFile.RemoveServer(name); rerr != nil {
			b.a.logger.Warn("mcp-servers.json: entry of a refused account left", "server", name, "err", rerr)
		}
		return in, err
	}
	if err := b.a.mcp.Start(name, localmcp.Spec{Command: cmd, Args: argv, Env: mcpSpec(config.MCPServer{Env: vars}).Env}); err != nil {
		b.a.logger.Warn("mcp server not started", "server", name, "err", err)
	}
	return toInfo(acc), nil
}

// deleteMCPServer removes account id's entry from the file, stops its
// server and drops its state, before the account goes (an entry left in
// the file would make the account again at the next start).
func (b *Backend) deleteMCPServer(id string) error {
	name, err := b.serverOf(id)
	if err != nil {
		return err
	}
	if err := b.a.mcpFile.RemoveServer(name); err != nil {
		return err
	}
	b.a.mcp.Remove(name)
	return nil
}

// watchMCP forwards the supervisor's changes to this UI as
// tui.MCPServerChanged, one per mcp account (a handful). Owner: the
// Backend; ends at Backend.Close.
func (b *Backend) watchMCP() {
	defer b.mcpWait.Done()
	defer func() {
		if r := recover(); r != nil {
			b.a.logger.Error("mcp change forwarder panic", "panic", r)
		}
	}()
	var seen uint64
	for {
		gen, ok := b.a.mcp.WaitChange(b.done, seen)
		if !ok {
			return
		}
		seen = gen
		for _, acc := range b.a.accounts.All() {
			if acc.Kind == config.KindMCP {
				b.notes.Publish(tui.MCPServerChanged{AccountID: acc.ID})
			}
		}
	}
}

// uiLang is the language Pullcept's own notices are worded in (a fold
// notice, the brake's, a session operation's): the human's, as it is in
// effect — the start's (configLang), then each switch in the settings
// (switchLanguage).
func (a *App) uiLang() tui.Lang {
	if w := a.brakeWords.Load(); w != nil {
		return w.lang
	}
	return a.configLang()
}

// configLang is the language the UI starts in: PULLCEPT_LANGUAGE, else
// config.json's, else the locale's.
func (a *App) configLang() tui.Lang {
	lang := tui.DetectLang(os.Getenv)
	if ui, err := a.accounts.UI(); err == nil && ui.Language != "" {
		if l, err := tui.ParseLang(ui.Language); err == nil {
			lang = l
		}
	}
	return lang
}
