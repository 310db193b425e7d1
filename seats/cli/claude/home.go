package claude

import (
	"path/filepath"
	"strconv"
	"strings"
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
	// EnvProjectDirName names the project folder Claude Code keeps a
	// session's transcript in, instead of its cwd's slug (ProjectDirName).
	EnvProjectDirName = "CLAUDE_CODE_PROJECT_DIR_NAME"
)

// ProjectDirName is the project folder name CLAUDE_CODE_PROJECT_DIR_NAME
// gives, as Claude Code takes it (2.1.328, read from its code; docs/clis.md
// §2.11): only while CLAUDE_CONFIG_DIR is set, and only a name of 1 to 64
// ASCII letters, digits, "_" or "-" that is not one Windows reserves
// (con, prn, aux, nul, com0–9, lpt0–9, any case); "" otherwise, when the
// folder is the cwd's slug. Pass SeatGetenv so an account's own variables
// count.
func ProjectDirName(getenv func(string) string) string {
	if getenv(EnvConfigDir) == "" {
		return ""
	}
	name := getenv(EnvProjectDirName)
	if len(name) < 1 || len(name) > 64 || reservedName(name) {
		return ""
	}
	for _, c := range []byte(name) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return ""
		}
	}
	return name
}

// reservedName reports a device name Windows reserves (Claude Code's
// /^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])$/i).
func reservedName(name string) bool {
	n := strings.ToLower(name)
	switch n {
	case "con", "prn", "aux", "nul":
		return true
	}
	return len(n) == 4 && (n[:3] == "com" || n[:3] == "lpt") && n[3] >= '0' && n[3] <= '9'
}

// Transcripts are where Claude Code may keep session sessionID started in
// cwd, in the order it looks for it on a resume: the named project folder
// when ProjectDirName gives one, then the cwd's slug (TranscriptPath).
func Transcripts(claudeConfigDir, cwd, sessionID, projectName string) []string {
	slug := TranscriptPath(claudeConfigDir, cwd, sessionID)
	if projectName == "" {
		return []string{slug}
	}
	return []string{filepath.Join(claudeConfigDir, claudeProjectsDir, projectName, sessionID+".jsonl"), slug}
}

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
