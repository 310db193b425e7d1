package tui

import (
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/pullcept/pullcept/room"
)

// fakeBackend is an in-memory Backend for Update and golden tests. It
// records every call the UI makes. Its event sources are nil unless a test
// sets them: then the bridge's waits park (see parked and drive), so tests
// drive Update by hand; the bridge has its own tests with live sources.
type fakeBackend struct {
	mu sync.Mutex

	// events and screens feed NextEvents and WaitScreens when set; closing
	// events ends the stream.
	events  chan Event
	screens chan struct{}
	// parked receives one value each time a wait parks on a nil source.
	parked chan struct{}

	topics    map[string]TopicInfo
	history   map[string][]room.Post // oldest first
	rosters   map[string][]room.Member
	seats     map[string][]SeatInfo
	accounts  []AccountInfo
	snaps     map[seatKey]PaneSnapshot
	scrollbak map[seatKey][]string
	paths     map[string]string
	home      string
	att       attachFake // the Attachments part (attach_fake_test.go)
	files     filesFake  // the AccountFiles part (account_files_fake_test.go)
	mcp       mcpFake    // the MCPServers part (mcp_fake_test.go)
	set       setFake    // the Settings part (settings_fake_test.go)
	perm      permFake   // the Permissions part (permission_fake_test.go)
	attn      attnFake   // the Attention part (attention_fake_test.go)
	desk      deskFake   // the Desktop part (desktop_fake_test.go)

	postFn func(topic string, d room.Draft) (room.Result, error)

	searchGate chan struct{} // holds SearchPosts until closed (search_fake_test.go)
	searches   []string      // SearchPosts queries

	nextTopic   int
	opened      []string
	closed      []string
	released    []string // ReleaseBrake calls
	releaseErr  error
	socket      RoomSocket // RoomSocket's answer
	socketReads int
	posts       []room.Draft
	historyReqs []string // "topic|before|limit"
	inputs      []string // "account:bytes"
	resizes     []string // "account:colsxrows"
	started     []string // "topic|account|colsxrows"
	stopped     []string
	forgot      []string // ForgetSeat calls, "topic|account"
	renamed     []string
	deleted     []string
	saved       []AccountInfo
	deletedAccs []string
	previews    int
	seatReads   int // Seats calls
	startErr    error
	startRes    SeatStart
	// envFields answers AccountEnv by account id (else the account's Env
	// text as it is); envErr fails it.
	envFields map[string]EnvField
	envErr    error
	envReads  int
	// next answers QuitOutlook per seat (NextFreshNoSession when absent);
	// remembered lists RememberTopic calls.
	next       map[seatKey]NextStart
	remembered []string
}

func newFake() *fakeBackend {
	return &fakeBackend{
		parked:    make(chan struct{}, 1024),
		topics:    map[string]TopicInfo{},
		history:   map[string][]room.Post{},
		rosters:   map[string][]room.Member{},
		seats:     map[string][]SeatInfo{},
		snaps:     map[seatKey]PaneSnapshot{},
		scrollbak: map[seatKey][]string{},
		paths:     map[string]string{},
		home:      "/home/u",
		socket:    RoomSocket{Address: "/run/user/1000/pullcept-7f3a/room.sock"},
	}
}

func (f *fakeBackend) Post(topic string, d room.Draft) (room.Result, error) {
	f.mu.Lock()
	f.posts = append(f.posts, d)
	fn := f.postFn
	f.mu.Unlock()
	if fn != nil {
		return fn(topic, d)
	}
	p := room.Post{MessageID: d.MessageID, Role: room.RoleAdmin, Speaker: "マスター", Content: d.Content, TS: d.TS, To: d.To}
	f.mu.Lock()
	f.history[topic] = append(f.history[topic], p)
	f.mu.Unlock()
	return room.Result{Delivered: true, Post: p}, nil
}

func (f *fakeBackend) History(topic, before string, limit int) ([]room.Post, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.historyReqs = append(f.historyReqs, fmt.Sprintf("%s|%s|%d", topic, before, limit))
	all := f.history[topic]
	end := len(all)
	if before != "" {
		end = -1
		for i, p := range all {
			if p.MessageID == before {
				end = i
			}
		}
		if end < 0 {
			return nil, false, fmt.Errorf("unknown message %q", before)
		}
	}
	start := max(end-limit, 0)
	out := append([]room.Post(nil), all[start:end]...)
	return out, start > 0, nil
}

func (f *fakeBackend) Roster(topic string) ([]room.Member, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]room.Member(nil), f.rosters[topic]...), nil
}

func (f *fakeBackend) OpenRoom(topic string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.opened = append(f.opened, topic)
	return nil
}

func (f *fakeBackend) CloseRoom(topic string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = append(f.closed, topic)
}

func (f *fakeBackend) ReleaseBrake(topic string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.released = append(f.released, topic)
	return f.releaseErr
}

func (f *fakeBackend) RoomSocket() RoomSocket {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.socketReads++
	return f.socket
}

// NextEvents is the backend's: the first event blocks, then what is queued
// is drained up to max. With no events source it parks for good.
func (f *fakeBackend) NextEvents(max int) ([]Event, bool) {
	if f.events == nil {
		f.parked <- struct{}{}
		select {}
	}
	ev, ok := <-f.events
	if !ok {
		return nil, false
	}
	evs := []Event{ev}
	for len(evs) < max {
		select {
		case ev, ok := <-f.events:
			if !ok {
				return evs, true
			}
			evs = append(evs, ev)
		default:
			return evs, true
		}
	}
	return evs, true
}

// WaitScreens reports one change per receive from screens; with no source
// it parks for good.
func (f *fakeBackend) WaitScreens(seen uint64) (uint64, bool) {
	if f.screens == nil {
		f.parked <- struct{}{}
		select {}
	}
	if _, ok := <-f.screens; !ok {
		return seen, false
	}
	return seen + 1, true
}

func (f *fakeBackend) Topics() ([]TopicInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []TopicInfo
	for _, t := range f.topics {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

func (f *fakeBackend) NewTopic() (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.nextTopic++
	return fmt.Sprintf("new-%d", f.nextTopic), nil
}

func (f *fakeBackend) RenameTopic(id, name string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.renamed = append(f.renamed, id+"="+name)
	t := f.topics[id]
	t.ID, t.Name, t.Indexed = id, name, true // as logstore.Rename, which indexes a new topic
	f.topics[id] = t
	return nil
}

func (f *fakeBackend) DeleteTopic(id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.deleted = append(f.deleted, id)
	delete(f.topics, id)
	return nil
}

func (f *fakeBackend) Seats(topic string) []SeatInfo {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.seatReads++
	return append([]SeatInfo(nil), f.seats[topic]...)
}

func (f *fakeBackend) StartSeat(topic, account string, cols, rows int) (SeatStart, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.started = append(f.started, fmt.Sprintf("%s|%s|%dx%d", topic, account, cols, rows))
	if f.startErr != nil {
		return SeatStart{}, f.startErr
	}
	f.seats[topic] = append(f.seats[topic], SeatInfo{Topic: topic, Account: account, State: SeatRunning})
	return f.startRes, nil
}

func (f *fakeBackend) StopSeat(topic, account string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stopped = append(f.stopped, topic+"|"+account)
	var keep []SeatInfo
	for _, s := range f.seats[topic] {
		if s.Account != account {
			keep = append(keep, s)
		}
	}
	f.seats[topic] = keep
	return nil
}

func (f *fakeBackend) QuitOutlook() []SeatOutlook {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []SeatOutlook
	for topic, list := range f.seats {
		for _, s := range list {
			if s.State == SeatRunning || s.State == SeatStarting {
				out = append(out, SeatOutlook{Topic: topic, Account: s.Account, Next: f.next[seatKey{topic, s.Account}]})
			}
		}
	}
	return out
}

func (f *fakeBackend) RememberTopic(id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.remembered = append(f.remembered, id)
	return nil
}

func (f *fakeBackend) ForgetSeat(topic, account string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.forgot = append(f.forgot, topic+"|"+account)
	var keep []SeatInfo
	for _, s := range f.seats[topic] {
		if s.Account != account || s.State != SeatExited {
			keep = append(keep, s)
		}
	}
	f.seats[topic] = keep
}

func (f *fakeBackend) Snapshot(topic, account string) (PaneSnapshot, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	s, ok := f.snaps[seatKey{topic, account}]
	return s, ok
}

func (f *fakeBackend) Scrollback(topic, account string) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.scrollbak[seatKey{topic, account}]
}

func (f *fakeBackend) SendInput(topic, account string, b []byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.inputs = append(f.inputs, account+":"+string(b))
	return nil
}

func (f *fakeBackend) Resize(topic, account string, cols, rows int) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.resizes = append(f.resizes, fmt.Sprintf("%s:%dx%d", account, cols, rows))
	return nil
}

func (f *fakeBackend) Accounts() ([]AccountInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]AccountInfo(nil), f.accounts...), nil
}

func (f *fakeBackend) AccountEnv(id string) (EnvField, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.envReads++
	if f.envErr != nil {
		return EnvField{}, f.envErr
	}
	if ef, ok := f.envFields[id]; ok {
		return ef, nil
	}
	for _, a := range f.accounts {
		if a.ID == id {
			return EnvField{Text: a.Env}, nil
		}
	}
	return EnvField{}, fmt.Errorf("no account %s", id)
}

func (f *fakeBackend) SaveAccount(a AccountInfo) (AccountInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if a.ID == "" {
		a.ID = fmt.Sprintf("acc-%d", len(f.accounts)+1)
		f.accounts = append(f.accounts, a)
	} else {
		for i := range f.accounts {
			if f.accounts[i].ID == a.ID {
				f.accounts[i] = a
			}
		}
	}
	f.saved = append(f.saved, a)
	return a, nil
}

func (f *fakeBackend) DeleteAccount(id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.deletedAccs = append(f.deletedAccs, id)
	var keep []AccountInfo
	for _, a := range f.accounts {
		if a.ID != id {
			keep = append(keep, a)
		}
	}
	f.accounts = keep
	return nil
}

func (f *fakeBackend) Preview(a AccountInfo) (string, []string) {
	f.mu.Lock()
	f.previews++
	f.mu.Unlock()
	if a.Dir == "" {
		return a.Command + " " + a.Options, []string{"working directory is required"}
	}
	return a.Command + " " + a.Options + " --session-id 00000000-0000-4000-8000-000000000000", nil
}

func (f *fakeBackend) LookPath(cmd string) (string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	p, ok := f.paths[cmd]
	return p, ok
}

func (f *fakeBackend) StartDir() string { return f.home }

// --- driving the model without a terminal ---

// testClock is 2026-10-02 14:30 in Tokyo.
var testLoc = time.FixedZone("JST", 9*3600)

func testNow() time.Time { return time.Date(2026, 10, 2, 14, 30, 0, 0, testLoc) }

func testOptions() Options {
	return Options{
		AdminID:  "admin",
		Lang:     LangEnglish,
		Now:      testNow,
		Location: testLoc,
		Getenv:   func(string) string { return "" },
	}
}

// newTestModel builds a model on f, sizes it and runs Init to quiescence.
func newTestModel(t testing.TB, f *fakeBackend, opts Options, w, h int) *Model {
	t.Helper()
	m, err := New(f, opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	// The text clock's timer would sleep until a relative text changes:
	// tests record what it arms (m.seats.clock) and send textTickMsg.
	m.seats.clock.after = func(time.Duration, tea.Msg) tea.Cmd { return nil }
	// So does the status line's expiry timer (statusExpiredMsg by hand).
	m.status.after = func(time.Duration, tea.Msg) tea.Cmd { return nil }
	// And the attention's dwell (ringDueMsg by hand).
	m.attn.after = func(time.Duration, tea.Msg) tea.Cmd { return nil }
	// Keys are pressed at one frozen instant: a card takes them at once
	// (TestCardJustShownTakesNoAnswer turns the card's dwell back on).
	m.cards.dwell = 0
	drive(t, m, m.Init())
	send(t, m, tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// send delivers one message and runs the resulting commands to quiescence.
func send(t testing.TB, m *Model, msg tea.Msg) {
	t.Helper()
	_, cmd := m.Update(msg)
	drive(t, m, cmd)
}

// drive runs cmd and every command its messages lead to, in order, feeding
// each message back through Update. Commands are the fake backend's calls
// (they return at once), the spinner's tick (which returns after its frame
// time) and the bridge's waits, which park on the fake's nil sources: each
// command runs in its own goroutine and drive goes on when it returned or
// parked, so the order stays that of a single goroutine.
func drive(t testing.TB, m *Model, cmd tea.Cmd) {
	t.Helper()
	f, _ := m.backend.(*fakeBackend)
	run := func(c tea.Cmd) tea.Msg {
		if f == nil {
			return c()
		}
		res := make(chan tea.Msg, 1)
		go func() { res <- c() }()
		select {
		case msg := <-res:
			return msg
		case <-f.parked:
			return nil
		}
	}
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 10000 {
			t.Fatalf("drive: no quiescence after %d steps", steps)
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		msg := run(c)
		switch msg := msg.(type) {
		case nil:
			continue
		case tea.BatchMsg:
			queue = append(queue, msg...)
			continue
		case tea.QuitMsg:
			continue
		}
		_, next := m.Update(msg)
		queue = append(queue, next)
	}
}

// key builds a key press from a Bubble Tea key string like "ctrl+n",
// "enter", "shift+enter", "alt+up", or a single printable character.
func press(s string) tea.KeyPressMsg {
	named := map[string]rune{
		"enter": tea.KeyEnter, "tab": tea.KeyTab, "esc": tea.KeyEscape, "backspace": tea.KeyBackspace,
		"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
		"home": tea.KeyHome, "end": tea.KeyEnd, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown,
		"delete": tea.KeyDelete, "space": tea.KeySpace, "f1": tea.KeyF1, "f2": tea.KeyF2, "f3": tea.KeyF3, "f4": tea.KeyF4, "f5": tea.KeyF5, "f12": tea.KeyF12,
		"f6": tea.KeyF6, "f7": tea.KeyF7, "f8": tea.KeyF8, "f9": tea.KeyF9,
	}
	var mod tea.KeyMod
	rest := s
	for {
		switch {
		case len(rest) > 5 && rest[:5] == "ctrl+":
			mod |= tea.ModCtrl
			rest = rest[5:]
			continue
		case len(rest) > 4 && rest[:4] == "alt+":
			mod |= tea.ModAlt
			rest = rest[4:]
			continue
		case len(rest) > 6 && rest[:6] == "shift+":
			mod |= tea.ModShift
			rest = rest[6:]
			continue
		}
		break
	}
	if c, ok := named[rest]; ok {
		k := tea.KeyPressMsg{Code: c, Mod: mod}
		if c == tea.KeySpace && mod == 0 {
			k.Text = " "
		}
		return k
	}
	r := []rune(rest)
	if len(r) != 1 {
		panic("press: " + s)
	}
	k := tea.KeyPressMsg{Code: r[0], Mod: mod}
	if mod == 0 || mod == tea.ModShift {
		k.Text = rest
	}
	return k
}

// typeText types s one key per rune, like an IME commit or a keyboard.
func typeText(t testing.TB, m *Model, s string) {
	t.Helper()
	for _, r := range s {
		send(t, m, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func hue(h int) *int { return &h }

// post builds a post at minute min of the test day (JST) as UTC RFC 3339.
func post(id, speaker, content string, min int) room.Post {
	ts := time.Date(2026, 10, 2, 9, 0, 0, 0, testLoc).Add(time.Duration(min) * time.Minute).UTC()
	return room.Post{MessageID: id, Role: room.RoleClaudeCode, Speaker: speaker, Content: content, TS: ts.Format(room.TimeLayout)}
}

func mouseClick(x, y int) tea.MouseClickMsg {
	return tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft}
}

func mouseWheel(x, y int, up bool) tea.MouseWheelMsg {
	b := tea.MouseWheelDown
	if up {
		b = tea.MouseWheelUp
	}
	return tea.MouseWheelMsg{X: x, Y: y, Button: b}
}

func roomMember(name string) room.Member { return room.Member{Name: name, Role: room.RoleUnknown} }
