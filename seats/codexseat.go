package seats

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/pullcept/pullcept/config"
)

// The Manager's side of app-server Codex seats (codexserver.go): start the
// server before the TUI, adopt it when the seat goes live, watch it while
// the seat runs (docs/design.md §9 "Codex app-server seats").

// codexOpenTimeout bounds opening the conversation (connect, initialize,
// config/read, thread/start or thread/resume, inject): each call has its
// own bound too (codexCallTimeout).
const codexOpenTimeout = 2 * time.Minute

// earlyJoin is what the room said of a seat before it was listed: an
// app-server seat's sidecar is the server's child and joins while the TUI
// is not started yet. goLive applies it.
type earlyJoin struct{ joined, ready, stopped bool }

// stopStarting tells a start of key under way to give up (Stop); false
// when none is.
func (m *Manager) stopStarting(key seatKey) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	ej := m.starting[key]
	if ej == nil {
		return false
	}
	ej.stopped = true
	return true
}

// startStopped reports whether Stop asked key's start to give up.
func (m *Manager) startStopped(key seatKey) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	ej := m.starting[key]
	return ej != nil && ej.stopped
}

// startCodexServer starts p's server, opens the conversation, records a new
// conversation's id in the topic at once, and makes p's launch the TUI line
// attached to it, with the bearer token in the TUI's environment only.
// Start's cleanup (abandonCodexServer) undoes it when the seat does not go
// live.
func (m *Manager) startCodexServer(p *startPlan) error {
	l := p.launch
	cs, err := startCodexProcess(m.spawn, m.opts.PullceptPath, l.Server.Argv, l.Dir, p.serverEnv, m.logger)
	if err != nil {
		return err
	}
	p.server = cs
	o := codexOpen{cwd: l.Dir, plan: l.Server, key: l.MCPKey, acct: p.acct}
	if l.Resumed {
		o.resume = l.SessionID
	}
	if p.acct.Character != "" {
		o.readBody = func() (string, error) { return codexCharacterBody(p.acct) }
	}
	ctx, cancel := context.WithTimeout(context.Background(), codexOpenTimeout)
	defer cancel()
	if err := cs.open(ctx, o); err != nil {
		return fmt.Errorf("%w%s", err, cs.tail())
	}
	if !l.Resumed {
		m.mu.Lock()
		m.claimed[cs.thread] = true
		m.mu.Unlock()
		if err := m.opts.Sessions.RecordSession(p.topic, p.account, cs.thread); err != nil {
			return fmt.Errorf("record the conversation %s: %w", cs.thread, err)
		}
		p.launch.SessionID, p.res.SessionID = cs.thread, cs.thread
	}
	argv := make([]string, len(l.Argv))
	for i, w := range l.Argv {
		w = strings.ReplaceAll(w, CodexPortWord, cs.port)
		argv[i] = strings.ReplaceAll(w, CodexThreadWord, cs.thread)
	}
	p.launch.Argv = argv
	p.env = append(p.env, EnvCodexRemoteToken+"="+cs.token)
	cs.mark = cs.conn.seq() // notes after this one come after the TUI started
	m.logger.Info("codex app-server ready", "topic", p.topic, "account", p.account, "pid", cs.proc.Pid(),
		"port", cs.port, "thread", cs.thread, "resumed", l.Resumed)
	return nil
}

// abandonCodexServer undoes startCodexServer for a seat that does not go
// live: the conversation it created is deleted and its record dropped, then
// the server's tree is ended (spec #299 «起動の途中で失敗したら、作った会話を
// thread/delete で消してから server を止める»).
func (m *Manager) abandonCodexServer(p *startPlan) {
	cs := p.server
	if cs.created {
		if err := cs.deleteThread(); err != nil {
			m.logger.Warn("codex app-server: delete the conversation of a failed start", "thread", cs.thread, "err", err)
		}
		if _, err := m.opts.Sessions.DropSessionIf(p.topic, p.account, cs.thread); err != nil {
			m.logger.Warn("drop session", "err", err)
		}
		m.mu.Lock()
		delete(m.claimed, cs.thread)
		m.mu.Unlock()
	}
	cs.stop()
}

// codexCharacterBody is the account's character as the conversation gets
// it: the style file's text without its frontmatter. A named character
// whose file is missing refuses the start (never a seat without the
// character it was given).
func codexCharacterBody(a config.Account) (string, error) {
	f, err := OpenCharacter(config.KindCodexCLI, a.WorkDir, a.Character)
	if err != nil {
		return "", err
	}
	if !f.Exists {
		return "", fmt.Errorf("%w: character %q: %s does not exist", ErrCharacterName, a.Character, f.Rel)
	}
	return stripFrontmatter(f.Text), nil
}

// stripFrontmatter drops a leading YAML frontmatter block (--- … ---).
func stripFrontmatter(text string) string {
	rest, ok := strings.CutPrefix(text, "---\n")
	if !ok {
		return text
	}
	end := strings.Index(rest, "\n---")
	if end < 0 {
		return text
	}
	after := rest[end+4:]
	if after != "" && after[0] != '\n' && after[0] != '\r' {
		return text
	}
	return strings.TrimLeft(after, "\r\n")
}

// adoptCodexServer makes the live seat s the reader of its server's notes:
// the ones kept since the conversation opened first, then each as it comes.
// Room typing already waits for the TUI to attach (HoldAttach, set by
// spawnSeat before the seat could take a post).
func (m *Manager) adoptCodexServer(s *Seat, cs *codexServer) {
	s.mu.Lock()
	s.codexAct = newCodexActivity(cs.thread)
	s.usage = Usage{Model: cs.answer.Model, Effort: cs.answer.Effort, At: m.opts.Now()}
	s.mu.Unlock()
	cs.conn.setHandler(func(n codexNote) { m.codexNote(s, cs, n) })
}

// codexNote applies one note of s's server to its activity and typing holds.
func (m *Manager) codexNote(s *Seat, cs *codexServer, n codexNote) {
	now := m.opts.Now()
	s.mu.Lock()
	changed := s.codexAct.apply(n, now)
	s.activity = s.codexAct.act
	if w := s.codexAct.perm(s.perm); !w.equal(s.perm) {
		s.setPerm(w)
		changed = true
	}
	s.mu.Unlock()
	if n.Seq > cs.mark && noteThread(n) == cs.thread {
		cs.attachOnce.Do(func() { close(cs.attached) })
	}
	if changed {
		m.emit(SeatUpdated{Topic: s.Topic, Account: s.Account})
	}
}

// noteThread is the thread a note names ("" none).
func noteThread(n codexNote) string {
	var b struct {
		ThreadID string `json:"threadId"`
	}
	if json.Unmarshal(n.Params, &b) != nil {
		return ""
	}
	return b.ThreadID
}

// watchCodexServer runs while s lives (a goSeat goroutine, doc.go): it
// lets room typing go once the TUI attached, shows a lost connection as an
// unknown activity, and ends the TUI when the server dies under it (the
// seat then shows exited with a notice; the server is never restarted).
func (m *Manager) watchCodexServer(s *Seat, cs *codexServer) {
	output, attached, conn := s.output, cs.attached, cs.conn.Done()
	var fallback <-chan time.Time
	for {
		select {
		case <-s.done:
			return
		case <-output:
			output = nil
			t := time.NewTimer(codexAttachFallback)
			defer t.Stop()
			fallback = t.C
		case <-attached:
			attached, fallback = nil, nil
			s.typist.Release(HoldAttach)
		case <-fallback:
			attached, fallback = nil, nil
			m.logger.Info("codex seat: no note of the TUI attaching; room typing goes on", "topic", s.Topic, "account", s.Account)
			s.typist.Release(HoldAttach)
		case <-conn:
			conn = nil
			s.mu.Lock()
			s.activity = Activity{}
			s.codexAct = newCodexActivity(cs.thread)
			s.setPerm(permWait{})
			s.mu.Unlock()
			m.emit(SeatUpdated{Topic: s.Topic, Account: s.Account})
			if !cs.stopping.Load() {
				m.logger.Warn("codex app-server connection lost; the seat's activity is unknown", "topic", s.Topic, "account", s.Account)
			}
		case <-cs.exited:
			if cs.stopping.Load() {
				return
			}
			m.notice(s.Topic, s.Account, true, "the Codex app-server of this seat exited (code %d); its terminal is closed%s", cs.code, cs.tail())
			_ = s.proc.Kill()
			return
		}
	}
}

// startingSeat notes a start in progress for key (earlyJoin).
func (m *Manager) startingSeat(key seatKey) {
	m.mu.Lock()
	m.starting[key] = &earlyJoin{}
	m.mu.Unlock()
}

// startEnded forgets key's start; it returns what the room said meanwhile.
// Caller holds m.mu.
func (m *Manager) startEnded(key seatKey) earlyJoin {
	ej := m.starting[key]
	delete(m.starting, key)
	if ej == nil {
		return earlyJoin{}
	}
	return *ej
}

// earlySidecar records a join or ready of a seat still starting; false
// when no start of key is in progress.
func (m *Manager) earlySidecar(key seatKey, ready bool) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	ej := m.starting[key]
	if ej == nil {
		return false
	}
	if ready {
		ej.ready = true
	} else {
		ej.joined = true
	}
	return true
}
