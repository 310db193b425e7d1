package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
)

// Terminal is an attached client's terminal, not this process's own: its
// bytes come and go through In and Out (an SSH session of `pullcept
// server`, docs/serve.md), and everything a UI reads from its terminal
// comes from the client: size, colours, locale and time zone. Nothing here
// is the server's: Bubble Tea's own tty probing, signals and suspend are
// for a process's own terminal (docs/serve.md "Bubble Tea over a socket").
type Terminal struct {
	In  io.Reader
	Out io.Writer
	// Width and Height are the client's size when it attached; Resize
	// carries each later size (closed or nil: the size never changes).
	Width, Height int
	Resize        <-chan Size
	// Quit, when closed, ends the UI as its human's quit would: the
	// client's terminal is restored (alternate screen, mouse, cursor)
	// before the session ends — the server is stopping.
	Quit <-chan struct{}
	// Env is the client's environment as it sent it (KEY=VALUE): TERM,
	// COLORTERM, NO_COLOR, LANG, LC_*, TZ, and what says which terminal
	// it is, inside tmux or not (app/serve.go clientEnv). It reaches the
	// UI only — never a seat's launch.
	Env []string
}

// Size is a terminal's size in cells.
type Size struct{ Width, Height int }

// RunOn shows the UI on an attached client's terminal until the client's
// human quits (detaches, or stops everything through opts.StopAll), the
// terminal goes away, or ctx ends. Like Run, a panic is the program's
// alone: Bubble Tea recovers it and only this client's UI ends.
func RunOn(ctx context.Context, b Backend, opts Options, t Terminal) error {
	if !SizeOK(t.Width, t.Height) {
		return fmt.Errorf("run ui: %w: %d×%d", ErrTerminalSize, t.Width, t.Height)
	}
	getenv := envLookup(t.Env)
	opts.Getenv = getenv
	if opts.Location == nil {
		opts.Location = clientZone(getenv("TZ"))
	}
	popts := []tea.ProgramOption{
		tea.WithInput(t.In),
		tea.WithOutput(t.Out),
		tea.WithEnvironment(t.Env),
		// No tty to ask: the profile is what the client's variables say
		// (the client checked its own terminal and sent COLORTERM).
		tea.WithColorProfile(colorprofile.Env(t.Env)),
		tea.WithWindowSize(t.Width, t.Height),
		// The server handles its own signals (app/serve.go): a UI's
		// SIGINT handler would end a client's program on the server's.
		tea.WithoutSignalHandler(),
		// ctrl+z must never stop the server that holds every seat.
		tea.WithFilter(func(_ tea.Model, msg tea.Msg) tea.Msg {
			if _, ok := msg.(tea.SuspendMsg); ok {
				return nil
			}
			return msg
		}),
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	m, err := New(b, opts)
	if err != nil {
		return fmt.Errorf("run ui: %w", err)
	}
	p := tea.NewProgram(m, append([]tea.ProgramOption{tea.WithContext(ctx), tea.WithFPS(FrameRate)}, popts...)...)
	resized := make(chan struct{})
	go func() {
		defer close(resized)
		defer func() { _ = recover() }() // a resize must not take the server down
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.Quit:
				p.Quit()
				return
			case s, ok := <-t.Resize:
				if !ok {
					return
				}
				if SizeOK(s.Width, s.Height) {
					p.Send(tea.WindowSizeMsg{Width: s.Width, Height: s.Height})
				}
			}
		}
	}()
	defer func() { cancel(); <-resized }()
	_, err = p.Run()
	if err != nil && !(ctx.Err() != nil && errors.Is(err, tea.ErrProgramKilled)) {
		return fmt.Errorf("run ui: %w", err)
	}
	return nil
}

// ErrTerminalSize: an attaching terminal asked for a size no terminal has;
// a buffer of it would take the server's memory (a 100000×100000 request
// ran it out of memory in Bubble Tea's first frame, issue 29's review).
var ErrTerminalSize = errors.New("terminal size out of range")

// SizeOK is Bubble Tea's own bound for a window size (it drops resizes
// beyond it, but not the size a program starts with): each side 1–4096,
// at most 1<<20 cells.
func SizeOK(w, h int) bool {
	return w >= 1 && h >= 1 && w <= 4096 && h <= 4096 && w*h <= 1<<20
}

// envLookup is os.Getenv over a client's KEY=VALUE list (the last one wins,
// as in a process's environment).
func envLookup(env []string) func(string) string {
	m := make(map[string]string, len(env))
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return func(k string) string { return m[k] }
}

// clientZone is the client's TZ as a location: a zone name (Asia/Tokyo) or
// ":" + one; unknown or empty is the server's local zone, as a process
// without TZ would show.
func clientZone(tz string) *time.Location {
	tz = strings.TrimPrefix(tz, ":")
	if tz == "" {
		return time.Local
	}
	if loc, err := time.LoadLocation(tz); err == nil {
		return loc
	}
	return time.Local
}
