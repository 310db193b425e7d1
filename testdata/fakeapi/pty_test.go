//go:build linux || darwin

package fakeapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode"

	"github.com/charmbracelet/x/ansi"
	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"github.com/pullcept/pullcept/seats/terminal"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// typingGap is the pause between a post and its Enter, as the room types
// it (docs/design.md §5: a paste then Enter; a "\r" in the same write is dropped by
// Claude Code and taken as a newline by Codex).
const typingGap = 200 * time.Millisecond

// exitWait bounds how long a CLI may take to exit after its quit keys or
// a signal; both CLIs exit in well under a second when healthy (scaled).
var exitWait = testkit.Slow(20 * time.Second)

// ttyCols, ttyRows: a roomy pane, so no footer hint is cut off.
const ttyCols, ttyRows = 160, 50

// cliTTY is a real CLI running in a PTY (its own session) whose output
// feeds a terminal emulator (terminal.Screen, as a Pullcept seat pane does), so tests
// match what the screen shows rather than raw bytes: both TUIs redraw only
// changed cells, so a phrase is rarely contiguous in the byte stream.
type cliTTY struct {
	t      *testing.T
	name   string
	cmd    *exec.Cmd
	master *os.File

	mu      sync.Mutex // guards changed and lastOut
	emu     *terminal.Screen
	replies chan []byte // the emulator's answers, for forwardReplies
	changed chan struct{}
	lastOut time.Time // when the CLI last wrote output

	exited   chan struct{} // closed when Wait returned
	exitErr  error
	readEnd  chan struct{} // closed when the reader ended
	replyEnd chan struct{} // closed when the reply forwarder ended
}

// startTTY starts argv in a PTY with env and dir. Cleanup kills the whole
// process group if the CLI is still running, reaps it, and closes the PTY.
func startTTY(t *testing.T, name string, argv, env []string, dir string) *cliTTY {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env, cmd.Dir = env, dir
	// StartWithSize sets Setsid+Setctty: the CLI leads its own session, so
	// Ctrl+C typed into the PTY reaches it and one kill(-pid) reaches every
	// child it did not move to another session.
	ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: ttyRows, Cols: ttyCols})
	if err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	master, err := pollable(ptmx)
	if err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("start %s: %v", name, err)
	}
	c := &cliTTY{t: t, name: name, cmd: cmd, master: master, replies: make(chan []byte, 256),
		changed: make(chan struct{}), exited: make(chan struct{}),
		readEnd: make(chan struct{}), replyEnd: make(chan struct{})}
	// The reply function runs on the reader's goroutine: it only queues
	// (a CLI asks a handful of questions, never 256 unanswered).
	c.emu, err = terminal.NewScreen(ttyCols, ttyRows, func(b []byte) {
		select {
		case c.replies <- b:
		default:
		}
	})
	if err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("start %s: %v", name, err)
	}
	go c.read()
	go c.forwardReplies()
	go c.reap()
	t.Cleanup(c.cleanup)
	return c
}

// pollable re-opens the PTY master as a non-blocking, poller-backed file.
// creack/pty's master is in blocking mode (its Fd() call switches it), so a
// Close would neither wake a blocked Read nor hang up the child
// (docs/dependencies.md §1.1); a dup in non-blocking mode fixes both through the
// os.File API.
func pollable(ptmx *os.File) (*os.File, error) {
	defer ptmx.Close()
	fd, err := unix.Dup(int(ptmx.Fd()))
	if err != nil {
		return nil, fmt.Errorf("dup pty master: %w", err)
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("pty master nonblock: %w", err)
	}
	return os.NewFile(uintptr(fd), "ptmx"), nil
}

func (c *cliTTY) read() {
	defer close(c.readEnd)
	defer func() {
		if p := recover(); p != nil {
			c.t.Errorf("%s pty reader panic: %v", c.name, p)
		}
	}()
	buf := make([]byte, 32<<10)
	for {
		n, err := c.master.Read(buf)
		if n > 0 {
			// Write only fails once the emulator is closed (cleanup, after
			// this goroutine ended). Flush places a trailing cluster now
			// rather than after the Screen's hold, so a wait sees it.
			_, _ = c.emu.Write(buf[:n])
			c.emu.Flush()
			c.mu.Lock()
			c.lastOut = time.Now()
			close(c.changed)
			c.changed = make(chan struct{})
			c.mu.Unlock()
		}
		if err != nil {
			// EIO after the child exits is Linux's EOF on a PTY master.
			return
		}
	}
}

// forwardReplies writes the emulator's answers to terminal queries (cursor
// position, device attributes …) back to the CLI, as a real terminal does,
// off the reader's goroutine (a write to a CLI that is not reading must not
// stop the reading). It ends when cleanup closes c.replies.
func (c *cliTTY) forwardReplies() {
	defer close(c.replyEnd)
	defer func() {
		if p := recover(); p != nil {
			c.t.Errorf("%s reply forwarder panic: %v", c.name, p)
		}
	}()
	// Write errors after the CLI exited are expected; the copy then keeps
	// draining until the pipe closes.
	for b := range c.replies {
		_, _ = c.master.Write(b)
	}
}

func (c *cliTTY) reap() {
	defer close(c.exited)
	defer func() {
		if p := recover(); p != nil {
			c.t.Errorf("%s reaper panic: %v", c.name, p)
		}
	}()
	err := c.cmd.Wait()
	c.mu.Lock()
	c.exitErr = err
	close(c.changed)
	c.changed = make(chan struct{})
	c.mu.Unlock()
}

func (c *cliTTY) cleanup() {
	select {
	case <-c.exited:
	default:
		_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
		select {
		case <-c.exited:
		case <-time.After(exitWait):
			c.t.Errorf("%s: not reaped %v after SIGKILL", c.name, exitWait)
		}
	}
	// Children the CLI left in its process group (MCP servers).
	_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
	c.master.Close()
	<-c.readEnd
	close(c.replies) // the reader, the only sender, has ended
	<-c.replyEnd
	_ = c.emu.Close()
	if c.t.Failed() {
		c.t.Logf("%s screen:\n%s", c.name, c.screen())
	}
}

// screen returns the emulator's scrollback and visible screen as plain
// text, one line per row.
func (c *cliTTY) screen() string {
	var b strings.Builder
	for _, l := range c.emu.ScrollbackLines(0, c.emu.ScrollbackLen()) {
		b.WriteString(strings.TrimRight(ansi.Strip(l), " "))
		b.WriteByte('\n')
	}
	b.WriteString(c.emu.Text())
	return b.String()
}

// squash removes every space and lower-cases, so a phrase matches however
// the TUI wrapped or padded it.
func squash(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return unicode.ToLower(r)
	}, s)
}

// waitScreen waits until the visible screen contains any of phrases
// (compared squashed) and returns the one found. It fails the test when
// ctx ends or the CLI exits first.
func (c *cliTTY) waitScreen(ctx context.Context, phrases ...string) string {
	c.t.Helper()
	var found string
	c.waitScreenFunc(ctx, fmt.Sprintf("%q", phrases), func(screen string) bool {
		for _, p := range phrases {
			if strings.Contains(screen, squash(p)) {
				found = p
				return true
			}
		}
		return false
	})
	return found
}

// waitScreenFunc waits until cond holds for the squashed visible screen.
// It fails the test when ctx ends or the CLI exits first.
func (c *cliTTY) waitScreenFunc(ctx context.Context, what string, cond func(screen string) bool) {
	c.t.Helper()
	for {
		c.mu.Lock()
		screen, ch := squash(c.emu.Text()), c.changed
		c.mu.Unlock()
		if cond(screen) {
			return
		}
		select {
		case <-c.exited:
			c.t.Fatalf("%s exited (%v) before showing %s", c.name, c.exitErr, what)
		case <-ch:
		case <-ctx.Done():
			c.t.Fatalf("%s: waiting for %s: %v", c.name, what, ctx.Err())
		}
	}
}

// waitQuiet waits until the CLI has written nothing for quiet, counted
// from now at the earliest: the condition the room's typing queue waits for
// before it types a post (docs/design.md §5). It fails the test when ctx
// ends or the CLI exits first.
func (c *cliTTY) waitQuiet(ctx context.Context, quiet time.Duration) {
	c.t.Helper()
	since := time.Now()
	for {
		c.mu.Lock()
		last, ch := c.lastOut, c.changed
		c.mu.Unlock()
		if last.Before(since) {
			last = since
		}
		left := quiet - time.Since(last)
		if left <= 0 {
			return
		}
		timer := time.NewTimer(left)
		select {
		case <-c.exited:
			timer.Stop()
			c.t.Fatalf("%s exited (%v) while waiting for %v of quiet", c.name, c.exitErr, quiet)
		case <-ch:
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
			c.t.Fatalf("%s: waiting for %v of quiet: %v", c.name, quiet, ctx.Err())
		}
		timer.Stop()
	}
}

// write sends b to the CLI in one write.
func (c *cliTTY) write(b string) {
	c.t.Helper()
	if _, err := io.WriteString(c.master, b); err != nil {
		c.t.Fatalf("%s: write: %v", c.name, err)
	}
}

// typePost types a room post the way the room does (docs/design.md §5): tag line,
// "\n" and body in one write, then "\r" typingGap later in its own write.
func (c *cliTTY) typePost(ctx context.Context, tagLine, body string) {
	c.t.Helper()
	c.write(tagLine + "\n" + body)
	select {
	case <-time.After(typingGap):
	case <-ctx.Done():
		c.t.Fatalf("%s: typing: %v", c.name, ctx.Err())
	}
	c.write("\r")
}

// quitRetry is how long quit waits after its first Ctrl+C for the exit or
// the "press again" hint before pressing once more. Both CLIs react within
// ~150 ms when idle; 5 s covers a loaded 2-core box (scaled: an early
// press is the harm). Pressing again after the CLI began to exit would
// reach it as SIGINT once it restored the terminal's cooked mode, so quit
// never presses early.
var quitRetry = testkit.Slow(5 * time.Second)

// busyMarker is shown by both TUIs while a turn runs (Claude Code's footer,
// Codex's "Working (… • esc to interrupt)" line); Ctrl+C then interrupts
// the turn instead of quitting.
const busyMarker = "esc to interrupt"

// waitIdle waits until the screen shows done (the turn's closing text)
// and no busyMarker: the turn ended and its hooks ran.
func (c *cliTTY) waitIdle(ctx context.Context, done string) {
	c.t.Helper()
	c.waitScreenFunc(ctx, fmt.Sprintf("%q and no %q", done, busyMarker), func(screen string) bool {
		return strings.Contains(screen, squash(done)) && !strings.Contains(screen, squash(busyMarker))
	})
}

// quit quits an idle CLI with Ctrl+C: one press, then, if the screen shows
// one of hints ("press again"), a second. Claude Code 2.1.328 needs two
// ("Press Ctrl-C again to exit"); Codex 0.169.0 quits on one when the
// composer is empty. If neither the exit nor a hint comes within quitRetry
// the press was lost and quit presses once more. It returns the exit error
// and fails the test when ctx ends first.
func (c *cliTTY) quit(ctx context.Context, hints ...string) error {
	c.t.Helper()
	for press := 1; press <= 2; press++ {
		pressed := time.Now()
		c.write("\x03")
		step, cancel := context.WithTimeout(ctx, quitRetry)
		exited := c.waitExitOrScreen(step, hints...)
		lost := step.Err() != nil
		cancel()
		c.t.Logf("%s: Ctrl+C %d → exited %v, hint %v after %v", c.name, press, exited, !exited && !lost,
			time.Since(pressed).Round(time.Millisecond))
		switch {
		case exited:
			return c.waitExit(ctx)
		case !lost:
			c.write("\x03")
			return c.waitExit(ctx)
		}
	}
	c.t.Fatalf("%s: Ctrl+C showed neither an exit nor %q", c.name, hints)
	return nil
}

// waitExitOrScreen waits until the CLI exits (true) or the screen shows
// one of phrases (false), or ctx ends (false).
func (c *cliTTY) waitExitOrScreen(ctx context.Context, phrases ...string) bool {
	for {
		c.mu.Lock()
		screen, ch := squash(c.emu.Text()), c.changed
		c.mu.Unlock()
		select {
		case <-c.exited:
			return true
		default:
		}
		for _, p := range phrases {
			if strings.Contains(screen, squash(p)) {
				return false
			}
		}
		select {
		case <-c.exited:
			return true
		case <-ch:
		case <-ctx.Done():
			return false
		}
	}
}

// waitExit waits for the CLI process to end and returns its exit error.
func (c *cliTTY) waitExit(ctx context.Context) error {
	c.t.Helper()
	select {
	case <-c.exited:
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.exitErr
	case <-ctx.Done():
		c.t.Fatalf("%s: waiting for exit: %v", c.name, ctx.Err())
		return errors.New("unreachable")
	}
}
