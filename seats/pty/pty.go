package pty

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room/peer"
)

// Proc is one seat's child process running in a pseudo-terminal
// (docs/design.md §9: a seat's liveness is "its PTY is still running"). Read
// and Write are the PTY master; everything else acts on the child and its
// process tree.
//
// Read returns the child's output and io.EOF once the child and everything it
// spawned have closed the terminal (Linux reports that as EIO; it is mapped
// to io.EOF). On Windows the ConPTY output never ends on its own: call Close
// after Wait returns to end a pending Read. Only one goroutine may Read
// (Pump) and only one may Write (the seat's Typist: docs/design.md §14 "One
// writer per PTY").
type Proc interface {
	io.Reader
	io.Writer
	// Resize sets the terminal size in cells; the child sees SIGWINCH on Unix.
	Resize(cols, rows int) error
	// Wait blocks until the child exits and returns its exit code: the
	// status it passed to exit, or 128+signal when a signal ended it (as
	// shells report it). Any number of callers may Wait; the child is reaped
	// exactly once, whether or not anybody waits (no zombies).
	Wait() (exitCode int, err error)
	// Signaled waits as Wait does and returns the signal that ended the
	// program (Argv, under its init and guard: end_unix.go), 0 when it
	// exited, whatever its code (its own `exit 130` too). Always 0 on
	// Windows, which has no signals.
	Signaled() int
	// Kill ends the child and every process it started in its group or job
	// (Unix: SIGHUP and SIGTERM to the process group, SIGKILL after at most
	// 2 s; Windows: the Job object is terminated). It does not wait for the
	// child to be reaped: call Wait for that.
	Kill() error
	// Close closes the PTY master; a blocked Read returns. On Unix the kernel
	// then hangs up the terminal (SIGHUP to the session); on Windows the Job
	// object is closed too, which ends the tree. Idempotent.
	Close() error
	// Pid is the child's process id (on Unix also its process group and
	// session id).
	Pid() int
}

// Options describes the child to start in a pseudo-terminal
// (docs/design.md §9). Argv is the command line, Argv[0] found through PATH
// when it has no path separator; it is run as given, never through a shell.
// Dir is the working directory and is required (no fallback to Pullcept's own
// cwd). Env is the complete environment of the child (nil means Pullcept's
// own); TERM is set to xterm-256color when Env has no TERM, because the
// child's terminal is our own xterm-like emulator (seats/terminal/emu). Cols and Rows are the initial size
// in cells; 0 means 80×24. Isolate, when set, separates the child from the
// user's other processes where the OS allows (isolate.go). Guard, when
// set, is the pullcept executable that runs Argv under the seat guard
// (GuardCommand; Unix only: Windows ends the tree with the Job object).
type Options struct {
	Argv    []string
	Dir     string
	Env     []string
	Cols    int
	Rows    int
	Isolate *Isolate
	Guard   string
}

// child is what Start starts, checked: argv (the guard's line when
// guarded), and whether argv is the guard, which reports its child's end
// on fd 3 (end_unix.go).
type child struct {
	argv       []string
	dir        string
	env        []string
	cols, rows int
	guarded    bool
}

// Default terminal size when Options leaves it at zero: the classic VT100
// size that every CLI renders sensibly until the UI sends the pane's real size.
const (
	DefaultCols = 80
	DefaultRows = 24
)

// maxCells bounds a terminal dimension: both the Unix winsize and the Windows
// COORD hold 16-bit values.
const maxCells = 1<<15 - 1

// Sentinel errors of the PTY layer; callers compare with errors.Is.
// Start also returns config.ErrNoCommand and config.ErrNoWorkDir.
var (
	// ErrBadSize: a terminal size outside 1…32767 columns or rows (the
	// Windows console COORD is 16-bit signed).
	ErrBadSize = errors.New("terminal size out of range")
	// ErrNotConsoleSafe: on Windows the line goes through cmd.exe, and the
	// command or resume line holds a character cmd.exe reacts to.
	ErrNotConsoleSafe = errors.New("cmd.exe would cut the line")
)

// CmdReactive are the characters cmd.exe acts on (spec «人が書いた値は、
// 起動の行が運べる形でだけ載る»): outside quotes one of & | < > ^ ( ) ends
// the line, and % expands a variable anywhere — before the line is split,
// so a value holding & would run as a command, and an env value would land
// on the command line (docs/design.md §9).
const CmdReactive = "& | < > ^ ( ) %"

// termName is the terminal type the child is told it runs in: our emulator
// follows xterm's sequences, 256 colours and truecolor (docs/dependencies.md §2).
const termName = "xterm-256color"

// Start starts o.Argv in a new pseudo-terminal of o.Cols×o.Rows cells and
// returns the running Proc. On Unix the child leads a new session with the PTY
// as its controlling terminal (Ctrl+C reaches it, and Kill reaches its whole
// process group); on Windows it runs in a ConPTY inside a Job object that is
// killed with it. With o.Isolate, on Linux the child is a namespace init
// and o.Argv its child (Pid and Kill are the init's, which passes Kill's
// signals on; isolate.go). Errors: ErrNoCommand, ErrNoWorkDir, ErrBadSize,
// or the wrapped OS error when the command cannot be found or started.
func Start(o Options) (Proc, error) {
	if len(o.Argv) == 0 || o.Argv[0] == "" {
		return nil, config.ErrNoCommand
	}
	if o.Dir == "" {
		return nil, config.ErrNoWorkDir
	}
	cols, rows, err := ptySize(o.Cols, o.Rows)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(o.Dir); err != nil {
		return nil, fmt.Errorf("start %s: working directory: %w", o.Argv[0], err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("start %s: working directory %s: %w", o.Argv[0], o.Dir, errors.New("not a directory"))
	}
	env := o.Env
	if env == nil {
		env = os.Environ()
	}
	c := child{argv: o.Argv, dir: o.Dir, env: withTerm(env), cols: cols, rows: rows}
	if o.Guard != "" && runtime.GOOS != "windows" {
		c.argv, c.guarded = guardLine(o.Guard, o.Argv), true
	}
	p, got, err := startIsolating(c, o.Isolate)
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", o.Argv[0], err)
	}
	o.Isolate.report(got)
	return p, nil
}

// ptySize applies the 80×24 default and checks the range.
func ptySize(cols, rows int) (int, int, error) {
	if cols == 0 {
		cols = DefaultCols
	}
	if rows == 0 {
		rows = DefaultRows
	}
	if err := CheckSize(cols, rows); err != nil {
		return 0, 0, err
	}
	return cols, rows, nil
}

// CheckSize reports ErrBadSize for a dimension outside 1…maxCells.
func CheckSize(cols, rows int) error {
	if cols < 1 || rows < 1 || cols > maxCells || rows > maxCells {
		return fmt.Errorf("%d×%d: %w", cols, rows, ErrBadSize)
	}
	return nil
}

// withTerm returns env with TERM=termName appended when env has no TERM.
// The caller's slice is never modified.
func withTerm(env []string) []string {
	for _, kv := range env {
		if strings.HasPrefix(kv, "TERM=") {
			return env
		}
	}
	out := make([]string, 0, len(env)+1)
	out = append(out, env...)
	return append(out, "TERM="+termName)
}

// treeHolder is a Proc that knows its own process tree (Windows: its Job
// object).
type treeHolder interface {
	Holds(pid int) bool
}

// Holds reports whether pid is p's child or one of the processes it
// started: by the Job object on Windows, by walking parents elsewhere
// (room/peer). The room takes a seat's token only from such a process
// (docs/design.md §6 "Seat identity").
func Holds(p Proc, pid int) bool {
	if h, ok := p.(treeHolder); ok {
		return h.Holds(pid)
	}
	return peer.InTree(pid, p.Pid())
}
