package claude

import (
	"path/filepath"
	"strconv"
	"unicode/utf16"

	"github.com/pullcept/pullcept/seats/launch"
)

// Where Claude Code keeps its conversations (docs/design.md §9,
// docs/clis.md).
const (
	// EnvConfigDir names Claude Code's data folder when set.
	EnvConfigDir      = "CLAUDE_CONFIG_DIR"
	claudeDirName     = ".claude"
	claudeProjectsDir = "projects"
	// claudeSlugMax is Claude Code's cap on a project directory name; a
	// longer slug is cut and given a hash suffix (docs/clis.md).
	claudeSlugMax = 200
)

// ConfigDir is where Claude Code keeps its data for a seat's environment:
// $CLAUDE_CONFIG_DIR (a relative one against the seat's working directory
// workDir, where the CLI runs: launch.SeatDir), else <home>/.claude (HOME;
// USERPROFILE on Windows). Pass SeatGetenv so an account's own
// CLAUDE_CONFIG_DIR counts. The error wraps ErrNoHome.
func ConfigDir(getenv func(string) string, workDir string) (string, error) {
	if d := getenv(EnvConfigDir); d != "" {
		return launch.SeatDir(workDir, d), nil
	}
	home, err := launch.HomeDir(getenv)
	if err != nil {
		return "", err
	}
	return filepath.Join(home, claudeDirName), nil
}

// TranscriptPath is where Claude Code writes session sessionID started
// in cwd: <claudeConfigDir>/projects/<slug>/<sessionID>.jsonl. The slug is
// cwd with every UTF-16 unit that is not an ASCII letter or digit replaced
// by "-"; past 200 units it is cut to 200 and "-" plus the base-36 absolute
// value of the Java-style 32-bit hash of cwd is appended (docs/clis.md).
func TranscriptPath(claudeConfigDir, cwd, sessionID string) string {
	return filepath.Join(claudeConfigDir, claudeProjectsDir, claudeProjectSlug(cwd), sessionID+".jsonl")
}

func claudeProjectSlug(cwd string) string {
	units := utf16.Encode([]rune(cwd))
	slug := make([]byte, len(units))
	var h int32
	for i, u := range units {
		h = (h << 5) - h + int32(u) // wraps like JavaScript's "| 0"
		if u < 0x80 && (u >= 'a' && u <= 'z' || u >= 'A' && u <= 'Z' || u >= '0' && u <= '9') {
			slug[i] = byte(u)
		} else {
			slug[i] = '-'
		}
	}
	if len(slug) <= claudeSlugMax {
		return string(slug)
	}
	abs := int64(h)
	if abs < 0 {
		abs = -abs
	}
	return string(slug[:claudeSlugMax]) + "-" + strconv.FormatInt(abs, 36)
}
