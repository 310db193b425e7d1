package claude

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats/launch"
)

// Claude Code flags the launch reads or adds.
const (
	flagSettings               = "--settings"
	flagResume                 = "--resume"
	flagContinue               = "--continue"
	flagAppendSystemPrompt     = "--append-system-prompt"
	flagAppendSystemPromptFile = "--append-system-prompt-file"
)

// Hook shape («Claude Code の席は自分の様子を hook で知らせる»).
const (
	// hookTimeout bounds how long Claude waits on our reply to a hook in
	// seconds: it waits before every tool, and the loopback room answers at
	// once.
	hookTimeout = 5
	// permissionHookTimeout is longer because the room holds a permission
	// request for the human's answer on its card (#336): as long as
	// config.json's "permission_wait" says, which the human may change
	// while seats run (room.Hub.SetPermissionWait applies it to the next
	// card at once). So the timeout follows the longest wait the room
	// takes, not the wait in force at launch: a seat started before the
	// human lengthened the wait would otherwise give up on a card the
	// room still shows, and a change would apply only from each seat's
	// next start. The room's own wait, not this, ends the hook; this is
	// the CLI's backstop should the room never answer, and Claude Code
	// 2.1.328 takes any positive timeout (config.MaxPermissionWait says
	// where). The margin covers writing the room's answer after the wait.
	permissionHookTimeout = int(room.MaxPermissionWait/time.Second) + permissionHookMargin
	permissionHookMargin  = 10
)

// HookEvents are the Claude Code events posted to /hooks/activity
// (docs/design.md §11); the room refuses any other (room.HookEvents).
var HookEvents = room.HookEvents

// Adapter is Claude Code's cli.Adapter.
type Adapter struct {
	// Poll is how often the transcript is read while lines come
	// (ManagerOptions.TailPoll).
	Poll time.Duration
}

// ReadsMCPJSON: Claude Code finds the room in the working directory's
// .mcp.json.
func (*Adapter) ReadsMCPJSON() bool { return true }

// Line builds a Claude Code line (docs/design.md §9): fresh, <command>
// <options> --session-id <new id> --settings '<json>' --append-system-prompt
// '<RoomPrompt>'; resume, <command> --resume <id> <options> --settings
// '<json>' (the system prompt is recorded once per conversation, so resume
// adds none). Settings: enabledMcpjsonServers [own key],
// disabledMcpjsonServers [MCPJSON.Others], outputStyle (the character),
// statusLine and http hooks to HooksURL. --session-id in the options is
// stripped (warning); no --append-system-prompt when the options have it or
// -file. Refusals wrap ErrOwnSettings, ErrOptionsConflict, ErrRoomAddress
// and ErrNoPullceptPath.
func (*Adapter) Line(b *launch.Builder, opts []string) ([]string, error) {
	a, in := b.In.Account, b.In
	for _, w := range opts {
		if w == "-r" || w == "-c" || config.HasFlag([]string{w}, flagResume) || config.HasFlag([]string{w}, flagContinue) {
			return nil, fmt.Errorf("%w: %q in the launch options; the claude_code kind resumes by itself (remove it)", ErrOptionsConflict, w)
		}
	}
	opts, removed := config.RemoveFlag(opts, config.SessionIDFlag)
	if removed != nil {
		b.Warn("%s removed from the launch options: the claude_code kind gives the session id itself", strings.Join(removed, ", "))
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
		b.Warn("launch options carry their own --settings: Pullcept adds none, so this seat must approve %s itself and gets no status line or activity hooks", b.Key)
	} else {
		js, err := claudeSettings(b, others, character)
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
	argv = append(argv, permissionMode(b, opts)...)
	if !in.Resume && !config.HasFlag(opts, flagAppendSystemPrompt) && !config.HasFlag(opts, flagAppendSystemPromptFile) {
		argv = append(argv, flagAppendSystemPrompt, launch.RoomPrompt(b.Key))
	}
	return argv, nil
}

// Claude Code flags that choose the permission mode.
const (
	flagPermissionMode = "--permission-mode"
	flagSkipPerms      = "--dangerously-skip-permissions"
)

// permissionMode is --permission-mode <the account's mode> for a fresh and
// a resumed line alike (a resumed session starts in the mode it is
// given), or nothing: no mode chosen (the CLI's own settings decide), or
// launch options that choose one themselves — they win, with a warning.
func permissionMode(b *launch.Builder, opts []string) []string {
	mode := b.In.Account.PermissionMode
	if mode == "" {
		return nil
	}
	for _, f := range []string{flagPermissionMode, flagSkipPerms} {
		if config.HasFlag(opts, f) {
			b.Warn("the launch options choose the permission mode (%s); the account's %q is not added", f, mode)
			return nil
		}
	}
	return []string{flagPermissionMode, mode}
}

// RoomToolNames are the full Claude Code tool names of the room tools under
// the .mcp.json key (mcp__<key>__<tool>).
func RoomToolNames(key string) []string {
	names := make([]string, len(room.RoomTools))
	for i, t := range room.RoomTools {
		names[i] = launch.ToolName(key, t)
	}
	return names
}

// claudeSettings is the inline --settings JSON (docs/design.md §9, §11).
func claudeSettings(b *launch.Builder, others []string, character string) (string, error) {
	type statusLine struct {
		Type    string `json:"type"`
		Command string `json:"command"`
	}
	type hookGroup struct {
		Hooks []hookEntry `json:"hooks"`
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
	}{Enabled: []string{b.Key}, Disabled: others, OutputStyle: character,
		// The room's own tools never ask the human: a seat in default
		// permission mode would otherwise stop on every say_to_room
		// (docs/clis.md); Codex approves them with
		// default_tools_approval_mode="approve" the same way.
		Permissions: permissions{Allow: RoomToolNames(b.Key)}}
	if d := b.In.AttachmentsDir; d != "" && filepath.IsAbs(d) {
		settings.Permissions.Dirs = []string{d}
	}

	base, err := statusAndHooksBase(b)
	if err != nil {
		return "", err
	}
	if base != "" {
		settings.StatusLine = &statusLine{Type: "command", Command: statusCommand(b, base)}
		settings.Hooks = map[string][]hookGroup{}
		for _, ev := range HookEvents {
			timeout := hookTimeout
			if ev == "PermissionRequest" {
				timeout = permissionHookTimeout
			}
			settings.Hooks[ev] = []hookGroup{{Hooks: []hookEntry{hookFor(b, base, ev, timeout)}}}
		}
	}
	return b.EncodeJSON(settings)
}

// hookEntry is one Claude Code hook: a command hook, or an http one.
type hookEntry struct {
	Type           string            `json:"type"`
	Command        string            `json:"command,omitempty"`
	URL            string            `json:"url,omitempty"`
	Timeout        int               `json:"timeout"`
	Headers        map[string]string `json:"headers,omitempty"`
	AllowedEnvVars []string          `json:"allowedEnvVars,omitempty"`
}

// hookFor is event ev's hook. Where the room has a socket it is a command
// hook, `pullcept hook <url>`: Claude Code runs it as its child, so the
// room knows from the kernel that the hook comes from this seat's
// processes (docs/design.md §6 "Seat identity"); an http hook is a
// loopback request any process holding the token could make, and is used
// only where the room has no socket.
func hookFor(b *launch.Builder, base, ev string, timeout int) hookEntry {
	target := room.HookActivityURL(base, ev, b.In.TopicID, b.In.Account.ID)
	if b.In.RoomSocket != "" {
		word := config.QuoteWord(target)
		if b.GOOS == "windows" {
			word = target // Git Bash: checked safe unquoted (statusAndHooksBase), as the status line's
		}
		return hookEntry{Type: "command", Command: pullceptWord(b) + " " + room.HookCommand + " " + word, Timeout: timeout}
	}
	return hookEntry{Type: "http", URL: target, Timeout: timeout,
		Headers:        map[string]string{"Authorization": "Bearer $" + room.EnvRoomToken},
		AllowedEnvVars: []string{room.EnvRoomToken}}
}

// pullceptWord is our executable as one word of a command Claude Code
// runs through its shell (Git Bash on Windows takes forward slashes).
func pullceptWord(b *launch.Builder) string {
	if b.GOOS == "windows" {
		return filepath.ToSlash(b.In.PullceptPath)
	}
	return config.QuoteWord(b.In.PullceptPath)
}

// statusAndHooksBase checks what the status line and hooks need and returns
// the hooks base URL, or "" (with a warning) when they cannot ride this line.
func statusAndHooksBase(b *launch.Builder) (string, error) {
	in := b.In
	if in.HooksURL == "" {
		return "", fmt.Errorf("%w: no hooks URL for the status line and hooks", launch.ErrRoomAddress)
	}
	if err := launch.CheckLoopback(in.HooksURL, "http"); err != nil {
		return "", err
	}
	if !filepath.IsAbs(in.PullceptPath) {
		return "", fmt.Errorf("%w: %q", launch.ErrNoPullceptPath, in.PullceptPath)
	}
	base := strings.TrimRight(in.HooksURL, "/")
	if b.GOOS == "windows" {
		// Git Bash runs the status-line command and reads an unquoted \ as an
		// escape; words outside the safe set cannot ride unquoted either.
		p := filepath.ToSlash(in.PullceptPath)
		if !launch.LineSafeWord(p) || !launch.LineSafeWord(base) {
			b.Warn("no status line or activity hooks: %q or %q holds characters other than ASCII letters, digits and / : . _ - that the Windows status-line shell cannot take unquoted", p, base)
			return "", nil
		}
	}
	return base, nil
}

// statusCommand is the statusLine command: <pullcept> status-line <url>.
func statusCommand(b *launch.Builder, base string) string {
	return pullceptWord(b) + " " + room.StatusLineCommand + " " + room.HookStatusURL(base, b.In.TopicID, b.In.Account.ID)
}
