package codex

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
	"strings"
	"syscall"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats/launch"
)

// Where the known CLIs keep their conversations (docs/design.md §9,
// docs/clis.md).
const (
	envCodexHome     = "CODEX_HOME"
	codexDirName     = ".codex"
	codexSessionsDir = "sessions"
	// rolloutFirstLineMax bounds the session_meta line read from a rollout:
	// it carries the base instructions (tens of KiB); 8 MiB only guards
	// against reading a stray huge file whole.
	rolloutFirstLineMax = 8 << 20
)

// Home is Codex CLI's home for a seat's environment: $CODEX_HOME (a
// relative one against the seat's working directory workDir, where the
// CLI runs: launch.SeatDir), else <home>/.codex. The error wraps
// ErrNoHome.
func Home(getenv func(string) string, workDir string) (string, error) {
	if d := getenv(envCodexHome); d != "" {
		return launch.SeatDir(workDir, d), nil
	}
	home, err := launch.HomeDir(getenv)
	if err != nil {
		return "", err
	}
	return filepath.Join(home, codexDirName), nil
}

// Rollout finds the rollout file of Codex session sessionID under
// <codexHome>/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl. ok is false
// when there is none, it could not be looked for, or the id is not a plain
// UUID-like word.
func Rollout(codexHome, sessionID string) (path string, ok bool) {
	path, err := FindRollout(codexHome, sessionID)
	return path, err == nil && path != ""
}

// FindRollout is Rollout telling "not there" ("", nil) from "could not
// look" (an error: a permission or I/O error, CODEX_HOME not a folder),
// which keeps a recorded id (docs/design.md §9 "Resume"). A missing
// sessions folder is "not there"; so is a date entry that is not a folder.
// The latest match wins when several do.
func FindRollout(codexHome, sessionID string) (string, error) {
	if !plainID(sessionID) {
		return "", nil
	}
	pattern := "rollout-*-" + sessionID + ".jsonl"
	root := filepath.Join(codexHome, codexSessionsDir)
	var matches []string
	var walk func(dir string, depth int) error
	walk = func(dir string, depth int) error {
		entries, err := os.ReadDir(dir)
		switch {
		case err == nil:
		case errors.Is(err, fs.ErrNotExist) && depth == 0:
			// Windows (and Wine) report a folder that is a file as not
			// found: look before taking it as "no sessions yet".
			if fi, serr := os.Lstat(dir); serr == nil && !fi.IsDir() {
				return fmt.Errorf("look for rollout %s: %s is not a folder", sessionID, dir)
			}
			return nil
		case depth > 0 && (errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)):
			return nil // a date entry that is not a folder (or went away)
		default:
			return fmt.Errorf("look for rollout %s: %w", sessionID, err)
		}
		for _, e := range entries {
			p := filepath.Join(dir, e.Name())
			if depth == 3 {
				if m, _ := filepath.Match(pattern, e.Name()); m {
					matches = append(matches, p)
				}
				continue
			}
			if !e.IsDir() && e.Type()&fs.ModeSymlink == 0 {
				continue
			}
			if err := walk(p, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(root, 0); err != nil {
		return "", err
	}
	if len(matches) == 0 {
		return "", nil
	}
	sort.Strings(matches)
	return matches[len(matches)-1], nil
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

// Session is a Codex rollout as its first line (session_meta) says.
type Session struct {
	ID      string
	Cwd     string
	Path    string
	Started time.Time
}

// RolloutsSince lists rollouts of sessions started in cwd at or after
// since, oldest first. Codex writes a rollout lazily at the first turn, so
// a fresh seat's id is known only then; the caller polls and takes the one
// that is not another seat's (two Codex seats sharing a cwd and CODEX_HOME
// that start together cannot otherwise be told apart). It scans the date
// directories from the day before since to the day after now (names are
// UTC), reads each candidate's first line, and skips files whose first line
// is not complete yet. cwd is compared cleaned (case-insensitively on
// Windows).
func RolloutsSince(codexHome, cwd string, since time.Time) ([]Session, error) {
	var found []Session
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
func readSessionMeta(path string) (Session, bool) {
	f, err := config.OpenRegularFollow(path)
	if err != nil {
		return Session{}, false
	}
	defer f.Close()
	line, err := bufio.NewReaderSize(io.LimitReader(f, rolloutFirstLineMax), 64<<10).ReadBytes('\n')
	if err != nil {
		return Session{}, false // no complete first line yet
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
		return Session{}, false
	}
	ts := meta.Payload.Timestamp
	if ts == "" {
		ts = meta.Timestamp
	}
	started, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return Session{}, false
	}
	return Session{ID: meta.Payload.ID, Cwd: meta.Payload.Cwd, Path: path, Started: started}, true
}

func sameDir(a, b string) bool {
	a, b = filepath.Clean(a), filepath.Clean(b)
	if runtime.GOOS == "windows" {
		return strings.EqualFold(a, b)
	}
	return a == b
}
