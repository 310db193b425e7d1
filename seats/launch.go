package seats

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats/pty"
)

// LaunchInput is everything one launch line depends on (docs/design.md §9). The
// same input builds the editor's preview and the spawned line, so the two
// cannot differ.
type LaunchInput struct {
	// Account is the account to seat.
	Account config.Account
	// TopicID is the room (topic) the seat joins.
	TopicID string
	// SessionID is the recorded session id to resume; used only with Resume.
	SessionID string
	// Resume asks for the kind's resume line (decide with DecideResume).
	Resume bool
	// PullceptPath is the absolute path of our own executable (the sidecar
	// and the status-line command run it from any directory).
	PullceptPath string
	// RoomURL is the room's loopback WebSocket URL (ws://127.0.0.1:<port>…);
	// needed by Codex seats, whose room server travels on the command line.
	RoomURL string
	// HooksURL is the room listener's loopback HTTP base
	// (http://127.0.0.1:<port>); needed by Claude seats (status line, hooks).
	HooksURL string
	// UnseenHistory marks a seat that joins a topic with posts it has not
	// seen (UnseenHistory); Codex seats carry it on the line, others in
	// .mcp.json (Register).
	UnseenHistory bool
	// MCPJSON is what the seat directory's .mcp.json holds (InspectMCPJSON
	// or Register); its Others become Claude's disabledMcpjsonServers. Nil
	// means no other entries.
	MCPJSON *MCPJSONState
	// AttachmentsDir is the topic's attachments folder: a Claude seat may
	// read it without asking (permissions.additionalDirectories), so an
	// attachment's path is enough in default permission mode too. Empty:
	// none.
	AttachmentsDir string
	// CommandPath is the command resolved on PATH, when the caller has it;
	// on Windows the cmd.exe check reads it (a PATH entry may hold what
	// cmd.exe reacts to). Empty means judge Account.Command.
	CommandPath string
	// Env is the account's env opened for this launch (NAME=value, from
	// config.OpenEnv; the Manager opens it before it claims the seat). nil
	// in a preview: a preview never carries a value.
	Env []string
	// GOOS is the target OS ("" = runtime.GOOS); tests set it.
	GOOS string
	// NewID makes a fresh session id ("" result is an error); nil means a
	// random UUID v4. The editor's preview may return a marker instead.
	NewID func() (string, error)
}

// Launch is one seat's process as BuildLaunch decided it.
type Launch struct {
	// Argv is the command and its arguments; Argv[0] is the command as
	// written (the spawner resolves it on PATH).
	Argv []string
	// Env is the extra process environment, NAME=value: the account's
	// variables, then PULLCEPT_LAUNCHED_AS and PULLCEPT_ROOM_ID, and for a
	// Codex seat with a character LI_PLUS_OUTPUT_STYLE (#281). The caller
	// adds PULLCEPT_ROOM_TOKEN at spawn; it is never here.
	Env []string
	// Unset names variables the seat must not inherit from Pullcept's
	// environment (a Codex seat's LI_PLUS_OUTPUT_STYLE: without a character
	// the project's default applies, never an inherited override).
	Unset []string
	// Dir is the working directory.
	Dir string
	// SessionID is the id this launch uses: a fresh Claude seat's new id, a
	// generic CLI's substituted {session_id}, or the resumed id. "" when the
	// line hands out none (a fresh Codex seat: read it later from the
	// rollout, NewestCodexRolloutSince).
	SessionID string
	// Resumed is true when Argv is the kind's resume line.
	Resumed bool
	// MCPKey is the seat's .mcp.json / Codex server key.
	MCPKey string
	// MCPCreated: the launch created <Dir>/.mcp.json (Unregister removes
	// it again when nothing else is left in it).
	MCPCreated bool
	// Preview is Argv as one shell-quoted line for display; it never holds
	// an env value or the token (they are not in Argv).
	Preview string
	// Warnings say what the line leaves out or changed and why (a stripped
	// --session-id, dropped options, a status line not added).
	Warnings []string
	// Server is an app-server Codex seat's server half (nil for every other
	// seat): Argv is then the TUI line, with CodexPortWord and, for a
	// fresh seat, CodexThreadWord where the start puts the port and the
	// conversation id (launch_codexserver.go).
	Server *CodexServerPlan
}

// Claude Code flags the launch reads or adds.
const (
	flagSettings               = "--settings"
	flagResume                 = "--resume"
	flagContinue               = "--continue"
	flagAppendSystemPrompt     = "--append-system-prompt"
	flagAppendSystemPromptFile = "--append-system-prompt-file"
)

// Codex CLI words the launch reads or adds.
const (
	codexResume      = "resume"
	codexConfig      = "-c"
	codexConfigLong  = "--config"
	codexNoAltScreen = "--no-alt-screen"
	codexAltKey      = "tui.alternate_screen"
)

// Hook shape («Claude Code の席は自分の様子を hook で知らせる»).
const (
	// hookTimeout bounds how long Claude waits on our reply to a hook in
	// seconds: it waits before every tool, and the loopback room answers at
	// once.
	hookTimeout = 5
	// permissionHookTimeout is longer because the room may hold a
	// permission request up to 180 s for the human's answer (#336).
	permissionHookTimeout = 190
)

// HookEvents are the Claude Code events posted to /hooks/activity
// (docs/design.md §11); the room refuses any other (room.HookEvents).
var HookEvents = room.HookEvents

// RoomPrompt is the sentence a fresh Claude seat gets with
// --append-system-prompt (docs/design.md §9, «席は部屋の道具の名を起動時に受け取る»):
// the full name of its say_to_room tool (usable before the tool list
// arrives), that terminal output reaches nobody, and where the room's
// etiquette lives. Plain ASCII without punctuation cmd.exe or a shell could
// read, so it rides any command line unchanged.
func RoomPrompt(key string) string {
	return "You are a seat in a Pullcept chat room. Speak to the room only by calling the tool " +
		ToolName(key, room.ToolSayToRoom) + " - call it by that name even before your tool list shows it. " +
		"Your terminal output reaches nobody. The room etiquette is in the instructions of the MCP server " +
		key + " - follow them once they arrive."
}

// BuildLaunch builds the one line a seat runs (docs/design.md §9; the editor
// previews the same Launch):
//
//   - Claude Code fresh: <command> <options> --session-id <new id>
//     --settings '<json>' --append-system-prompt '<RoomPrompt>'; resume:
//     <command> --resume <id> <options> --settings '<json>' (the system
//     prompt is recorded once per conversation, so resume adds none).
//     Settings: enabledMcpjsonServers [own key], disabledMcpjsonServers
//     [MCPJSON.Others], outputStyle (the character), statusLine and http
//     hooks to HooksURL. --session-id in the options is stripped (warning);
//     no --append-system-prompt when the options have it or -file.
//   - Codex CLI: <command> [resume <id>] <options> -c 'mcp_servers.<key>={…}'
//     --no-alt-screen (unless the account chose the alternate screen or the
//     options decide it); the character, if any, in the environment as
//     LI_PLUS_OUTPUT_STYLE (#281 hook mode), an inherited one removed.
//   - generic CLI: <command> <options> as written; resume: the account's
//     resume line.
//
// {session_id} is substituted once, after the line is built: a fresh id
// (recorded as Launch.SessionID) or the resumed one. On Windows, when the
// line goes through cmd.exe (ViaCmdExe), options holding a character
// cmd.exe reacts to are dropped as a whole (warning), and everything Pullcept
// writes into JSON or TOML is escaped so cmd.exe sees none of them.
//
// Refusals wrap: ErrKindNotLaunched, ErrNoWorkDir, ErrNoCommand, ErrNoTopic,
// ErrOwnSettings, ErrOptionsConflict, ErrNotConsoleSafe, ErrNoSessionID,
// ErrNoResumeLine, ErrPlaceholder, ErrRoomAddress, ErrNoPullceptPath,
// ErrCharacterName and ErrEnvAppOwned (a Codex character, #281),
// config.ErrEnvReserved, config.ErrEnvSyntax, config.ErrUnterminatedQuote,
// config.ErrBadScreenMode. BuildLaunch reads and writes no file.
func BuildLaunch(in LaunchInput) (Launch, error) {
	a := in.Account
	switch {
	case !a.Kind.Launches():
		return Launch{}, fmt.Errorf("%w: %q is %s", ErrKindNotLaunched, a.DisplayName(), a.Kind)
	case strings.TrimSpace(a.WorkDir) == "":
		return Launch{}, fmt.Errorf("%w: set one for %q", ErrNoWorkDir, a.DisplayName())
	case !filepath.IsAbs(a.WorkDir):
		return Launch{}, fmt.Errorf("%w: %q is not an absolute path", ErrNoWorkDir, a.WorkDir)
	case strings.TrimSpace(a.Command) == "":
		return Launch{}, fmt.Errorf("%w: set one for %q", ErrNoCommand, a.DisplayName())
	case in.TopicID == "":
		return Launch{}, ErrNoTopic
	case in.Resume && in.SessionID == "":
		return Launch{}, ErrNoSessionID
	}
	b := &lineBuilder{in: in, goos: in.GOOS, key: MCPKey(a.ID, in.TopicID)}
	if b.goos == "" {
		b.goos = runtime.GOOS
	}
	cmd := in.CommandPath
	if cmd == "" {
		cmd = a.Command
	}
	b.viaCmd = ViaCmdExe(b.goos)
	if b.viaCmd && !commandSafe(cmd) {
		return Launch{}, fmt.Errorf("%w: command %q holds one of %s (cmd.exe would run only part of the line)", pty.ErrNotConsoleSafe, cmd, pty.CmdReactive)
	}
	env, unset, err := launchEnv(a, in.Env, in.TopicID)
	if err != nil {
		return Launch{}, err
	}
	opts, err := config.SplitWords(a.LaunchOptions)
	if err != nil {
		return Launch{}, fmt.Errorf("launch options: %w", err)
	}
	if b.viaCmd && !allConsoleSafe(opts) {
		b.warn("launch options left out: on Windows this line goes through cmd.exe, which cuts a line at %s; the seat starts without them", pty.CmdReactive)
		opts = nil
	}
	var argv []string
	switch a.Kind {
	case config.KindClaudeCode:
		argv, err = b.claude(opts)
	case config.KindCodexCLI:
		if CodexAppServer(a) {
			argv, b.server, err = b.codexAppServer(opts)
		} else {
			argv, err = b.codex(opts)
		}
	default:
		argv, err = b.generic(opts)
	}
	if err != nil {
		return Launch{}, err
	}
	l := Launch{Argv: argv, Env: env, Unset: unset, Dir: a.WorkDir, Resumed: in.Resume, MCPKey: b.key, Warnings: b.warnings, Server: b.server}
	if b.server != nil && hasPlaceholder(b.server.Argv) {
		return Launch{}, fmt.Errorf("%w: %s has no place on a Codex app-server line; remove it from the launch options", ErrPlaceholder, config.SessionIDPlaceholder)
	}
	if err := l.fillSessionID(in); err != nil {
		return Launch{}, err
	}
	l.Preview = config.JoinWords(l.Argv)
	if b.server != nil {
		l.Preview = "app-server: " + config.JoinWords(b.server.Argv) + "\nterminal: " + l.Preview
		if c := b.server.Thread.describe(); c != "" {
			// Settings that go to the conversation are on neither line.
			l.Preview += "\nconversation: " + c
		}
	}
	return l, nil
}

// fillSessionID sets the session id the line uses and substitutes
// {session_id} once, after the line is built (BuildLaunch): the resumed id
// (only when it is a plain id: a recorded id comes from a file a seat can
// write), or a fresh one; Codex makes its own and refuses the placeholder.
func (l *Launch) fillSessionID(in LaunchInput) error {
	if in.Resume {
		if !lineSafeWord(in.SessionID) {
			return fmt.Errorf("%w: the recorded session id %q is not a plain id", ErrNoSessionID, in.SessionID)
		}
		l.SessionID = in.SessionID
	}
	if !hasPlaceholder(l.Argv) {
		return nil
	}
	switch {
	case in.Resume:
	case in.Account.Kind == config.KindCodexCLI:
		return fmt.Errorf("%w: Codex makes its own session id; remove %s from the launch options", ErrPlaceholder, config.SessionIDPlaceholder)
	default:
		id, err := newID(in.NewID)
		if err != nil {
			return err
		}
		l.SessionID = id
	}
	for i, w := range l.Argv {
		l.Argv[i] = strings.ReplaceAll(w, config.SessionIDPlaceholder, l.SessionID)
	}
	return nil
}

// ReadsMCPJSON reports whether seats of kind k find the room in their
// working directory's .mcp.json: Claude Code and generic CLIs do; Codex gets
// its room server on the command line only (spec #297) and writes no file.
func ReadsMCPJSON(k config.Kind) bool {
	return k == config.KindClaudeCode || k == config.KindCLI
}

// PrepareLaunch is BuildLaunch with the seat directory's .mcp.json handled in
// the order docs/design.md §9 needs, for kinds that read it (ReadsMCPJSON):
// it reads the file (in.MCPJSON is replaced by what it holds), builds the
// line (a refusal writes nothing, so no entry of a refused seat is left
// behind), then registers the seat's entry with in.RoomURL and
// in.UnseenHistory. When .claude/settings.local.json disables the seat's key
// (a past "continue without" answer), a warning says so; the file is never
// edited. Errors are BuildLaunch's, InspectMCPJSON's and Register's.
func PrepareLaunch(in LaunchInput) (Launch, error) {
	a := in.Account
	if !ReadsMCPJSON(a.Kind) || strings.TrimSpace(a.WorkDir) == "" || !filepath.IsAbs(a.WorkDir) {
		return BuildLaunch(in)
	}
	key := MCPKey(a.ID, in.TopicID)
	if err := checkLoopback(in.RoomURL, "ws"); err != nil {
		return Launch{}, err
	}
	st, err := InspectMCPJSON(a.WorkDir, key, in.RoomURL)
	if err != nil {
		return Launch{}, err
	}
	in.MCPJSON = &st
	l, err := BuildLaunch(in)
	if err != nil {
		return Launch{}, err
	}
	reg, err := Register(a.WorkDir, EntryFor(a, in.TopicID, in.PullceptPath, in.UnseenHistory), in.RoomURL)
	if err != nil {
		return Launch{}, err
	}
	l.MCPCreated = reg.Created
	off, err := CheckDisabled(a.WorkDir, key)
	if err != nil {
		l.Warnings = append(l.Warnings, fmt.Sprintf("could not check .claude/settings.local.json: %v", err))
	} else if off {
		l.Warnings = append(l.Warnings, fmt.Sprintf("the seat cannot reach the room because .claude/settings.local.json disables %s (a past 'continue without' answer); remove it there", key))
	}
	return l, nil
}

// lineBuilder holds one BuildLaunch's derived facts.
type lineBuilder struct {
	in       LaunchInput
	goos     string
	viaCmd   bool
	key      string
	warnings []string
	server   *CodexServerPlan // an app-server Codex seat's server half
}

func (b *lineBuilder) warn(format string, args ...any) {
	b.warnings = append(b.warnings, fmt.Sprintf(format, args...))
}

// claude builds a Claude Code line (docs/design.md §9).
func (b *lineBuilder) claude(opts []string) ([]string, error) {
	a, in := b.in.Account, b.in
	for _, w := range opts {
		if w == "-r" || w == "-c" || config.HasFlag([]string{w}, flagResume) || config.HasFlag([]string{w}, flagContinue) {
			return nil, fmt.Errorf("%w: %q in the launch options; the claude_code kind resumes by itself (remove it)", ErrOptionsConflict, w)
		}
	}
	opts, removed := config.RemoveFlag(opts, config.SessionIDFlag)
	if removed != nil {
		b.warn("%s removed from the launch options: the claude_code kind gives the session id itself", strings.Join(removed, ", "))
	}
	var others []string
	if in.MCPJSON != nil {
		others = in.MCPJSON.Others
	}
	character := strings.TrimSpace(a.Character)
	var settings []string
	if config.HasFlag(opts, flagSettings) {
		var why []string
		if character != "" {
			why = append(why, fmt.Sprintf("the character %q (outputStyle)", character))
		}
		if len(others) > 0 {
			why = append(why, fmt.Sprintf("disabling the other room entries in .mcp.json (%s)", strings.Join(others, ", ")))
		}
		if len(why) > 0 {
			return nil, fmt.Errorf("%w while the launch must add settings for %s; two --settings on one line are not merged, so remove yours or move it into the account", ErrOwnSettings, strings.Join(why, " and "))
		}
		b.warn("launch options carry their own --settings: Pullcept adds none, so this seat must approve %s itself and gets no status line or activity hooks", b.key)
	} else {
		js, err := b.claudeSettings(others, character)
		if err != nil {
			return nil, err
		}
		settings = []string{flagSettings, js}
	}
	argv := []string{a.Command}
	if in.Resume {
		argv = append(argv, flagResume, config.SessionIDPlaceholder)
	}
	argv = append(argv, opts...)
	if !in.Resume {
		argv = append(argv, config.SessionIDFlag, config.SessionIDPlaceholder)
	}
	argv = append(argv, settings...)
	if !in.Resume && !config.HasFlag(opts, flagAppendSystemPrompt) && !config.HasFlag(opts, flagAppendSystemPromptFile) {
		argv = append(argv, flagAppendSystemPrompt, RoomPrompt(b.key))
	}
	return argv, nil
}

// RoomToolNames are the full Claude Code tool names of the room tools under
// the .mcp.json key (mcp__<key>__<tool>).
func RoomToolNames(key string) []string {
	names := make([]string, len(room.RoomTools))
	for i, t := range room.RoomTools {
		names[i] = ToolName(key, t)
	}
	return names
}

// claudeSettings is the inline --settings JSON (docs/design.md §9, §11).
func (b *lineBuilder) claudeSettings(others []string, character string) (string, error) {
	type statusLine struct {
		Type    string `json:"type"`
		Command string `json:"command"`
	}
	type httpHook struct {
		Type           string            `json:"type"`
		URL            string            `json:"url"`
		Timeout        int               `json:"timeout"`
		Headers        map[string]string `json:"headers"`
		AllowedEnvVars []string          `json:"allowedEnvVars"`
	}
	type hookGroup struct {
		Hooks []httpHook `json:"hooks"`
	}
	type permissions struct {
		Allow []string `json:"allow"`
		Dirs  []string `json:"additionalDirectories,omitempty"`
	}
	settings := struct {
		Enabled     []string               `json:"enabledMcpjsonServers"`
		Disabled    []string               `json:"disabledMcpjsonServers,omitempty"`
		Permissions permissions            `json:"permissions"`
		OutputStyle string                 `json:"outputStyle,omitempty"`
		StatusLine  *statusLine            `json:"statusLine,omitempty"`
		Hooks       map[string][]hookGroup `json:"hooks,omitempty"`
	}{Enabled: []string{b.key}, Disabled: others, OutputStyle: character,
		// The room's own tools never ask the human: a seat in default
		// permission mode would otherwise stop on every say_to_room
		// (docs/clis.md); Codex approves them with
		// default_tools_approval_mode="approve" the same way.
		Permissions: permissions{Allow: RoomToolNames(b.key)}}
	if d := b.in.AttachmentsDir; d != "" && filepath.IsAbs(d) {
		settings.Permissions.Dirs = []string{d}
	}

	base, err := b.statusAndHooksBase()
	if err != nil {
		return "", err
	}
	if base != "" {
		settings.StatusLine = &statusLine{Type: "command", Command: b.statusCommand(base)}
		settings.Hooks = map[string][]hookGroup{}
		for _, ev := range HookEvents {
			timeout := hookTimeout
			if ev == "PermissionRequest" {
				timeout = permissionHookTimeout
			}
			settings.Hooks[ev] = []hookGroup{{Hooks: []httpHook{{
				Type:           "http",
				URL:            room.HookActivityURL(base, ev, b.in.TopicID, b.in.Account.ID),
				Timeout:        timeout,
				Headers:        map[string]string{"Authorization": "Bearer $" + room.EnvRoomToken},
				AllowedEnvVars: []string{room.EnvRoomToken},
			}}}}
		}
	}
	return b.encodeJSON(settings)
}

// statusAndHooksBase checks what the status line and hooks need and returns
// the hooks base URL, or "" (with a warning) when they cannot ride this line.
func (b *lineBuilder) statusAndHooksBase() (string, error) {
	in := b.in
	if in.HooksURL == "" {
		return "", fmt.Errorf("%w: no hooks URL for the status line and hooks", ErrRoomAddress)
	}
	if err := checkLoopback(in.HooksURL, "http"); err != nil {
		return "", err
	}
	if !filepath.IsAbs(in.PullceptPath) {
		return "", fmt.Errorf("%w: %q", ErrNoPullceptPath, in.PullceptPath)
	}
	base := strings.TrimRight(in.HooksURL, "/")
	if b.goos == "windows" {
		// Git Bash runs the status-line command and reads an unquoted \ as an
		// escape; words outside the safe set cannot ride unquoted either.
		p := filepath.ToSlash(in.PullceptPath)
		if !lineSafeWord(p) || !lineSafeWord(base) {
			b.warn("no status line or activity hooks: %q or %q holds characters other than ASCII letters, digits and / : . _ - that the Windows status-line shell cannot take unquoted", p, base)
			return "", nil
		}
	}
	return base, nil
}

// statusCommand is the statusLine command: <pullcept> status-line <url>.
func (b *lineBuilder) statusCommand(base string) string {
	path := b.in.PullceptPath
	if b.goos == "windows" {
		path = filepath.ToSlash(path)
	} else {
		path = config.QuoteWord(path)
	}
	return path + " " + room.StatusLineCommand + " " + room.HookStatusURL(base, b.in.TopicID, b.in.Account.ID)
}

// codex builds a Codex CLI line (docs/design.md §9, docs/clis.md).
func (b *lineBuilder) codex(opts []string) ([]string, error) {
	a, in := b.in.Account, b.in
	if err := checkLoopback(in.RoomURL, "ws"); err != nil {
		return nil, err
	}
	if !filepath.IsAbs(in.PullceptPath) {
		return nil, fmt.Errorf("%w: %q", ErrNoPullceptPath, in.PullceptPath)
	}
	var addFlag bool
	switch a.ScreenMode {
	case config.ScreenInline:
		addFlag = !codexDecidesScreen(opts)
	case config.ScreenAlt:
	default:
		return nil, fmt.Errorf("%w %q", config.ErrBadScreenMode, a.ScreenMode)
	}
	argv := []string{a.Command}
	if in.Resume {
		argv = append(argv, codexResume, config.SessionIDPlaceholder)
	}
	argv = append(argv, opts...)
	argv = append(argv, codexConfig, "mcp_servers."+b.key+"="+b.codexServer())
	argv = append(argv, codexNoNudge(opts)...) // the TUI shows the menu
	if addFlag {
		argv = append(argv, codexNoAltScreen)
	}
	return argv, nil
}

// codexNudgeKey is Codex's "Approaching rate limits / Switch to … for lower
// credit usage?" menu: shown near a window's end for a ChatGPT login, it
// takes the Enter of a post typed into the seat and switches the model,
// losing the post (docs/clis.md G8). Pullcept turns it off unless the
// options say otherwise.
const codexNudgeKey = "notice.hide_rate_limit_model_nudge"

// codexNoNudge is the -c that hides the menu, none when opts set the key.
func codexNoNudge(opts []string) []string {
	for _, w := range opts {
		if strings.Contains(w, codexNudgeKey) {
			return nil
		}
	}
	return []string{codexConfig, codexNudgeKey + "=true"}
}

// codexServer is the room server as one TOML inline table (docs/clis.md):
// our sidecar, the non-secret variables by value, the process-only ones by
// name, enabled, tools approved without a prompt.
func (b *lineBuilder) codexServer() string {
	a, in := b.in.Account, b.in
	var t strings.Builder
	t.WriteString("{command=")
	t.WriteString(b.tomlString(in.PullceptPath))
	t.WriteString(", args=[")
	for i, arg := range sidecarArgs {
		if i > 0 {
			t.WriteString(", ")
		}
		t.WriteString(b.tomlString(arg))
	}
	t.WriteString("], env={")
	for i, v := range sidecarVars(in.RoomURL, a.DisplayName(), a.ID, in.TopicID, a.Hue, in.UnseenHistory) {
		if i > 0 {
			t.WriteString(", ")
		}
		t.WriteString(v.Name + "=" + b.tomlString(v.Value))
	}
	t.WriteString("}, env_vars=[")
	t.WriteString(b.tomlString(room.EnvRoomToken) + ", " + b.tomlString(room.EnvLaunchedAs))
	t.WriteString(`], enabled=true, default_tools_approval_mode="approve"}`)
	return t.String()
}

// codexDecidesScreen reports options that already choose the screen:
// --no-alt-screen, or a -c/--config of tui.alternate_screen.
func codexDecidesScreen(opts []string) bool {
	for i, w := range opts {
		switch {
		case w == codexNoAltScreen:
			return true
		case (w == codexConfig || w == codexConfigLong) && i+1 < len(opts):
			if strings.HasPrefix(strings.TrimSpace(opts[i+1]), codexAltKey) {
				return true
			}
		case strings.HasPrefix(w, codexConfigLong+"="+codexAltKey), strings.HasPrefix(w, codexConfig+codexAltKey):
			return true
		}
	}
	return false
}

// generic builds a generic CLI line: the person's own.
func (b *lineBuilder) generic(opts []string) ([]string, error) {
	a, in := b.in.Account, b.in
	if !in.Resume {
		return append([]string{a.Command}, opts...), nil
	}
	words, err := config.SplitWords(a.ResumeLine)
	if err != nil {
		return nil, fmt.Errorf("resume line: %w", err)
	}
	if len(words) == 0 {
		return nil, fmt.Errorf("%w: write one with %s for %q, or start it fresh", ErrNoResumeLine, config.SessionIDPlaceholder, a.DisplayName())
	}
	if b.viaCmd && !allConsoleSafe(words) {
		return nil, fmt.Errorf("%w: the resume line holds one of %s (dropping part of it would start a fresh session instead)", pty.ErrNotConsoleSafe, pty.CmdReactive)
	}
	if !hasPlaceholder(words) {
		b.warn("the resume line has no %s: the recorded session id is not passed", config.SessionIDPlaceholder)
	}
	return words, nil
}

// ViaCmdExe reports whether a launch on goos runs through cmd.exe: every
// Windows launch does (`cmd.exe /S /C "<line>"`, spec «起動とアカウント»: an
// npm launcher is a .cmd script, and one rule for every command keeps the
// line checks the same for all). Other OSes never use cmd.exe.
func ViaCmdExe(goos string) bool { return goos == "windows" }

// ResolveCommand is the file a bare command name runs: looked up on PATH
// the way the spawn looks it up (on Windows with PATHEXT, so "claude" is
// npm's claude.cmd). A path, or a name not found, gives "": the launch then
// judges the command as written, and the spawn reports a missing one. The
// resolved file decides whether the line goes through cmd.exe and is what
// the console-safe check reads (a claude.cmd under "Program Files (x86)"
// would be cut by cmd.exe at its parenthesis).
func ResolveCommand(command string) string {
	if command == "" || strings.ContainsAny(command, `/\:`) {
		return ""
	}
	path, err := exec.LookPath(command)
	if err != nil {
		return ""
	}
	return path
}

// consoleSafe reports a word cmd.exe passes untouched: none of pty.CmdReactive
// and no control character (a line break ends the line).
func consoleSafe(w string) bool {
	for _, r := range w {
		if r < 0x20 || r == 0x7f || strings.ContainsRune("&|<>^()%", r) {
			return false
		}
	}
	return true
}

// commandSafe judges the command as cmd.exe reads its word: consoleSafe,
// or — for a program other than a batch script — a path with a space,
// which goes on the line quoted whole, so & | < > ^ ( ) inside it are text
// (C:\Program Files (x86)\…\claude.exe). A .cmd or .bat stays strict: npm's
// launchers expand their own path inside parenthesised blocks.
func commandSafe(cmd string) bool {
	if consoleSafe(cmd) {
		return true
	}
	ext := strings.ToLower(filepath.Ext(cmd))
	if ext == ".cmd" || ext == ".bat" || !strings.ContainsAny(cmd, " \t") {
		return false
	}
	for _, r := range cmd {
		if r < 0x20 || r == 0x7f || r == '%' || r == '"' {
			return false
		}
	}
	return true
}

func allConsoleSafe(words []string) bool {
	for _, w := range words {
		if !consoleSafe(w) {
			return false
		}
	}
	return true
}

// lineSafeWord: ASCII letters, digits and / : . _ - only (spec line_safe_word).
func lineSafeWord(w string) bool {
	for i := 0; i < len(w); i++ {
		if !lineSafeByte(w[i]) {
			return false
		}
	}
	return true
}

func lineSafeByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("/:._-", c) >= 0
}

// lineSafeText: lineSafeWord plus the space (spec line_safe_text), for
// contents of one quoted argument.
func lineSafeText(r rune) bool {
	return r == ' ' || r < utf8.RuneSelf && lineSafeByte(byte(r))
}

// encodeJSON marshals v; on a cmd.exe line every byte outside the line-safe
// set (and outside JSON's own structure) is written as \uXXXX, so the
// argument holds nothing cmd.exe reacts to while Claude reads the same
// values.
func (b *lineBuilder) encodeJSON(v any) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	s := strings.TrimSuffix(buf.String(), "\n")
	if !b.viaCmd {
		return s, nil
	}
	// Inside JSON strings escape everything unsafe; structure characters
	// ({ } [ ] , " and the escapes' backslash) are left as JSON needs them.
	var out strings.Builder
	inString := false
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case !inString:
			if r == '"' {
				inString = true
			}
			out.WriteRune(r)
		case r == '\\':
			// An escape: \" and \\ become \u escapes too (cmd.exe counts
			// quotes); \n, \t, \uXXXX are already safe.
			switch s[i+1] {
			case '"', '\\':
				writeUnicodeEscape(&out, rune(s[i+1]), false)
			default:
				out.WriteString(s[i : i+2])
			}
			i += 2
			continue
		case r == '"':
			inString = false
			out.WriteRune(r)
		case lineSafeText(r):
			out.WriteRune(r)
		default:
			writeUnicodeEscape(&out, r, false)
		}
		i += size
	}
	return out.String(), nil
}

// tomlString is s as a TOML basic string. On a cmd.exe line every character
// outside the line-safe set is a \u escape (spec: "文字列の % は TOML escape").
func (b *lineBuilder) tomlString(s string) string {
	var out strings.Builder
	out.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			if b.viaCmd {
				writeUnicodeEscape(&out, r, true)
			} else {
				out.WriteByte('\\')
				out.WriteRune(r)
			}
		case r < 0x20 || r == 0x7f:
			writeUnicodeEscape(&out, r, true)
		case b.viaCmd && !lineSafeText(r):
			writeUnicodeEscape(&out, r, true)
		default:
			out.WriteRune(r)
		}
	}
	out.WriteByte('"')
	return out.String()
}

// writeUnicodeEscape writes r as \uXXXX; above the BMP, JSON takes a
// surrogate pair and TOML takes \UXXXXXXXX.
func writeUnicodeEscape(out *strings.Builder, r rune, toml bool) {
	switch {
	case r <= 0xffff:
		fmt.Fprintf(out, `\u%04X`, r)
	case toml:
		fmt.Fprintf(out, `\U%08X`, r)
	default:
		r -= 0x10000
		fmt.Fprintf(out, `\u%04X\u%04X`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
	}
}

// checkLoopback accepts a URL of the given scheme whose host is a loopback
// address or localhost: nothing may reach beyond this machine.
func checkLoopback(raw, scheme string) error {
	if err := room.CheckLoopbackURL(raw, scheme); err != nil {
		return fmt.Errorf("%w: %w", ErrRoomAddress, err)
	}
	return nil
}

func hasPlaceholder(words []string) bool {
	for _, w := range words {
		if strings.Contains(w, config.SessionIDPlaceholder) {
			return true
		}
	}
	return false
}

// newID makes a fresh session id with gen, or a random UUID v4.
func newID(gen func() (string, error)) (string, error) {
	if gen == nil {
		u, err := uuid.NewRandom()
		if err != nil {
			return "", fmt.Errorf("new session id: %w", err)
		}
		return u.String(), nil
	}
	id, err := gen()
	if err != nil {
		return "", fmt.Errorf("new session id: %w", err)
	}
	if id == "" {
		return "", fmt.Errorf("new session id: empty")
	}
	return id, nil
}
