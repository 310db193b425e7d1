package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/pullcept/pullcept/app/notify"
	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/room/pubsub"
	"github.com/pullcept/pullcept/seats"
	"github.com/pullcept/pullcept/seats/cli"
	"github.com/pullcept/pullcept/seats/cli/codex"
	"github.com/pullcept/pullcept/seats/pty"
	"github.com/pullcept/pullcept/seats/terminal"
	"github.com/pullcept/pullcept/tui"
)

// Backend adapts the domain to one UI (tui.Backend, docs/design.md §10):
// conversions only, plus the cross-domain orders this package owns. Each UI
// gets its own Backend with its own event subscriptions, so several UIs
// share one App (`pullcept server`, docs/serve.md; shared.go has what they
// share).
type Backend struct {
	a *App

	// The event sources NextEvents reads (events.go). Only the goroutine in
	// NextEvents reads them after NewBackend; it replaces one (after a
	// cut-off) under mu, and Close reads them under mu.
	hubSub  *room.Subscription
	seatSub *pubsub.Subscription[seats.Event]
	notes   *pubsub.Broker[tui.Event] // this backend's own: start-up warnings, skipped lines
	noteSub *pubsub.Subscription[tui.Event]
	done    chan struct{}
	once    sync.Once
	mcpWait sync.WaitGroup // the MCP and attention forwarders (watchMCP, watchAttention)
	// attnTaken: the UI took the attention snapshot queued last (or lost
	// it to a cut-off); watchAttention sends the next only then.
	attnTaken chan struct{}

	// mu guards closed, the subscription fields' replacement (above) and
	// skipped, the unreadable-line count last reported per topic: a count is
	// reported once, when it changes (docs/design.md §8).
	mu      sync.Mutex
	closed  bool
	skipped map[string]int

	// opener opens an attachment (attach.go); nil is the system's opener.
	// Set only before the UI runs (tests).
	opener func(path string) error
	// remote: this UI's human reached it over ssh, so the desktop of this
	// machine is not theirs (desktop.go). Set only before the UI runs.
	remote bool
}

var _ tui.Backend = (*Backend)(nil)

// NewBackend subscribes a new UI to a's events; the start-up warnings are
// its first events. Close ends it.
func NewBackend(a *App) *Backend {
	b := &Backend{
		a:         a,
		hubSub:    a.hub.Subscribe(),
		seatSub:   a.seats.Subscribe(),
		notes:     pubsub.NewBroker(pubsub.Options[tui.Event]{Logger: a.logger}),
		done:      make(chan struct{}),
		attnTaken: make(chan struct{}, 1),
		skipped:   map[string]int{},
		remote:    notify.Remote(os.Getenv), // this process's own terminal; a served UI's is its client's
	}
	b.noteSub = b.notes.Subscribe()
	for _, n := range a.notices {
		b.notes.Publish(tui.Notice{Text: n})
	}
	if a.mcp != nil {
		b.mcpWait.Add(1)
		go b.watchMCP()
	}
	b.mcpWait.Add(1)
	go b.watchAttention()
	return b
}

// Close ends the backend's subscriptions; a NextEvents or WaitScreens in
// progress returns. Idempotent.
func (b *Backend) Close() {
	b.once.Do(func() {
		close(b.done)
		b.mu.Lock()
		b.closed = true
		hub, seat := b.hubSub, b.seatSub
		b.mu.Unlock()
		hub.Close()
		seat.Close()
		b.a.rooms.releaseAll(b)
		b.a.sizes.leave(b, func(k seatKey, cols, rows int) {
			if s, ok := b.a.seats.Seat(k.topic, k.account); ok {
				_ = s.Resize(cols, rows)
			}
		})
		b.mcpWait.Wait()
		b.notes.Close()
	})
}

// --- Rooms ---

// Post opens the topic's room if needed (the UI's first post in a topic
// nobody joined yet) and delivers the admin's draft.
func (b *Backend) Post(topicID string, d room.Draft) (room.Result, error) {
	if err := b.OpenRoom(topicID); err != nil {
		return room.Result{}, err
	}
	return b.a.hub.Post(topicID, d)
}

// History reads the topic's log and reports a new count of unreadable lines
// once (LinesSkipped).
func (b *Backend) History(topicID, before string, limit int) ([]room.Post, bool, error) {
	posts, more, err := b.a.hub.History(topicID, before, limit)
	if n := b.a.store.Skipped(topicID); n > 0 {
		b.mu.Lock()
		changed := b.skipped[topicID] != n
		b.skipped[topicID] = n
		b.mu.Unlock()
		if changed {
			b.a.logger.Warn("skipped unreadable log lines", "topic", topicID, "count", n)
			b.notes.Publish(tui.LinesSkipped{Topic: topicID, Count: n})
		}
	}
	return posts, more, err
}

func (b *Backend) Roster(topicID string) ([]room.Member, error) { return b.a.hub.Roster(topicID) }

// OpenRoom opens the topic's room and holds it for this UI; CloseRoom lets
// the hold go and drops the room only when no other UI holds it
// (shared.go).
func (b *Backend) OpenRoom(topicID string) error {
	if err := b.a.hub.OpenRoom(topicID); err != nil {
		return err
	}
	b.a.rooms.hold(topicID, b)
	return nil
}

func (b *Backend) CloseRoom(topicID string) {
	if b.a.rooms.release(topicID, b) {
		b.a.hub.CloseRoom(topicID)
	}
}
func (b *Backend) ReleaseBrake(topicID string) error { return b.a.hub.ReleaseBrake(topicID) }

// roomSocketWait bounds the dial that checks the room still answers: on
// loopback it answers or fails in microseconds; longer is a room that
// accepts nothing.
const roomSocketWait = 2 * time.Second

// RoomSocket is where the seats reach the room, and why it does not answer
// there when it does not (room.Server.Listening).
func (b *Backend) RoomSocket() tui.RoomSocket {
	ctx, cancel := context.WithTimeout(context.Background(), roomSocketWait)
	defer cancel()
	out := tui.RoomSocket{Address: b.a.server.Address()}
	if err := b.a.server.Listening(ctx); err != nil {
		out.Err = err.Error()
	}
	return out
}

// --- TopicStore ---

func (b *Backend) Topics() ([]tui.TopicInfo, error) {
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
		out = append(out, tui.TopicInfo{ID: t.ID, Name: t.Name, LastActivity: t.LastActivity, Running: running[t.ID],
			Indexed: t.Indexed, Braked: b.a.hub.Braked(t.ID)})
	}
	return out, nil
}

func (b *Backend) NewTopic() (string, error) { return b.a.store.NewTopicID(), nil }

func (b *Backend) RenameTopic(topicID, name string) error { return b.a.store.Rename(topicID, name) }

func (b *Backend) RememberTopic(topicID string) error { return b.a.rememberTopic(topicID) }

// DeleteTopic deletes in the order docs/design.md §8 gives: stop the
// topic's seats (their sidecars leave the room), forget their screens, then
// the log file, attachments and index entry, and last drop the room.
func (b *Backend) DeleteTopic(topicID string) error {
	b.a.seats.CloseTopic(topicID) // and no seat starts there any more
	for _, s := range b.a.seats.Seats(topicID) {
		b.a.seats.Forget(topicID, s.Account)
	}
	if err := b.a.store.Delete(topicID); err != nil {
		return err
	}
	b.a.hub.CloseRoom(topicID)
	b.a.rooms.forget(topicID)
	if _, err := b.a.marks.drop(func(k seatKey) bool { return k.topic == topicID }); err != nil {
		b.a.logger.Warn("running seats not recorded", "err", err)
	}
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

// errText is err's text, "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// Seats lists the topic's seats, after them the seats a crash left there
// (resumable.go): offline, Resumable, until started or dismissed, and last
// every other account with a session recorded in the topic, offline. Each
// one's SessionID is the topic's record, never the launch's (spec
// «参加者パネル» #139, #144): what a manual resume takes, readable after a
// restart too.
func (b *Backend) Seats(topicID string) []tui.SeatInfo {
	list := b.a.seats.Seats(topicID)
	out := make([]tui.SeatInfo, 0, len(list))
	known := map[string]bool{}
	for _, s := range list {
		out = append(out, seatInfo(s))
		known[s.Account] = true
	}
	for _, r := range b.a.marks.list(topicID) {
		if !known[r.Account] {
			out = append(out, tui.SeatInfo{Topic: r.Topic, Account: r.Account, State: tui.SeatOffline, Resumable: true, Started: r.Since})
			known[r.Account] = true
		}
	}
	for _, acc := range b.a.accounts.All() {
		if !known[acc.ID] && acc.Kind.Launches() {
			out = append(out, tui.SeatInfo{Topic: topicID, Account: acc.ID, State: tui.SeatOffline})
		}
	}
	for i := range out {
		out[i].SessionID, _ = b.a.store.Session(topicID, out[i].Account)
	}
	return slices.DeleteFunc(out, func(s tui.SeatInfo) bool {
		return s.State == tui.SeatOffline && !s.Resumable && s.SessionID == ""
	})
}

// seatInfo converts one seat for the panel (copies only).
func seatInfo(s seats.SeatInfo) tui.SeatInfo {
	u := s.Usage
	return tui.SeatInfo{
		Topic: s.Topic, Account: s.Account, State: seatState(s.Shown()), ExitCode: s.ExitCode, Err: errText(s.Err),
		Requested: s.Requested, Signal: s.Signal(),
		Model: u.Model, Effort: u.Effort,
		Context: clonePct(u.Context), FiveHour: clonePct(u.FiveHour), Weekly: clonePct(u.Weekly),
		FiveHourResets: u.FiveHourResets, WeeklyResets: u.WeeklyResets, UsageAt: u.At,
		FiveHourAt: u.FiveHourAt, WeeklyAt: u.WeeklyAt, ContextAt: u.ContextAt,
		Activity: tui.Activity{Kind: activityKind(s.Activity.Kind), Tool: s.Activity.Tool,
			Subagents: s.Activity.Subagents, Since: s.Activity.Since},
		Limited: s.Limit.Limited, LimitResets: s.Limit.ResetsAt, LookAtTerminal: s.Limit.LookAtTerminal,
		SessionID: s.SessionID, Command: config.JoinWords(s.Argv), Dir: s.Dir, Started: s.Started,
		Cols: s.Size[0], Rows: s.Size[1], Remote: s.Remote,
		Held: s.Typing.Queued, HeldFor: holdReason(s.Typing), Folded: s.Typing.Folded, Warnings: slices.Clone(s.Warnings), NotIsolated: notIsolated(s.Isolation), Isolated: s.Isolation.Isolated,
		Confirming: s.Typing.Confirming, Pending: s.Typing.Pending, Stuck: s.Typing.Stuck,
		Confirmed: s.Typing.Confirmed, ConfirmedAt: s.Typing.ConfirmedAt,
		Unconfirmed: slices.Clone(s.Typing.Unconfirmed), Fused: s.Typing.Fused, VersionUnread: s.VersionUnread,
	}
}

// notIsolated is why a seat is not isolated, "" when it is.
func notIsolated(i pty.Isolation) string {
	if i.Isolated {
		return ""
	}
	return i.Reason
}

func clonePct(p *float64) *float64 {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// activityKind maps the seats' activity kinds onto the UI's.
func activityKind(k cli.ActivityKind) tui.ActivityKind {
	switch k {
	case cli.ActivityThinking:
		return tui.ActivityThinking
	case cli.ActivityTool:
		return tui.ActivityTool
	case cli.ActivityPermission:
		return tui.ActivityPermission
	case cli.ActivityIdle:
		return tui.ActivityIdle
	case cli.ActivityOutput:
		return tui.ActivityOutput
	}
	return tui.ActivityUnknown
}

// holdReason is why the seat's queued posts wait, the first that applies
// in the order the typing queue checks them; none when nothing waits.
func holdReason(t seats.TypistState) tui.HoldReason {
	switch {
	case t.Queued == 0 && t.Stuck != "":
		return tui.HoldStuck // nothing waits, but a post sits unsent
	case t.Queued == 0:
		return tui.HoldNone
	case !t.Ready:
		return tui.HoldNotReady
	case slices.Contains(t.Holds, cli.HoldPermission):
		return tui.HoldPermission
	case slices.Contains(t.Holds, codex.HoldAttach):
		return tui.HoldNotReady // an app-server seat's TUI is attaching
	case len(t.Holds) > 0:
		return tui.HoldAnswered
	case t.Unsent:
		return tui.HoldUnsent
	case t.Stuck != "":
		return tui.HoldStuck
	case t.Pending != "":
		return tui.HoldConfirm
	case t.Turn:
		return tui.HoldTurn
	}
	return tui.HoldNone
}

// StartSeat and StopSeat take the seat's lifecycle lock, as the session
// operations do (docs/design.md §15): the human's start waits for a
// restart under way and then finds the seat running.
func (b *Backend) StartSeat(topicID, accountID string, cols, rows int) (tui.SeatStart, error) {
	unlock, err := b.a.seats.Lifecycle(context.Background(), topicID, accountID)
	if err != nil {
		return tui.SeatStart{}, err
	}
	defer unlock()
	res, err := b.a.seats.Start(topicID, accountID, cols, rows)
	if err != nil {
		// The status line cuts a long reason; the log keeps it whole.
		b.a.logger.Warn("seat not started", "topic", topicID, "account", accountID, "err", err)
		return tui.SeatStart{Dropped: res.Dropped}, startError(err)
	}
	for _, w := range res.Warnings {
		b.a.logger.Warn("launch warning", "topic", topicID, "account", accountID, "warning", w)
	}
	b.a.sizes.started(seatKey{topicID, accountID}, b, cols, rows)
	return tui.SeatStart{Resumed: res.Resumed, SessionID: res.SessionID, Dropped: res.Dropped, Warnings: res.Warnings,
		VersionUnread: res.VersionUnread}, nil
}

// startError is a start's refusal for the UI: a CLI too old for its line
// as the UI's own error, which it words in its language; any other as is.
func startError(err error) error {
	var old *cli.TooOldError
	if !errors.As(err, &old) {
		return err
	}
	return &tui.CLITooOldError{CLI: old.Need.CLI, Path: old.Path, Have: old.Have.String(), Need: old.Need.Min.String(), Uses: old.Need.Uses}
}

func (b *Backend) StopSeat(topicID, accountID string) error {
	unlock, err := b.a.seats.Lifecycle(context.Background(), topicID, accountID)
	if err != nil {
		return err
	}
	defer unlock()
	err = b.a.seats.Stop(topicID, accountID)
	if errors.Is(err, seats.ErrNoSeat) {
		// The stop key on a seat a crash left: it is no longer offered.
		if dropped, derr := b.a.marks.drop(func(k seatKey) bool { return k == (seatKey{topicID, accountID}) }); dropped {
			return derr
		}
	}
	return err
}

// ForgetSeat drops an exited seat's screen: the human closed its pane.
func (b *Backend) ForgetSeat(topicID, accountID string) {
	b.a.seats.Forget(topicID, accountID)
}

// QuitOutlook judges, for every live seat, what its next start would do
// with its conversation (seats.Manager.NextStart).
func (b *Backend) QuitOutlook() []tui.SeatOutlook {
	var out []tui.SeatOutlook
	for _, s := range b.a.seats.Seats("") {
		if s.State == seats.StateExited {
			continue
		}
		out = append(out, tui.SeatOutlook{Topic: s.Topic, Account: s.Account, Next: nextStart(b.a.seats.NextStart(s.Topic, s.Account))})
	}
	return out
}

func nextStart(o seats.Outlook) tui.NextStart {
	switch o {
	case seats.OutlookResumes:
		return tui.NextResumes
	case seats.OutlookNoResumeLine:
		return tui.NextFreshNoResumeLine
	case seats.OutlookGone:
		return tui.NextFreshGone
	}
	return tui.NextFreshNoSession
}

func (b *Backend) seat(topicID, accountID string) (*seats.Seat, error) {
	s, ok := b.a.seats.Seat(topicID, accountID)
	if !ok {
		return nil, fmt.Errorf("seat %s in %s: %w", accountID, topicID, seats.ErrNoSeat)
	}
	return s, nil
}

func (b *Backend) Snapshot(topicID, accountID string) (tui.PaneSnapshot, bool) {
	s, err := b.seat(topicID, accountID)
	if err != nil {
		return tui.PaneSnapshot{}, false
	}
	sn := s.Screen().Snapshot()
	return tui.PaneSnapshot{Rows: sn.Lines, Cols: sn.Cols, CursorX: sn.CursorX, CursorY: sn.CursorY,
		CursorVisible: sn.CursorVisible, Version: sn.Version, Title: sn.Title,
		BracketedPaste: sn.BracketedPaste, AppCursorKeys: sn.AppCursorKeys,
		Mouse:  tui.PaneMouse{Tracking: mouseTracking(sn.Mouse.Tracking), SGR: sn.Mouse.SGR},
		Broken: sn.Broken, AltScreen: sn.AltScreen}, true
}

// mouseTracking maps the seats' mouse tracking modes onto the UI's.
func mouseTracking(t terminal.MouseTracking) tui.MouseTracking {
	switch t {
	case terminal.MouseX10:
		return tui.MouseX10
	case terminal.MouseNormal:
		return tui.MouseNormal
	case terminal.MouseButtonMotion:
		return tui.MouseButtonMotion
	case terminal.MouseAnyMotion:
		return tui.MouseAnyMotion
	}
	return tui.MouseOff
}

// scrollbackView bounds what one scrollback request copies (the emulator
// keeps at most 2 000 lines).
const scrollbackView = 2000

func (b *Backend) Scrollback(topicID, accountID string) []string {
	s, err := b.seat(topicID, accountID)
	if err != nil {
		return nil
	}
	n := s.Screen().ScrollbackLen()
	return s.Screen().ScrollbackLines(max(0, n-scrollbackView), scrollbackView)
}

// SendInput types into the seat; the seat's size then follows this UI
// (shared.go: the UI that last typed into a seat owns its size).
func (b *Backend) SendInput(topicID, accountID string, p []byte) error {
	s, err := b.seat(topicID, accountID)
	if err != nil {
		return err
	}
	if err := b.a.sizes.claim(seatKey{topicID, accountID}, b, s.Resize); err != nil {
		return err
	}
	return s.Input(p)
}

// Resize asks for the seat's size; it applies when this UI owns the
// seat's size (or nobody does), else it waits for this UI to type there.
func (b *Backend) Resize(topicID, accountID string, cols, rows int) error {
	s, err := b.seat(topicID, accountID)
	if err != nil {
		return err
	}
	return b.a.sizes.want(seatKey{topicID, accountID}, b, cols, rows, s.Resize)
}

// --- AccountStore ---

func toInfo(a config.Account) tui.AccountInfo {
	return tui.AccountInfo{ID: a.ID, Kind: string(a.Kind), Name: a.Name, Nickname: a.Nickname, Hue: a.Hue,
		Dir: a.WorkDir, Command: a.Command, Options: a.LaunchOptions, ResumeLine: a.ResumeLine,
		Character: a.Character, AppServer: a.AppServer(), PermissionMode: a.PermissionMode}
}

// toEdit is the editor's account as a config edit. A Codex account's
// app-server toggle is written as it stands (codex_app_server true or
// false); other kinds leave the stored codex_app_server as it was.
func toEdit(in tui.AccountInfo) config.AccountEdit {
	e := config.AccountEdit{ID: in.ID, Kind: in.Kind, Name: in.Name, Nickname: in.Nickname, Hue: in.Hue,
		WorkDir: in.Dir, Command: in.Command, LaunchOptions: in.Options, ResumeLine: in.ResumeLine,
		Character: in.Character, Env: in.Env, KeepEnv: in.KeepEnv}
	if in.Kind == string(config.KindCodexCLI) {
		on := in.AppServer
		e.CodexAppServer = &on
	}
	if in.Kind == string(config.KindClaudeCode) {
		mode := in.PermissionMode
		e.PermissionMode = &mode
	}
	return e
}

func (b *Backend) Accounts() ([]tui.AccountInfo, error) {
	all := b.a.accounts.All()
	out := make([]tui.AccountInfo, 0, len(all))
	for _, a := range all {
		out = append(out, toInfo(a))
	}
	return out, nil
}

// AccountEnv draws the account's env field (config.Book.EnvText).
func (b *Backend) AccountEnv(id string) (tui.EnvField, error) {
	text, unreadable, err := b.a.accounts.EnvText(id)
	return tui.EnvField{Text: text, Unreadable: unreadable}, err
}

// SaveAccount saves the account, then renames its seats in every open room
// at once (room.Hub.AccountChanged: roster, mentions, tags, the next
// posts' speaker; docs/design.md §9 "Identity"). A running account's kind
// cannot change (spec «アカウント»: its seat would lose the working dir and
// options it runs with).
func (b *Backend) SaveAccount(in tui.AccountInfo) (tui.AccountInfo, error) {
	if prev, ok := b.a.accounts.Account(in.ID); ok && string(prev.Kind) != in.Kind {
		if b.a.seats.Running(in.ID) {
			return in, errKindRunning
		}
		if prev.Kind == config.KindMCP || in.Kind == string(config.KindMCP) {
			return in, errKindMCP
		}
	}
	a, err := b.a.accounts.Save(toEdit(in))
	if errors.Is(err, config.ErrNoSecretStore) {
		return in, fmt.Errorf("%w: %w", tui.ErrNoSecretStore, err)
	}
	if err != nil {
		return in, err
	}
	b.a.hub.AccountChanged(a.ID)
	return toInfo(a), nil
}

// errKindMCP refuses turning an account into a local MCP server's or
// back: the kind is chosen when it is made (spec #200; an mcp account
// speaks for an entry of mcp-servers.json).
var errKindMCP = tui.ErrKindMCP

// errKindRunning refuses changing the kind of an account whose seat runs.
var errKindRunning = tui.ErrKindRunning

// errAccountRunning refuses deleting an account whose seat runs somewhere.
var errAccountRunning = tui.ErrAccountRunning

// DeleteAccount refuses an account whose seat runs in any topic (its seat
// would lose its identity), then deletes it from the book.
func (b *Backend) DeleteAccount(id string) error {
	if admin, ok := b.a.accounts.Admin(); !ok || admin.ID != id {
		// Checked and marked in one step: a seat of it starting meanwhile
		// (a session operation) is undone before it goes live.
		// Once deleted it is unknown, and no seat of it starts either.
		undo, err := b.a.seats.RetireAccount(id)
		if err != nil {
			return errAccountRunning
		}
		defer undo()
	}
	return b.deleteAccount(id)
}

// deleteAccount deletes the account (and an mcp account's server entry).
func (b *Backend) deleteAccount(id string) error {
	if acc, ok := b.a.accounts.Account(id); ok && acc.Kind == config.KindMCP && b.a.mcpFile != nil {
		// The entry first: one left in the file would make the account
		// again at the next start (spec #200).
		if err := b.deleteMCPServer(id); err != nil && !errors.Is(err, errNoServer) {
			return err
		}
	}
	if err := b.a.accounts.Delete(id); err != nil {
		return err
	}
	if _, err := b.a.marks.drop(func(k seatKey) bool { return k.account == id }); err != nil {
		b.a.logger.Warn("running seats not recorded", "err", err)
	}
	return nil
}

func (b *Backend) Preview(in tui.AccountInfo) (string, []string) {
	a, err := b.a.accounts.Draft(toEdit(in))
	if err != nil {
		return "", []string{err.Error()}
	}
	if !a.Kind.Launches() {
		// The human's own account and MCP accounts start nothing: no line
		// to show and nothing to call a problem (a newcomer read "this kind
		// of account does not launch" as an error on their own account).
		return "", nil
	}
	if strings.TrimSpace(a.Command) == "" || strings.TrimSpace(a.WorkDir) == "" {
		// No line can be built; CheckAccount names the empty field (both
		// said it: "command: command is required" and "command is
		// required: set one for …").
		return "", nil
	}
	return b.a.seats.Preview(a)
}

func (b *Backend) LookPath(command string) (string, bool) {
	p, err := exec.LookPath(command)
	return p, err == nil
}

// StartDir is where Pullcept was started, the usual place of the project a
// seat works on (a new user's seat wrote its .mcp.json into the home
// folder); the home folder when started from / or when that is unknown.
func (b *Backend) StartDir() string {
	if d, err := os.Getwd(); err == nil && d != string(filepath.Separator) && filepath.Dir(d) != d {
		return d
	}
	h, _ := os.UserHomeDir()
	return h
}
