package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats"
	"github.com/pullcept/pullcept/tui"
)

// backend adapts the domain packages to tui.Backend (DESIGN §10): thin
// conversions only; every rule lives in room, seats, logstore and config.
type backend struct {
	a      *app
	events chan tui.AppEvent
	done   chan struct{}
	wg     sync.WaitGroup

	// skipped reports unreadable log lines once per new count (DESIGN §8:
	// skipped lines are reported, never silent); pending holds them for
	// forward, which alone sends on events.
	mu          sync.Mutex
	skipped     map[string]int
	pending     []tui.AppEvent
	pendingKick chan struct{}
}

var _ tui.Backend = (*backend)(nil)

func newBackend(a *app) *backend {
	b := &backend{a: a, events: make(chan tui.AppEvent), done: make(chan struct{}),
		skipped: map[string]int{}, pendingKick: make(chan struct{}, 1)}
	b.wg.Add(1)
	go b.forward()
	return b
}

// forward turns start-up warnings and seat events into UI events, in order.
// Owner: the backend; ends at close or when the seat manager closes.
func (b *backend) forward() {
	defer b.wg.Done()
	defer func() {
		if r := recover(); r != nil {
			b.a.logger.Error("backend forward panic", "panic", r)
		}
	}()
	send := func(e tui.AppEvent) bool {
		select {
		case b.events <- e:
			return true
		case <-b.done:
			return false
		}
	}
	for _, n := range b.a.notices {
		if !send(tui.Notice{Text: n}) {
			return
		}
	}
	for {
		b.mu.Lock()
		queued := b.pending
		b.pending = nil
		b.mu.Unlock()
		for _, e := range queued {
			if !send(e) {
				return
			}
		}
		select {
		case <-b.done:
			return
		case <-b.pendingKick:
		case e, ok := <-b.a.seats.Events():
			if !ok {
				return
			}
			var out tui.AppEvent
			switch e := e.(type) {
			case seats.SeatChanged:
				out = tui.SeatChanged{Topic: e.Info.Topic, Account: e.Info.Account, State: seatState(e.Info.Shown()),
					Requested: e.Info.Requested, ExitCode: e.Info.ExitCode, Err: e.Info.Err}
			case seats.SeatNotice:
				out = tui.Notice{Text: e.Text, Error: e.Error}
			default:
				continue
			}
			if !send(out) {
				return
			}
		}
	}
}

func (b *backend) close() {
	close(b.done)
	b.wg.Wait()
}

// --- Rooms ---

func (b *backend) Post(topicID string, d room.Draft) (room.Result, error) {
	if err := b.a.hub.OpenRoom(topicID); err != nil {
		return room.Result{}, err
	}
	return b.a.hub.Post(topicID, d)
}

func (b *backend) History(topicID, before string, limit int) ([]room.Post, bool, error) {
	posts, more, err := b.a.hub.History(topicID, before, limit)
	if n := b.a.store.Skipped(topicID); n > 0 {
		b.mu.Lock()
		if b.skipped[topicID] != n {
			b.skipped[topicID] = n
			b.pending = append(b.pending, tui.LinesSkipped{Topic: topicID, Count: n})
			b.a.logger.Warn("skipped unreadable log lines", "topic", topicID, "count", n)
		}
		b.mu.Unlock()
		select {
		case b.pendingKick <- struct{}{}:
		default:
		}
	}
	return posts, more, err
}

func (b *backend) Roster(topicID string) ([]room.Member, error) { return b.a.hub.Roster(topicID) }
func (b *backend) OpenRoom(topicID string) error                { return b.a.hub.OpenRoom(topicID) }
func (b *backend) CloseRoom(topicID string)                     { b.a.hub.CloseRoom(topicID) }
func (b *backend) RoomEvents() <-chan room.Event                { return b.a.sub.C() }

// --- TopicStore ---

func (b *backend) Topics() ([]tui.TopicInfo, error) {
	ts, err := b.a.store.Topics()
	if err != nil {
		return nil, err
	}
	running := map[string]bool{}
	for _, s := range b.a.seats.Seats("") {
		if s.State != seats.StateExited {
			running[s.Topic] = true
		}
	}
	out := make([]tui.TopicInfo, 0, len(ts))
	for _, t := range ts {
		out = append(out, tui.TopicInfo{ID: t.ID, Name: t.Name, LastActivity: t.LastActivity, Running: running[t.ID], Indexed: t.Indexed})
	}
	return out, nil
}

func (b *backend) NewTopic() (string, error) { return b.a.store.NewTopicID(), nil }

func (b *backend) RenameTopic(topicID, name string) error { return b.a.store.Rename(topicID, name) }

// DeleteTopic follows DESIGN §8: stop its seats → file → attachments →
// index entry → drop the room.
func (b *backend) DeleteTopic(topicID string) error {
	for _, acc := range b.a.seats.StopTopic(topicID) {
		b.a.seats.Forget(topicID, acc)
	}
	for _, s := range b.a.seats.Seats(topicID) {
		b.a.seats.Forget(topicID, s.Account)
	}
	if err := b.a.store.Delete(topicID); err != nil {
		return err
	}
	b.a.hub.CloseRoom(topicID)
	return nil
}

// --- SeatControl ---

// seatState maps a seat's stage as a person sees it (seats.SeatInfo.Shown)
// onto the panel's. A seat that ran and then ended is exited whatever its
// code; "failed" is for launches that never ran (StartSeat's error).
func seatState(s seats.State) tui.SeatState {
	switch s {
	case seats.StateStarting:
		return tui.SeatStarting
	case seats.StateRunning:
		return tui.SeatRunning
	case seats.StateExited:
		return tui.SeatExited
	}
	return tui.SeatOffline
}

func (b *backend) Seats(topicID string) []tui.SeatInfo {
	list := b.a.seats.Seats(topicID)
	out := make([]tui.SeatInfo, 0, len(list))
	for _, s := range list {
		in := tui.SeatInfo{Topic: s.Topic, Account: s.Account, State: seatState(s.Shown()), ExitCode: s.ExitCode}
		if s.Err != nil {
			in.Err = s.Err.Error()
		}
		if body, _, ok := b.a.hub.SeatReport(s.Topic, s.Account, room.ReportStatus); ok {
			if st, ok := seats.ParseClaudeStatus(body); ok {
				in.Model, in.Effort = st.Model(), st.Effort
				in.Context, in.FiveHour, in.Weekly = st.Context, st.FiveHour, st.Weekly
			}
		}
		out = append(out, in)
	}
	return out
}

func (b *backend) StartSeat(topicID, accountID string, cols, rows int) (tui.SeatStart, error) {
	res, err := b.a.seats.Start(topicID, accountID, cols, rows)
	if err != nil {
		return tui.SeatStart{Dropped: res.Dropped}, err
	}
	for _, w := range res.Warnings {
		b.a.logger.Warn("launch warning", "topic", topicID, "account", accountID, "warning", w)
	}
	return tui.SeatStart{Resumed: res.Resumed, SessionID: res.SessionID, Dropped: res.Dropped}, nil
}

func (b *backend) StopSeat(topicID, accountID string) error {
	return b.a.seats.Stop(topicID, accountID)
}

func (b *backend) seat(topicID, accountID string) (*seats.Seat, error) {
	s, ok := b.a.seats.Seat(topicID, accountID)
	if !ok {
		return nil, fmt.Errorf("seat %s in %s: %w", accountID, topicID, seats.ErrNoSeat)
	}
	return s, nil
}

func (b *backend) Snapshot(topicID, accountID string) (tui.PaneSnapshot, bool) {
	s, err := b.seat(topicID, accountID)
	if err != nil {
		return tui.PaneSnapshot{}, false
	}
	sn := s.Screen().Snapshot()
	return tui.PaneSnapshot{Rows: sn.Lines, Cols: sn.Cols, CursorX: sn.CursorX, CursorY: sn.CursorY,
		CursorVisible: sn.CursorVisible, Version: sn.Version, Title: sn.Title,
		BracketedPaste: sn.BracketedPaste, AppCursorKeys: sn.AppCursorKeys}, true
}

// scrollbackView bounds what one scrollback request copies (the emulator
// keeps at most 2 000 lines).
const scrollbackView = 2000

func (b *backend) Scrollback(topicID, accountID string) []string {
	s, err := b.seat(topicID, accountID)
	if err != nil {
		return nil
	}
	n := s.Screen().ScrollbackLen()
	return s.Screen().ScrollbackLines(max(0, n-scrollbackView), scrollbackView)
}

func (b *backend) SendInput(topicID, accountID string, p []byte) error {
	s, err := b.seat(topicID, accountID)
	if err != nil {
		return err
	}
	return s.Input(p)
}

func (b *backend) Resize(topicID, accountID string, cols, rows int) error {
	s, err := b.seat(topicID, accountID)
	if err != nil {
		return err
	}
	return s.Resize(cols, rows)
}

func (b *backend) ScreenChanged() <-chan struct{}  { return b.a.seats.Changed() }
func (b *backend) SeatEvents() <-chan tui.AppEvent { return b.events }

// --- AccountStore ---

func toInfo(a config.Account) tui.AccountInfo {
	return tui.AccountInfo{ID: a.ID, Kind: string(a.Kind), Name: a.Name, Nickname: a.Nickname, Hue: a.Hue,
		Dir: a.WorkDir, Command: a.Command, Options: a.LaunchOptions, ResumeLine: a.ResumeLine,
		Character: a.Character, Env: config.FormatEnv(a.Env)}
}

func toEdit(in tui.AccountInfo) config.AccountEdit {
	return config.AccountEdit{ID: in.ID, Kind: in.Kind, Name: in.Name, Nickname: in.Nickname, Hue: in.Hue,
		WorkDir: in.Dir, Command: in.Command, LaunchOptions: in.Options, ResumeLine: in.ResumeLine,
		Character: in.Character, Env: in.Env}
}

func (b *backend) Accounts() ([]tui.AccountInfo, error) {
	all := b.a.cfg.All()
	out := make([]tui.AccountInfo, 0, len(all))
	for _, a := range all {
		out = append(out, toInfo(a))
	}
	return out, nil
}

func (b *backend) SaveAccount(in tui.AccountInfo) (tui.AccountInfo, error) {
	a, err := b.a.cfg.Save(toEdit(in))
	if err != nil {
		return in, err
	}
	return toInfo(a), nil
}

// errAccountRunning refuses deleting an account whose seat runs somewhere.
var errAccountRunning = errors.New("account has a running seat; stop it first")

// DeleteAccount refuses an account whose seat runs in any topic (its seat
// would lose its identity), then deletes it from the book.
func (b *backend) DeleteAccount(id string) error {
	if admin, ok := b.a.cfg.Admin(); !ok || admin.ID != id {
		if b.a.seats.Running(id) {
			return errAccountRunning
		}
	}
	return b.a.cfg.Delete(id)
}

func (b *backend) Preview(in tui.AccountInfo) (string, []string) {
	a, err := b.a.cfg.Draft(toEdit(in))
	if err != nil {
		return "", []string{err.Error()}
	}
	return b.a.seats.Preview(a)
}

func (b *backend) LookPath(command string) (string, bool) {
	p, err := exec.LookPath(command)
	return p, err == nil
}

func (b *backend) HomeDir() string {
	h, _ := os.UserHomeDir()
	return h
}
