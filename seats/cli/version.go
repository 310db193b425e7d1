package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats/pty"
)

// Minimum versions (issue 34 item 12; spec «Codex CLI の起動と再開（#272）»
// «対応基準は Codex CLI 0.160.0 以上であり、古い CLI では起動前に診断を返す»):
// a kind whose launch line needs a newer CLI than the one installed says
// so before its seat starts, naming the version it needs, instead of
// failing later ("did not listen", a dialog, a seat that never joins).
// The kinds state what they need (Versioned); the seats Manager reads the
// version (VersionBook) and refuses the start (TooOldError). A version
// that cannot be read is no refusal: the seat starts, and says so.

// Version is a CLI's version, major.minor.patch; Pre marks a pre-release
// (0.160.0-alpha.3), which comes before its release.
type Version struct {
	Major, Minor, Patch int
	Pre                 bool
}

// String is "2.1.78" ("0.160.0-pre" for a pre-release).
func (v Version) String() string {
	s := strconv.Itoa(v.Major) + "." + strconv.Itoa(v.Minor) + "." + strconv.Itoa(v.Patch)
	if v.Pre {
		s += "-pre"
	}
	return s
}

// Less reports whether v comes before o.
func (v Version) Less(o Version) bool {
	switch {
	case v.Major != o.Major:
		return v.Major < o.Major
	case v.Minor != o.Minor:
		return v.Minor < o.Minor
	case v.Patch != o.Patch:
		return v.Patch < o.Patch
	}
	return v.Pre && !o.Pre
}

// ParseVersion reads the first major.minor.patch in out, what a CLI's
// --version prints ("2.1.328 (Claude Code)", "codex-cli 0.169.0"); a
// hyphen right after it marks a pre-release. false when there is none.
func ParseVersion(out string) (Version, bool) {
	for i := 0; i < len(out); i++ {
		if !isDigit(out[i]) || i > 0 && (isDigit(out[i-1]) || out[i-1] == '.') {
			continue
		}
		var parts [3]int
		j, ok := i, true
		for k := range parts {
			n, end := leadingNumber(out[j:])
			if end == 0 || end > 9 {
				ok = false
				break
			}
			parts[k], j = n, j+end
			if k < 2 {
				if j >= len(out) || out[j] != '.' {
					ok = false
					break
				}
				j++
			}
		}
		if !ok {
			continue
		}
		return Version{Major: parts[0], Minor: parts[1], Patch: parts[2], Pre: j < len(out) && out[j] == '-'}, true
	}
	return Version{}, false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// leadingNumber is the number s starts with and how many digits it has.
func leadingNumber(s string) (n, digits int) {
	for digits < len(s) && isDigit(s[digits]) {
		if digits < 9 {
			n = n*10 + int(s[digits]-'0')
		}
		digits++
	}
	return n, digits
}

// Need is what a kind's launch line needs of its CLI: Min or newer, for
// what it uses (Uses: the flags, hooks or calls that need it, as code
// words), CLI its name ("Claude Code").
type Need struct {
	CLI  string
	Min  Version
	Uses string
}

// Versioned is an Adapter whose launch line needs a minimum version of its
// CLI: the Manager reads the installed one before the seat starts.
type Versioned interface {
	// Needs is what account a's launch line needs (it may depend on the
	// account: a Codex seat in app-server mode).
	Needs(a config.Account) Need
}

// ErrCLITooOld: the installed CLI is older than its seat's launch line
// needs (TooOldError says which and why).
var ErrCLITooOld = errors.New("the CLI is too old for its launch line")

// TooOldError is a start refused because the CLI at Path is version Have,
// older than Need.Min.
type TooOldError struct {
	Path string
	Have Version
	Need Need
}

func (e *TooOldError) Error() string {
	return fmt.Sprintf("%s %s (%s) is too old: this seat's launch line needs %s %s or newer (%s); update it",
		e.Need.CLI, e.Have, e.Path, e.Need.CLI, e.Need.Min, e.Need.Uses)
}

// Unwrap makes errors.Is(err, ErrCLITooOld) hold.
func (e *TooOldError) Unwrap() error { return ErrCLITooOld }

// Check judges the version read against need: a TooOldError when it is
// older, nil otherwise.
func (n Need) Check(path string, have Version) error {
	if have.Less(n.Min) {
		return &TooOldError{Path: path, Have: have, Need: n}
	}
	return nil
}

// Reading a version.
const (
	// versionTimeout bounds one `<cli> --version`: past it the process
	// tree is ended and the version is unread (the seat starts anyway). A
	// native CLI answers in milliseconds; an npm launcher starts Node
	// first.
	versionTimeout = 10 * time.Second
	// versionMaxOutput bounds what is kept of its output.
	versionMaxOutput = 4 << 10
)

// VersionBook reads CLIs' versions and keeps each one read, by executable
// path, size and modification time: a start reads a CLI once until it is
// replaced (an update changes the file). A failed read is not kept: the
// next start tries again. Safe for concurrent use; the lock is a leaf and
// is never held while a CLI runs.
type VersionBook struct {
	// Run runs path with --version and returns what it printed (nil:
	// RunVersion). Tests replace it to count runs.
	Run func(ctx context.Context, path string, env []string) ([]byte, error)
	// Timeout bounds one read (0: versionTimeout).
	Timeout time.Duration

	mu   sync.Mutex
	read map[versionKey]Version
}

type versionKey struct {
	path  string
	size  int64
	mtime time.Time
}

// maxVersionsKept bounds the book (one entry per CLI file seen).
const maxVersionsKept = 64

// Read is the version of the executable at path, run with env (the seat's
// environment, never a room token). An error says why it could not be
// read: the file is gone, the command failed or timed out, or printed no
// version.
func (b *VersionBook) Read(ctx context.Context, path string, env []string) (Version, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return Version{}, err
	}
	key := versionKey{path: path, size: fi.Size(), mtime: fi.ModTime()}
	b.mu.Lock()
	v, ok := b.read[key]
	b.mu.Unlock()
	if ok {
		return v, nil
	}
	timeout := b.Timeout
	if timeout <= 0 {
		timeout = versionTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	run := b.Run
	if run == nil {
		run = RunVersion
	}
	out, err := run(ctx, path, env)
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return Version{}, fmt.Errorf("no answer to --version in %s", timeout)
		}
		return Version{}, err
	}
	v, ok = ParseVersion(string(out))
	if !ok {
		return Version{}, fmt.Errorf("--version printed no version (%q)", firstLine(out))
	}
	b.mu.Lock()
	if b.read == nil || len(b.read) >= maxVersionsKept {
		b.read = map[versionKey]Version{}
	}
	b.read[key] = v
	b.mu.Unlock()
	return v, nil
}

// firstLine is out's first line, cut short, for an error.
func firstLine(out []byte) string {
	line, _, _ := bytes.Cut(bytes.TrimSpace(out), []byte("\n"))
	if len(line) > 80 {
		line = append(line[:80:80], "…"...)
	}
	return strings.ToValidUTF8(string(line), "?")
}

// RunVersion runs `path --version` (through cmd.exe on Windows unless it
// is an .exe: npm's launchers are .cmd scripts) with env and no input,
// and returns its standard output, at most versionMaxOutput bytes. ctx
// ending ends its process tree.
func RunVersion(ctx context.Context, path string, env []string) ([]byte, error) {
	argv := []string{path, "--version"}
	if runtime.GOOS == "windows" && !strings.EqualFold(extOf(path), ".exe") {
		argv = []string{"cmd.exe", "/C", path, "--version"}
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = env
	pty.EndTreeOnCancel(cmd)
	cmd.WaitDelay = time.Second // a child holding the pipe open does not hold us
	out := &capped{max: versionMaxOutput}
	cmd.Stdout = out
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s --version: %w", path, err)
	}
	return out.b.Bytes(), nil
}

// extOf is p's extension, "" when its last element has none.
func extOf(p string) string {
	i := strings.LastIndexAny(p, `.\/`)
	if i < 0 || p[i] != '.' {
		return ""
	}
	return p[i:]
}

// capped keeps the first max bytes written to it and drops the rest.
type capped struct {
	b   bytes.Buffer
	max int
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.b.Len(); room > 0 {
		c.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
