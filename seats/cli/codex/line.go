package codex

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats/character"
	"github.com/pullcept/pullcept/seats/launch"
)

// Codex CLI words the launch reads or adds.
const (
	codexResume      = "resume"
	codexConfig      = "-c"
	codexConfigLong  = "--config"
	codexNoAltScreen = "--no-alt-screen"
	codexAltKey      = "tui.alternate_screen"
)

// ReadsMCPJSON: Codex gets its room server on the command line only (spec
// #297) and writes no file.
func (*Adapter) ReadsMCPJSON() bool { return false }

// Line builds a Codex CLI line (docs/design.md §9, docs/clis.md): in app-server
// mode (AppServer) the terminal's line and the server's
// (codexAppServer); in hook mode <command> [resume <id>] <options> -c
// 'mcp_servers.<key>={…}' --no-alt-screen (unless the account chose the
// alternate screen or the options decide it), with the character, if any,
// in the environment as LI_PLUS_OUTPUT_STYLE (#281 hook mode). An inherited
// LI_PLUS_OUTPUT_STYLE is removed either way. Codex makes its own session
// id: a fresh seat's {session_id} is refused (ErrPlaceholder). Hook-mode
// options are checked (hookOptions): what has no place in a seat is refused
// with the reason (ErrOption), and a -C/--cd directory becomes the
// launch's CLIDir.
func (*Adapter) Line(b *launch.Builder, opts []string) ([]string, error) {
	if err := codexCharacterEnv(b); err != nil {
		return nil, err
	}
	var argv []string
	var err error
	if AppServer(b.In.Account) {
		argv, err = codexAppServer(b, opts)
	} else {
		argv, err = codexHookLine(b, opts)
	}
	if err == nil && !b.In.Resume && launch.HasPlaceholder(argv) {
		err = fmt.Errorf("%w: Codex makes its own session id; remove %s from the launch options", launch.ErrPlaceholder, config.SessionIDPlaceholder)
	}
	return argv, err
}

// codexHookLine is a hook-mode Codex line (Line).
func codexHookLine(b *launch.Builder, opts []string) ([]string, error) {
	a, in := b.In.Account, b.In
	if err := launch.CheckLoopback(in.RoomURL, "ws"); err != nil {
		return nil, err
	}
	if !filepath.IsAbs(in.PullceptPath) {
		return nil, fmt.Errorf("%w: %q", launch.ErrNoPullceptPath, in.PullceptPath)
	}
	dir, err := hookOptions(b, opts)
	if err != nil {
		return nil, err
	}
	b.CLIDir = dir
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
	argv = append(argv, codexConfig, "mcp_servers."+b.Key+"="+codexRoomTable(b))
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

// codexRoomTable is the room server as one TOML inline table (docs/clis.md):
// our sidecar, the non-secret variables by value, the process-only ones by
// name, enabled, tools approved without a prompt.
func codexRoomTable(b *launch.Builder) string {
	a, in := b.In.Account, b.In
	var t strings.Builder
	t.WriteString("{command=")
	t.WriteString(b.TOMLString(in.PullceptPath))
	t.WriteString(", args=[")
	for i, arg := range launch.SidecarArgs {
		if i > 0 {
			t.WriteString(", ")
		}
		t.WriteString(b.TOMLString(arg))
	}
	t.WriteString("], env={")
	for i, v := range launch.SidecarVars(in.RoomURL, a.DisplayName(), a.ID, in.TopicID, a.Hue, in.UnseenHistory) {
		if i > 0 {
			t.WriteString(", ")
		}
		t.WriteString(v.Name + "=" + b.TOMLString(v.Value))
	}
	t.WriteString("}, env_vars=[")
	t.WriteString(b.TOMLString(room.EnvRoomToken) + ", " + b.TOMLString(room.EnvLaunchedAs) + ", " + b.TOMLString(room.EnvRoomSocket))
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

// codexCharacterEnv adds a Codex seat's character to its environment as
// LI_PLUS_OUTPUT_STYLE (#281 hook mode; the name only: the body never
// rides argv or the environment), and removes an inherited value
// (Launch.Unset) so that without a character the project's default
// applies. The account's own env may not set the variable
// (ErrEnvAppOwned); a name outside #281's grammar refuses the launch
// (character.ErrName): Li+'s loader would refuse it, and never falls back.
// A project that selects characters inline (#276, character.CodexInline)
// refuses a named character in hook mode (character.ErrInlineHookMode).
// An app-server seat's character travels in the conversation's developer
// instructions (codexServerCharacter, server.go), never in the environment.
func codexCharacterEnv(b *launch.Builder) error {
	a := b.In.Account
	b.Unset(character.EnvOutputStyle)
	if AppServer(a) {
		return nil
	}
	for _, v := range a.Env {
		if character.OwnsEnv(a.Kind, v.Name) {
			return fmt.Errorf("env: %w: %s (write the style's name in the character field)", character.ErrEnvAppOwned, v.Name)
		}
	}
	name := strings.TrimSpace(a.Character)
	if name == "" {
		return nil
	}
	inline, err := character.CodexInline(a.WorkDir)
	if err != nil {
		return fmt.Errorf("character %q: cannot tell whether the project selects it by a Li+ style file or inline: %w", name, err)
	}
	if inline {
		return fmt.Errorf("character %q: %w: the project has no .codex/output-styles or [liplus] output_style, so the character is a heading of developer_instructions (#276); turn on app-server mode for this account", name, character.ErrInlineHookMode)
	}
	if err := character.CheckCodexName(name); err != nil {
		return fmt.Errorf("character: %w", err)
	}
	b.SetEnv(character.EnvOutputStyle + "=" + name)
	return nil
}
