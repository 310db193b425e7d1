package main

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats"
	"github.com/pullcept/pullcept/tui"
)

// configBook serialises access to config.json's accounts (config.Config is
// not safe for concurrent use): the UI edits it, the room and the seats read
// it. It implements room.Accounts.
type configBook struct {
	dir string
	mu  sync.Mutex
	cfg *config.Config
}

// AccountKind is room.Accounts: the kind named in a hello sets the role.
func (c *configBook) AccountKind(id string) (string, bool) {
	a, ok := c.Account(id)
	if !ok {
		return "", false
	}
	return string(a.Kind), true
}

// Account returns a copy of the account with id.
func (c *configBook) Account(id string) (config.Account, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cfg.Account(id)
}

// Admin is this screen's human.
func (c *configBook) Admin() (config.Account, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cfg.Admin()
}

// UI returns config.json's UI settings (keys, language).
func (c *configBook) UI() (config.UI, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cfg.UI()
}

// All returns copies of every account.
func (c *configBook) All() []config.Account {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]config.Account(nil), c.cfg.Accounts...)
}

// Put creates or replaces an account and saves config.json; on any error the
// in-memory config is left as it was.
func (c *configBook) Put(a config.Account) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	old := append([]config.Account(nil), c.cfg.Accounts...)
	if i := c.cfg.Index(a.ID); i >= 0 {
		c.cfg.Accounts[i] = a
	} else {
		c.cfg.Accounts = append(c.cfg.Accounts, a)
	}
	if err := c.cfg.Save(c.dir); err != nil {
		c.cfg.Accounts = old
		return err
	}
	return nil
}

// Delete removes an account and saves config.json.
func (c *configBook) Delete(id string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	i := c.cfg.Index(id)
	if i < 0 {
		return fmt.Errorf("delete account %s: %w", id, seats.ErrUnknownAccount)
	}
	old := append([]config.Account(nil), c.cfg.Accounts...)
	c.cfg.Accounts = append(c.cfg.Accounts[:i:i], c.cfg.Accounts[i+1:]...)
	if err := c.cfg.Save(c.dir); err != nil {
		c.cfg.Accounts = old
		return err
	}
	return nil
}

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
				out = tui.SeatChanged{Topic: e.Info.Topic, Account: e.Info.Account, State: seatState(e.Info, b.kindOf(e.Info.Account)),
					Requested: e.Info.Requested, ExitCode: e.Info.ExitCode, Err: e.Info.Err}
				if e.Info.State == seats.StateExited && e.Info.Err == nil && !e.Info.Requested && e.Info.ExitCode > 128 {
					out = tui.SeatChanged{Topic: e.Info.Topic, Account: e.Info.Account, State: tui.SeatExited,
						ExitCode: e.Info.ExitCode, Err: fmt.Errorf("killed by signal %d (exit code %d)", e.Info.ExitCode-128, e.Info.ExitCode)}
				}
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

// kindOf is the kind of an account ("" when unknown).
func (b *backend) kindOf(accountID string) config.Kind {
	a, _ := b.a.cfg.Account(accountID)
	return a.Kind
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
		last := t.LastActivity
		if last.IsZero() {
			last = t.CreatedAt
		}
		out = append(out, tui.TopicInfo{ID: t.ID, Name: t.Name, LastActivity: last, Running: running[t.ID], Indexed: t.Indexed})
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

// seatState maps a seat's life stage onto the panel's. kind is the
// account's: a generic CLI may never join the room (bash has no MCP), so
// for it "starting" (process up, no sidecar yet) already shows as running —
// its liveness is its process (DESIGN §9).
func seatState(s seats.SeatInfo, kind config.Kind) tui.SeatState {
	switch s.State {
	case seats.StateStarting:
		if kind == config.KindCLI {
			return tui.SeatRunning
		}
		return tui.SeatStarting
	case seats.StateRunning:
		return tui.SeatRunning
	case seats.StateExited:
		// A seat that ran and then ended is "exited" whatever its code (the
		// status line shows the code, the pane its last output); "failed"
		// is for launches that never ran (StartSeat's error).
		return tui.SeatExited
	}
	return tui.SeatOffline
}

// statusReport is the part of Claude Code's status line JSON the panel shows
// (research/claude-code-e2e.md step 5a); rate_limits only for subscriptions.
type statusReport struct {
	Model struct {
		DisplayName string `json:"display_name"`
		ID          string `json:"id"`
	} `json:"model"`
	Effort struct {
		Level string `json:"level"`
	} `json:"effort"`
	ContextWindow struct {
		UsedPercentage *float64 `json:"used_percentage"`
	} `json:"context_window"`
	RateLimits struct {
		FiveHour struct {
			UsedPercentage *float64 `json:"used_percentage"`
		} `json:"five_hour"`
		SevenDay struct {
			UsedPercentage *float64 `json:"used_percentage"`
		} `json:"seven_day"`
	} `json:"rate_limits"`
}

func (b *backend) Seats(topicID string) []tui.SeatInfo {
	list := b.a.seats.Seats(topicID)
	out := make([]tui.SeatInfo, 0, len(list))
	for _, s := range list {
		in := tui.SeatInfo{Topic: s.Topic, Account: s.Account, State: seatState(s, b.kindOf(s.Account)), ExitCode: s.ExitCode}
		if s.Err != nil {
			in.Err = s.Err.Error()
		}
		if body, _, ok := b.a.hub.SeatReport(s.Topic, s.Account, room.ReportStatus); ok {
			var st statusReport
			if json.Unmarshal(body, &st) == nil {
				in.Model = st.Model.DisplayName
				if in.Model == "" {
					in.Model = st.Model.ID
				}
				in.Effort = st.Effort.Level
				in.Context = st.ContextWindow.UsedPercentage
				in.FiveHour = st.RateLimits.FiveHour.UsedPercentage
				in.Weekly = st.RateLimits.SevenDay.UsedPercentage
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

// fromInfo applies the editor's fields onto the stored account (keeping the
// keys the editor does not show) or a new one.
func (b *backend) fromInfo(in tui.AccountInfo) (config.Account, error) {
	a, ok := b.a.cfg.Account(in.ID)
	if !ok {
		a = config.Account{ID: in.ID}
	}
	env, err := config.ParseEnv(in.Env)
	if err != nil {
		return a, err
	}
	a.Kind, a.Name, a.Nickname, a.Hue = config.Kind(in.Kind), strings.TrimSpace(in.Name), strings.TrimSpace(in.Nickname), in.Hue
	a.WorkDir, a.Command, a.LaunchOptions = strings.TrimSpace(in.Dir), strings.TrimSpace(in.Command), in.Options
	a.ResumeLine, a.Character, a.Env = in.ResumeLine, in.Character, env
	return a, nil
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
	if in.ID == "" {
		id, err := newAccountID(in.Name, b.a.cfg)
		if err != nil {
			return in, err
		}
		in.ID = id
	}
	a, err := b.fromInfo(in)
	if err != nil {
		return in, err
	}
	if err := b.a.cfg.Put(a); err != nil {
		return in, err
	}
	return toInfo(a), nil
}

// errAccountRunning refuses deleting an account whose seat runs somewhere.
var errAccountRunning = errors.New("account has a running seat; stop it first")

func (b *backend) DeleteAccount(id string) error {
	if admin, ok := b.a.cfg.Admin(); ok && admin.ID == id {
		return errors.New("the screen's own admin account cannot be deleted")
	}
	if b.a.seats.Running(id) {
		return errAccountRunning
	}
	return b.a.cfg.Delete(id)
}

// previewSessionID stands in for the fresh session id a launch will make.
const previewSessionID = "<new-session-id>"

func (b *backend) Preview(in tui.AccountInfo) (string, []string) {
	a, err := b.fromInfo(in)
	if err != nil {
		return "", []string{err.Error()}
	}
	if a.ID == "" {
		a.ID = "new-account"
	}
	li := seats.LaunchInput{Account: a, TopicID: "topic", PullceptPath: b.pullceptPath(),
		RoomURL: b.a.server.URL(), HooksURL: b.a.server.HooksURL(),
		NewID: func() (string, error) { return previewSessionID, nil }}
	if seats.ReadsMCPJSON(a.Kind) && a.WorkDir != "" {
		if st, err := seats.InspectMCPJSON(a.WorkDir, seats.MCPKey(a.ID, li.TopicID), li.RoomURL); err == nil {
			li.MCPJSON = &st
		}
	}
	l, err := seats.BuildLaunch(li)
	if err != nil {
		return "", []string{err.Error()}
	}
	return l.Preview, l.Warnings
}

func (b *backend) pullceptPath() string {
	p, err := os.Executable()
	if err != nil {
		return "pullcept"
	}
	return p
}

func (b *backend) LookPath(command string) (string, bool) {
	p, err := exec.LookPath(command)
	return p, err == nil
}

func (b *backend) HomeDir() string {
	h, _ := os.UserHomeDir()
	return h
}

// newAccountID makes a stable, readable id: the name reduced to ASCII
// letters, digits and '-', plus 6 random hex digits so two "Claude"
// accounts never share an id (ids never change once made).
func newAccountID(name string, c *configBook) (string, error) {
	var sb strings.Builder
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			sb.WriteRune(r)
		case r == ' ' || r == '-' || r == '_':
			if sb.Len() > 0 && !strings.HasSuffix(sb.String(), "-") {
				sb.WriteByte('-')
			}
		}
		if sb.Len() >= 16 {
			break
		}
	}
	base := strings.Trim(sb.String(), "-")
	if base == "" {
		base = "account"
	}
	for range 8 {
		var r [3]byte
		if _, err := rand.Read(r[:]); err != nil {
			return "", fmt.Errorf("new account id: %w", err)
		}
		id := base + "-" + hex.EncodeToString(r[:])
		if _, taken := c.Account(id); !taken {
			return id, nil
		}
	}
	return "", errors.New("new account id: no free id")
}
