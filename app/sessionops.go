package app

import (
	"context"
	"path/filepath"

	"github.com/pullcept/pullcept/app/sessionops"
	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats"
)

// sessionHost is what the session operations drive (sessionops.Host): the
// seat manager, the account book, the hub and the topic index
// (docs/design.md §15).
type sessionHost struct{ a *App }

var _ sessionops.Host = sessionHost{}

// openSessionOps loads session-operations.json, starts the worker and
// hands the operations to the hub; a ledger that could not be read at all
// leaves the feature off with a start-up warning.
func (a *App) openSessionOps() {
	ops, warnings, err := sessionops.Open(sessionops.Options{
		Path: filepath.Join(a.dataDir, sessionops.FileName), Host: sessionHost{a},
		Logger: a.logger.With("part", "sessionops"), BeforeRun: a.opts.beforeSessionOp,
		OnFailed: a.opFailed, Lang: func() string { return string(a.uiLang()) },
		OnRestart: a.restartPhase,
	})
	a.notices = append(a.notices, warnings...)
	if err != nil {
		a.notices = append(a.notices, "session operations are off: "+err.Error())
		return
	}
	a.ops = ops
	a.hub.SetSessionOps(ops)
}

func toSessionAccount(c config.Account) sessionops.Account {
	return sessionops.Account{ID: c.ID, Name: c.DisplayName(), Kind: string(c.Kind), Launches: c.Kind.Launches()}
}

// restartPhase tells every UI where a seat's restart is (seats.Manager
// Restarting, Restarted): sessionops.Options.OnRestart.
func (a *App) restartPhase(topic, account string, done bool, err error) {
	if done {
		a.seats.Restarted(topic, account, err)
		return
	}
	a.seats.Restarting(topic, account)
}

func (h sessionHost) Account(id string) (sessionops.Account, bool) {
	c, ok := h.a.accounts.Account(id)
	if !ok {
		return sessionops.Account{}, false
	}
	return toSessionAccount(c), true
}

func (h sessionHost) Accounts() []sessionops.Account {
	var out []sessionops.Account
	for _, c := range h.a.accounts.All() {
		out = append(out, toSessionAccount(c))
	}
	return out
}

// Topics are the open rooms, named from the index (an unindexed topic has
// no name yet).
func (h sessionHost) Topics() []room.SessionTopic {
	names := map[string]string{}
	if ts, err := h.a.store.Topics(); err == nil {
		for _, t := range ts {
			names[t.ID] = t.Name
		}
	}
	var out []room.SessionTopic
	for _, id := range h.a.hub.Rooms() {
		out = append(out, room.SessionTopic{TopicID: id, Name: names[id]})
	}
	return out
}

func (h sessionHost) Seats() []sessionops.Seat {
	var out []sessionops.Seat
	for _, s := range h.a.seats.Seats("") {
		out = append(out, sessionops.Seat{Topic: s.Topic, Account: s.Account, PtyID: s.PtyID, State: s.Shown().String()})
	}
	return out
}

func (h sessionHost) Lifecycle(ctx context.Context, topic, account string) (func(), error) {
	return h.a.seats.Lifecycle(ctx, topic, account)
}

// Start starts the seat at its last size (the UI resizes it when it shows
// its pane), resuming or fresh as asked.
func (h sessionHost) Start(topic, account string, resume bool) (string, error) {
	cols, rows, _ := h.a.seats.SeatSize(topic, account)
	mode := seats.StartFresh
	if resume {
		mode = seats.StartResume
	}
	res, err := h.a.seats.StartWith(topic, account, seats.StartOptions{Cols: cols, Rows: rows, Mode: mode})
	if err != nil {
		return "", err
	}
	for _, w := range res.Warnings {
		h.a.logger.Warn("launch warning", "topic", topic, "account", account, "warning", w)
	}
	return res.PtyID, nil
}

func (h sessionHost) Stop(topic, account, ptyID string) error {
	return h.a.seats.StopLaunch(topic, account, ptyID)
}

func (h sessionHost) CheckRestart(topic, account, ptyID string) error {
	return h.a.seats.CheckRestart(topic, account, ptyID)
}

func (h sessionHost) Joined(topic, ptyID string) bool { return h.a.hub.LaunchJoined(topic, ptyID) }

func (h sessionHost) Notice(topic, text string) error {
	_, err := h.a.hub.AppNotice(topic, text)
	return err
}

func (h sessionHost) Rule() (string, error) { return h.a.accounts.SessionOperations() }
