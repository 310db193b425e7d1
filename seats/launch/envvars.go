package launch

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
)

// AppLaunchEnv names every variable a launch sets on the CLI's process:
// Build sets room.EnvLaunchedAs, room.EnvRoomID (the topic, for hooks that
// read only their environment, spec #264) and room.EnvRoomSocket (when the
// room has one), the caller adds room.EnvRoomToken at spawn. All start with
// config.ReservedEnvPrefix, so no account can set them.
var AppLaunchEnv = []string{room.EnvLaunchedAs, room.EnvRoomID, room.EnvRoomSocket, room.EnvRoomToken}

// notInherited are variables of Pullcept's own environment a seat does not
// get (besides every config.ReservedEnvPrefix one): they describe the
// terminal Pullcept runs in, and the seat's terminal is Pullcept's own
// emulator (TERM=xterm-256color, see termName). A CLI that sees them talks
// to that outer terminal: with TMUX or TERM_PROGRAM=tmux Claude Code printed
// tmux advice into its pane ("focus-events off"), it would drive the outer
// tmux, and kitty's, iTerm2's or WezTerm's marks invite image and keyboard
// protocols the emulator does not speak. COLORTERM stays: the seat's colours
// reach that outer terminal as they are.
var notInherited = []string{
	"TERM", "TMUX", "TMUX_PANE", "STY", "TERM_PROGRAM", "TERM_PROGRAM_VERSION", "TERM_SESSION_ID",
	"TERMINAL_EMULATOR", "LC_TERMINAL", "LC_TERMINAL_VERSION", "ITERM_SESSION_ID", "ITERM_PROFILE",
	"KITTY_WINDOW_ID", "KITTY_PID", "KITTY_LISTEN_ON", "KITTY_PUBLIC_KEY", "WEZTERM_PANE",
	"WEZTERM_UNIX_SOCKET", "WEZTERM_EXECUTABLE", "ALACRITTY_WINDOW_ID", "ALACRITTY_SOCKET",
	"ALACRITTY_LOG", "GHOSTTY_RESOURCES_DIR", "GHOSTTY_BIN_DIR", "KONSOLE_VERSION", "KONSOLE_DBUS_SESSION",
	"KONSOLE_DBUS_WINDOW", "VTE_VERSION", "WT_SESSION", "WT_PROFILE_ID", "WINDOWID",
	"ZELLIJ", "ZELLIJ_SESSION_NAME", "ZELLIJ_PANE_ID", "GNOME_TERMINAL_SCREEN", "GNOME_TERMINAL_SERVICE",
	"XTERM_VERSION", "XTERM_SHELL", "XTERM_LOCALE", "__CFBundleIdentifier",
}

// BaseEnv is Pullcept's environment as its seats inherit it: the
// user's own variables, without Pullcept's (PULLCEPT_HOME, and any
// PULLCEPT_* of an outer Pullcept this one runs in a seat of — its room
// token included) and notInherited. The launch then adds the seat's own.
func BaseEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, config.ReservedEnvPrefix) || slices.Contains(notInherited, name) {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// SidecarVars are the sidecar's entry variables in the order they are
// written: room URL, agent name, account, room (topic), hue when declared,
// the unseen-history mark when set.
func SidecarVars(roomURL, agentName, accountID, topicID string, hue *int, unseen bool) []config.EnvVar {
	vars := []config.EnvVar{
		{Name: room.EnvRoomURL, Value: roomURL},
		{Name: room.EnvAgentName, Value: agentName},
		{Name: room.EnvAccountID, Value: accountID},
		{Name: room.EnvRoomID, Value: topicID},
	}
	if hue != nil {
		vars = append(vars, config.EnvVar{Name: room.EnvHue, Value: strconv.Itoa(*hue)})
	}
	if unseen {
		vars = append(vars, config.EnvVar{Name: room.EnvUnseenHistory, Value: room.UnseenHistoryValue})
	}
	return vars
}

// processEnv is the extra environment of a launch, as NAME=value: the
// account's values opened for it (opened, from config.OpenEnv: only the
// variables that carry a value — a name-only one is inherited from
// Pullcept's environment) first, then the app's own (room.EnvLaunchedAs,
// room.EnvRoomID, room.EnvRoomSocket when set) so the app's win even if a name slipped past validation.
// A reserved or invalid name among the account's is refused
// (config.ErrEnvReserved, config.ErrEnvSyntax); errors name the variable,
// never its value.
func processEnv(a config.Account, opened []string, topicID, socket string) ([]string, error) {
	for _, v := range a.Env {
		if err := config.CheckEnvName(v.Name); err != nil {
			return nil, fmt.Errorf("env: %w", err)
		}
	}
	env := append(slices.Clone(opened), room.EnvLaunchedAs+"="+a.ID, room.EnvRoomID+"="+topicID)
	if socket != "" {
		env = append(env, room.EnvRoomSocket+"="+socket)
	}
	return env, nil
}

// SeatGetenv returns base overlaid with env (NAME=value, the account's
// opened values): the environment the seat's CLI will see. Use it to find
// where that CLI keeps its files (CLAUDE_CONFIG_DIR, CODEX_HOME may be set
// per account).
func SeatGetenv(env []string, base func(string) string) func(string) string {
	over := map[string]string{}
	for _, kv := range env {
		if name, value, ok := strings.Cut(kv, "="); ok {
			over[name] = value
		}
	}
	return func(name string) string {
		if v, ok := over[name]; ok {
			return v
		}
		if base == nil {
			return ""
		}
		return base(name)
	}
}

// SeatDir is a folder the seat's environment names (CODEX_HOME,
// CLAUDE_CONFIG_DIR) as the seat's CLI resolves it: a relative one
// against the seat's working directory workDir, the CLI's own (spec:
// 相対パスは起動ディレクトリに対して解決する), never Pullcept's. On
// Windows a path rooted without a drive (\x) takes workDir's drive.
func SeatDir(workDir, dir string) string {
	if dir == "" || filepath.IsAbs(dir) || workDir == "" {
		return dir
	}
	if vol := filepath.VolumeName(workDir); vol != "" && (dir[0] == '\\' || dir[0] == '/') {
		return filepath.Clean(vol + dir)
	}
	return filepath.Join(workDir, dir)
}

func HomeDir(getenv func(string) string) (string, error) {
	name := "HOME"
	if runtime.GOOS == "windows" {
		name = "USERPROFILE"
	}
	if h := getenv(name); h != "" {
		return h, nil
	}
	return "", fmt.Errorf("%w: %s is not set", ErrNoHome, name)
}

// UnsetEnv is env without the variables named in unset (compared
// case-insensitively: Windows reads names that way).
func UnsetEnv(env, unset []string) []string {
	if len(unset) == 0 {
		return env
	}
	out := env[:0:0]
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		drop := false
		for _, u := range unset {
			drop = drop || strings.EqualFold(name, u)
		}
		if !drop {
			out = append(out, kv)
		}
	}
	return out
}

// ErrNoHome: neither the CLI's config variable nor a home directory is set.
var ErrNoHome = errors.New("no home directory")
