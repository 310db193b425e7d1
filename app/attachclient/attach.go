package attachclient

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"
	"golang.org/x/crypto/ssh"
)

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
// terminal's colours, the locale and the time zone (the server keeps only
// these, app/serve.go clientEnv).
var sentEnv = []string{"COLORTERM", "NO_COLOR", "CLICOLOR_FORCE", "TERM_PROGRAM", "WT_SESSION",
	"LANG", "LC_ALL", "LC_MESSAGES", "LC_CTYPE", "TZ"}

// Attach shows the data directory's server on this terminal until its
// human detaches (exit 0), stops everything, or the link drops. It returns
// the session's exit status.
func Attach(o Options) (int, error) {
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
	return 1, fmt.Errorf("the server's session ended: %w", err)
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
			if err := sess.Setenv(k, v); err != nil {
				return fmt.Errorf("send %s: %w", k, err)
			}
		}
	}
	if o.Getenv("COLORTERM") == "" {
		env := []string{"TERM=" + tt}
		for _, k := range sentEnv {
			env = append(env, k+"="+o.Getenv(k))
		}
		if colorprofile.Detect(o.Out, env) == colorprofile.TrueColor {
			if err := sess.Setenv("COLORTERM", "truecolor"); err != nil {
				return err
			}
		}
	}
	return sess.RequestPty(tt, h, w, ssh.TerminalModes{})
}
