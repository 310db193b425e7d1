package seats

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/pullcept/pullcept/config"
)

// Where the known CLIs keep their conversations (docs/design.md §9,
// docs/clis.md).
const (
	envClaudeConfigDir = "CLAUDE_CONFIG_DIR"
	envCodexHome       = "CODEX_HOME"
	claudeDirName      = ".claude"
	codexDirName       = ".codex"
	claudeProjectsDir  = "projects"
	codexSessionsDir   = "sessions"
	// claudeSlugMax is Claude Code's cap on a project directory name; a
	// longer slug is cut and given a hash suffix (docs/clis.md).
	claudeSlugMax = 200
	// rolloutFirstLineMax bounds the session_meta line read from a rollout:
	// it carries the base instructions (tens of KiB); 8 MiB only guards
	// against reading a stray huge file whole.
	rolloutFirstLineMax = 8 << 20
)

// ClaudeConfigDir is where Claude Code keeps its data for an environment:
// $CLAUDE_CONFIG_DIR, else <home>/.claude (HOME; USERPROFILE on Windows).
// Pass SeatGetenv so an account's own CLAUDE_CONFIG_DIR counts. The error
// wraps ErrNoHome.
func ClaudeConfigDir(getenv func(string) string) (string, error) {
	if d := getenv(envClaudeConfigDir); d != "" {
		return d, nil
	}
	home, err := homeDir(getenv)
	if err != nil {
		return "", err
	}
	return filepath.Join(home, claudeDirName), nil
}

// CodexHome is Codex CLI's home for an environment: $CODEX_HOME, else
// <home>/.codex. The error wraps ErrNoHome.
func CodexHome(getenv func(string) string) (string, error) {
	if d := getenv(envCodexHome); d != "" {
		return d, nil
	}
	home, err := homeDir(getenv)
	if err != nil {
		return "", err
	}
	return filepath.Join(home, codexDirName), nil
}

func homeDir(getenv func(string) string) (string, error) {
	name := "HOME"
	if runtime.GOOS == "windows" {
		name = "USERPROFILE"
	}
	if h := getenv(name); h != "" {
		return h, nil
	}
	return "", fmt.Errorf("%w: %s is not set", ErrNoHome, name)
}

// ClaudeTranscriptPath is where Claude Code writes session sessionID started
// in cwd: <claudeConfigDir>/projects/<slug>/<sessionID>.jsonl. The slug is
// cwd with every UTF-16 unit that is not an ASCII letter or digit replaced
// by "-"; past 200 units it is cut to 200 and "-" plus the base-36 absolute
// value of the Java-style 32-bit hash of cwd is appended (docs/clis.md).
func ClaudeTranscriptPath(claudeConfigDir, cwd, sessionID string) string {
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

// CodexRollout finds the rollout file of Codex session sessionID under
// <codexHome>/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl. ok is false
// when there is none (or the id is not a plain UUID-like word).
func CodexRollout(codexHome, sessionID string) (path string, ok bool) {
	if !plainID(sessionID) {
		return "", false
	}
	matches, err := filepath.Glob(filepath.Join(codexHome, codexSessionsDir, "*", "*", "*", "rollout-*-"+sessionID+".jsonl"))
	if err != nil || len(matches) == 0 {
		return "", false
	}
	sort.Strings(matches)
	return matches[len(matches)-1], true
}

// plainID accepts ids of hex digits and dashes (Codex's UUIDs), so an id
// can never act as a glob pattern or a path.
func plainID(id string) bool {
	if id == "" {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == '-') {
			return false
		}
	}
	return true
}

// CodexSession is a Codex rollout as its first line (session_meta) says.
type CodexSession struct {
	ID      string
	Cwd     string
	Path    string
	Started time.Time
}

// CodexRolloutsSince lists rollouts of sessions started in cwd at or after
// since, oldest first. Codex writes a rollout lazily at the first turn, so
// a fresh seat's id is known only then; the caller polls and takes the one
// that is not another seat's (two Codex seats sharing a cwd and CODEX_HOME
// that start together cannot otherwise be told apart). It scans the date
// directories from the day before since to the day after now (names are
// UTC), reads each candidate's first line, and skips files whose first line
// is not complete yet. cwd is compared cleaned (case-insensitively on
// Windows).
func CodexRolloutsSince(codexHome, cwd string, since time.Time) ([]CodexSession, error) {
	var found []CodexSession
	root := filepath.Join(codexHome, codexSessionsDir)
	start := since.UTC().AddDate(0, 0, -1)
	end := time.Now().UTC().AddDate(0, 0, 1)
	for d := start; !d.After(end); d = d.AddDate(0, 0, 1) {
		dir := filepath.Join(root, d.Format("2006"), d.Format("01"), d.Format("02"))
		entries, err := os.ReadDir(dir)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", dir, err)
		}
		for _, e := range entries {
			name := e.Name()
			if e.IsDir() || !strings.HasPrefix(name, "rollout-") || !strings.HasSuffix(name, ".jsonl") {
				continue
			}
			s, ok := readSessionMeta(filepath.Join(dir, name))
			if !ok || s.Started.Before(since.Truncate(time.Second)) || !sameDir(s.Cwd, cwd) {
				continue
			}
			found = append(found, s)
		}
	}
	sort.Slice(found, func(i, j int) bool { return found[i].Started.Before(found[j].Started) })
	return found, nil
}

// readSessionMeta reads a rollout's first line:
// {"timestamp": …, "type": "session_meta", "payload": {"id", "timestamp", "cwd", …}}.
// The start time is payload.timestamp, else the line's.
func readSessionMeta(path string) (CodexSession, bool) {
	f, err := os.Open(path)
	if err != nil {
		return CodexSession{}, false
	}
	defer f.Close()
	line, err := bufio.NewReaderSize(io.LimitReader(f, rolloutFirstLineMax), 64<<10).ReadBytes('\n')
	if err != nil {
		return CodexSession{}, false // no complete first line yet
	}
	var meta struct {
		Timestamp string `json:"timestamp"`
		Type      string `json:"type"`
		Payload   struct {
			ID        string `json:"id"`
			Timestamp string `json:"timestamp"`
			Cwd       string `json:"cwd"`
		} `json:"payload"`
	}
	if json.Unmarshal(line, &meta) != nil || meta.Type != "session_meta" || meta.Payload.ID == "" {
		return CodexSession{}, false
	}
	ts := meta.Payload.Timestamp
	if ts == "" {
		ts = meta.Timestamp
	}
	started, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return CodexSession{}, false
	}
	return CodexSession{ID: meta.Payload.ID, Cwd: meta.Payload.Cwd, Path: path, Started: started}, true
}

func sameDir(a, b string) bool {
	a, b = filepath.Clean(a), filepath.Clean(b)
	if runtime.GOOS == "windows" {
		return strings.EqualFold(a, b)
	}
	return a == b
}

// DecideResume applies docs/design.md §9's resume rule for account a in a
// topic that recorded recordedID for it ("" = none), given what its kind
// says of that conversation (Adapter.Conversation). A known CLI resumes
// only when its conversation exists; a recorded id whose conversation is
// gone is dropped on the spot (drop) and reason says so for the status
// line. A generic CLI resumes whenever it has a resume line: where it keeps
// conversations is unknown, and unknown is not "missing", so its record is
// kept. reason is "" for a plain fresh start.
func DecideResume(a config.Account, recordedID string, c Conversation) (resume, drop bool, reason string) {
	name := a.DisplayName()
	switch {
	case !a.Kind.Launches():
		return false, false, ""
	case recordedID == "":
		return false, false, ""
	case c == ConversationNoResume:
		return false, false, fmt.Sprintf("%s starts fresh: it has no resume line", name)
	case c == ConversationResumes:
		return true, false, fmt.Sprintf("%s resumes session %s", name, recordedID)
	}
	return false, true, fmt.Sprintf("%s starts fresh: the conversation of session %s is gone, so the record was dropped", name, recordedID)
}

// UnseenHistory reports whether a seat joins blind («トピック» #133): the
// topic's log (logSize bytes) holds posts the seat has not seen — any post,
// for a fresh seat; for a resumed one, posts after seen, the log's size when
// that seat last stopped (seenKnown false: no mark, as after a crash or from
// before marks were kept — then it is told, since reading history it knows
// costs less than missing posts). Then the seat is told
// (PULLCEPT_UNSEEN_HISTORY) that read_room_history has posts it has not seen.
func UnseenHistory(logSize int64, resumed bool, seen int64, seenKnown bool) bool {
	if logSize <= 0 {
		return false
	}
	return !resumed || !seenKnown || logSize > seen
}
