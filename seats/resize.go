package seats

import "time"

// resizeQuiet: a pane's size must hold this long before the seat's PTY
// takes it. Dragging a window or opening a panel sends a burst of sizes;
// each TIOCSWINSZ makes the CLI redraw its whole screen, so only the last
// is applied (measured before this: 21 window resizes gave 19 TIOCSWINSZ
// and 19 full redraws; docs/design.md §5 "Resize").
const resizeQuiet = 300 * time.Millisecond

// seatSize is the size the UI asked for (want) and the one the PTY and the
// emulator have (have), guarded by Seat.mu. begun: the child has written
// its first output; early: a size was applied before that, when the child
// may have read its size and not yet listened for a change.
type seatSize struct {
	want, have   [2]int
	begun, early bool
	warned       bool // a PTY resize failed and was logged as a warning
}

// winchSender is a Proc that can tell its foreground program to read its
// size again without a change (Unix: SIGWINCH). A same-size TIOCSWINSZ
// sends nothing, so this is how a size is re-applied.
type winchSender interface {
	Winch() error
}

// outputSignal is the seat's PTY as the reader sees it: the first byte the
// child writes closes Seat.output (the child has started), every read
// tells the typing queue the CLI drew something (Typist.Output), and an
// observed seat's activity (observe.go) that output arrived — announced
// when a burst begins.
type outputSignal struct{ s *Seat }

func (o outputSignal) Read(b []byte) (int, error) {
	n, err := o.s.proc.Read(b)
	if n > 0 {
		o.s.outputOnce.Do(func() { close(o.s.output) })
		if o.s.typist != nil {
			o.s.typist.Output()
		}
		if o.s.observed != nil && o.s.observed.output() && o.s.updated != nil {
			o.s.updated()
		}
	}
	return n, err
}

// resizer applies a seat's size (seats/doc.go, goroutines): after a burst
// of Resize calls once the size held for ResizeQuiet, and at the child's
// first output — then a pending size goes at once, and a size applied
// while the child was starting is applied again (Winch), because the child
// may have read the old size before it listened for SIGWINCH.
func (m *Manager) resizer(s *Seat) {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	var quiet <-chan time.Time
	output := s.output
	for {
		select {
		case <-s.done:
			// The screen stays readable after the exit: it takes the size.
			s.mu.Lock()
			want := s.size.want
			s.mu.Unlock()
			_ = s.screen.Resize(want[0], want[1])
			return
		case <-s.resizeKick:
			timer.Reset(m.opts.ResizeQuiet)
			quiet = timer.C
		case <-quiet:
			quiet = nil
			m.applySize(s, false)
		case <-output:
			output = nil
			timer.Stop()
			quiet = nil
			m.applySize(s, true)
		}
	}
}

// applySize gives the PTY and the emulator the size asked for, if it
// differs from theirs; at the child's start (started) it re-applies a size
// applied before then.
func (m *Manager) applySize(s *Seat, started bool) {
	s.mu.Lock()
	z := &s.size
	want, changed := z.want, z.want != z.have
	nudge := started && z.early && !changed
	if started {
		z.begun = true
	}
	if changed {
		z.have = want
		z.early = z.early || !z.begun
	}
	s.mu.Unlock()
	if !changed && !nudge {
		return
	}
	if changed {
		if err := s.screen.Resize(want[0], want[1]); err != nil {
			m.logger.Debug("resize screen", "topic", s.Topic, "account", s.Account, "err", err)
		}
	}
	s.ptyMu.Lock()
	defer s.ptyMu.Unlock()
	if s.ptyClosed {
		return // the child has exited; the screen alone keeps the size
	}
	// What the CLI draws in answer to its new size (a full redraw) is not
	// output of its own: to an observed seat's activity a resize is a write
	// into the terminal like a key (issue 35: a shell's pane said
	// "outputting" at every resize).
	s.noteWrite()
	defer s.noteWrite()
	var err error
	if changed {
		err = s.proc.Resize(want[0], want[1])
	} else if w, ok := s.proc.(winchSender); ok {
		err = w.Winch()
	}
	if err != nil {
		m.warnResize(s, err)
	}
}

// noteWrite tells an observed seat's activity that something was written
// into its terminal now (observe.go); other seats report their own.
func (s *Seat) noteWrite() {
	if s.observed != nil {
		s.observed.typed()
	}
}

// warnResize logs a failed PTY resize: the first of a seat as a warning
// (under Wine every ConPTY resize fails), the rest at debug level.
func (m *Manager) warnResize(s *Seat, err error) {
	s.mu.Lock()
	first := !s.size.warned
	s.size.warned = true
	s.mu.Unlock()
	if first {
		m.logger.Warn("resize pty", "topic", s.Topic, "account", s.Account, "err", err)
		return
	}
	m.logger.Debug("resize pty", "topic", s.Topic, "account", s.Account, "err", err)
}
