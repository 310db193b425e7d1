package attachclient

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"
	"golang.org/x/crypto/ssh"
)

// ErrNoTerminal: attaching needs this process's input and output to be a
// terminal (ssh needs -t for it); nothing is started.
var ErrNoTerminal = errors.New("attaching needs a terminal (with ssh: ssh -t)")

// Options say what Attach attaches and how.
type Options struct {
	// DataDir is the data directory whose server to attach to ("" the
	// default, config.DataDir).
	DataDir string
	// Start starts a server when none runs (plain `pullcept`); false
	// makes that ErrNoServer (`pullcept attach`).
	Start bool
	// Exe is the pullcept executable a start runs ("" this one) and
	// ServerArgs extra arguments to its `server` command.
	Exe        string
	ServerArgs []string
	// In and Out are the terminal (os.Stdin, os.Stdout by default).
	In, Out *os.File
	// Getenv reads the variables sent to the UI (os.Getenv by default).
	Getenv func(string) string
}

// sentEnv are the variables the server's UI reads from its client: the
// terminal's colours, the locale and the time zone, which terminal it is
// and whether it is in tmux or an ssh session (the server keeps only
// these, app/serve.go clientEnv).
var sentEnv = []string{"COLORTERM", "NO_COLOR", "CLICOLOR_FORCE", "TERM_PROGRAM", "WT_SESSION",
	"LANG", "LC_ALL", "LC_MESSAGES", "LC_CTYPE", "TZ", "PULLCEPT_LANGUAGE",
	"TMUX", "LC_TERMINAL", "KITTY_WINDOW_ID", "WEZTERM_PANE", "GHOSTTY_RESOURCES_DIR", "KONSOLE_VERSION", "VTE_VERSION",
	"SSH_CONNECTION", "SSH_TTY"}

// Attach shows the data directory's server on this terminal until its
// human detaches (exit 0), stops everything, or the link drops. It returns
// the session's exit status.
func Attach(o Options) (int, error) {
	// This process's own terminal must be one; a caller that hands its own
	// In and Out (a test's pipes) knows what they are.
	if o.In == nil && o.Out == nil && (!term.IsTerminal(os.Stdin.Fd()) || !term.IsTerminal(os.Stdout.Fd())) {
		return 1, ErrNoTerminal
	}
	if o.In == nil {
		o.In = os.Stdin
	}
	if o.Out == nil {
		o.Out = os.Stdout
	}
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	dir, err := dataDir(o.DataDir)
	if err != nil {
		return 1, err
	}
	c, err := Dial(dir)
	if errors.Is(err, ErrNoServer) && o.Start {
		c, err = startAndDial(dir, o)
	}
	if err != nil {
		return 1, err
	}
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		return 1, err
	}
	defer sess.Close()
	if err := o.prepare(sess); err != nil {
		return 1, err
	}
	stdin, err := sess.StdinPipe()
	if err != nil {
		return 1, err
	}
	sess.Stdout, sess.Stderr = o.Out, os.Stderr
	if term.IsTerminal(o.In.Fd()) {
		st, err := term.MakeRaw(o.In.Fd())
		if err != nil {
			return 1, fmt.Errorf("raw mode: %w", err)
		}
		defer func() { _ = term.Restore(o.In.Fd(), st) }()
	}
	restoreOut, err := vtOutput(o.Out)
	if err != nil {
		return 1, err
	}
	defer restoreOut()
	stopSize := watchSize(o.Out, func(w, h int) { _ = sess.WindowChange(h, w) })
	defer stopSize()
	if err := sess.Shell(); err != nil {
		return 1, err
	}
	// SIGTERM or SIGHUP (the window closed) end this client only: the link
	// closes, the server's UI detaches, the raw mode is undone below.
	var signalled atomic.Bool
	stopSignals := onEndSignal(func() { signalled.Store(true); _ = c.Close() })
	defer stopSignals()
	// Not sess.Stdin: x/crypto's Wait would wait for that copy, which
	// waits for a key after the server said goodbye.
	go func() { _, _ = io.Copy(stdin, o.In) }()
	err = sess.Wait()
	var exit *ssh.ExitError
	switch {
	case err == nil:
		return 0, nil
	case errors.As(err, &exit):
		return exit.ExitStatus(), nil
	}
	// The link dropped before the UI could restore this terminal (a killed
	// server): undo what a UI turns on, as tmux's client does when its
	// server goes.
	_, _ = io.WriteString(o.Out, terminalReset)
	if signalled.Load() {
		return 1, errors.New("ended by a signal; the server and its seats run on (pullcept attach shows them again)")
	}
	return 1, fmt.Errorf("the server's session ended: %w", err)
}

// terminalReset leaves the alternate screen and turns off what the UI
// asks of a terminal: mouse reports, bracketed paste, focus events, the
// kitty keyboard and modifyOtherKeys; the cursor shows again.
const terminalReset = "\x1b[?1049l\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?2004l\x1b[?1004l\x1b[<u\x1b[>4;0m\x1b[?25h\x1b[0m\r\n"

// onEndSignal calls end once on SIGTERM or SIGHUP until stop is called.
func onEndSignal(end func()) (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGTERM, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		select {
		case <-ch:
			end()
		case <-done:
		}
	}()
	return func() { signal.Stop(ch); close(done) }
}

// prepare asks for a terminal of this size and type and sends the
// variables the UI reads. The colour profile is this terminal's, checked
// here: the server has no terminal to ask.
func (o Options) prepare(sess *ssh.Session) error {
	w, h := 80, 24
	if cw, ch, err := term.GetSize(o.Out.Fd()); err == nil && cw > 0 && ch > 0 {
		w, h = cw, ch
	}
	tt := o.Getenv("TERM")
	if tt == "" {
		tt = "xterm-256color"
	}
	for _, k := range sentEnv {
		if v := o.Getenv(k); v != "" {
			// The server may refuse one (over its size): the UI then goes
			// without it, as a program would without the variable.
			_ = sess.Setenv(k, v)
		}
	}
	if o.Getenv("COLORTERM") == "" {
		env := []string{"TERM=" + tt}
		for _, k := range sentEnv {
			env = append(env, k+"="+o.Getenv(k))
		}
		if colorprofile.Detect(o.Out, env) == colorprofile.TrueColor {
			_ = sess.Setenv("COLORTERM", "truecolor")
		}
	}
	return sess.RequestPty(tt, h, w, ssh.TerminalModes{})
}
