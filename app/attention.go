package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/pullcept/pullcept/app/attention"
	"github.com/pullcept/pullcept/app/localmcp"
	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/room/pubsub"
	"github.com/pullcept/pullcept/seats"
)

// What needs the human (docs/design.md §17 "Attention"): one watcher turns
// the room's and the seats' events, the session operations' failures and
// the local MCP servers' ends into the App's attention list, which every
// attached UI reads (Backend.Attention) and clears as its human sees items.
//
// Goroutines: the watcher (owner: App; ends at App.Close through
// attentionStop; recovers) and the MCP watcher (the same owner).

// openAttention starts the watchers on the list open made (before the
// session operations, whose failures it takes). Called once the hub, the
// seats and the local MCP servers exist.
func (a *App) openAttention() {
	ctx, cancel := context.WithCancel(context.Background())
	a.attentionStop = cancel
	hubSub, seatSub := a.hub.Subscribe(), a.seats.Subscribe()
	// A local MCP server that already ended is listed before any UI reads
	// the list, not whenever the watcher first runs: a UI rings only for
	// what happened after it read the list (tui's attentionState.known).
	mcpLast := map[string]localmcp.Phase{}
	if a.mcp != nil {
		a.mcpPass(mcpLast)
	}
	a.attentionWait.Add(2)
	go a.watchAttention(ctx, hubSub, seatSub)
	go a.watchMCPDeaths(ctx, mcpLast)
}

// closeAttention stops the watchers and wakes every UI waiting on the list.
func (a *App) closeAttention() {
	if a.attentionStop == nil {
		return
	}
	a.attentionStop()
	a.attentionWait.Wait()
	a.attention.Close()
	a.attentionStop = nil
}

// watchAttention reads both event streams until ctx ends. A stream that cut
// it off for falling behind is subscribed again, and what its lost events
// would have changed is read from the room or the seats (resyncRoom,
// resyncSeats).
func (a *App) watchAttention(ctx context.Context, hubSub *pubsub.Subscription[room.Event], seatSub *pubsub.Subscription[seats.Event]) {
	defer a.attentionWait.Done()
	defer func() {
		if r := recover(); r != nil {
			a.logger.Error("attention watcher panic", "panic", r)
		}
	}()
	limited := map[[2]string]bool{}
	for {
		select {
		case <-ctx.Done():
			hubSub.Close()
			seatSub.Close()
			return
		case e, open := <-hubSub.C():
			if !open {
				if !errors.Is(hubSub.Err(), pubsub.ErrOverflow) {
					return
				}
				hubSub = a.hub.Subscribe()
				a.resyncRoom()
				continue
			}
			a.roomAttention(e)
		case e, open := <-seatSub.C():
			if !open {
				if !errors.Is(seatSub.Err(), pubsub.ErrOverflow) {
					return
				}
				seatSub = a.seats.Subscribe()
				a.resyncSeats(limited)
				continue
			}
			a.seatAttention(e, limited)
		}
	}
}

// roomAttention lists what a room event asks of the human.
func (a *App) roomAttention(e room.Event) {
	l := a.attention
	switch e := e.(type) {
	case room.PermissionAsked:
		l.Add(attention.Item{Kind: attention.Card, Topic: e.Ask.Topic, Account: e.Ask.Account,
			Ref: fmt.Sprint(e.Ask.ID), Detail: e.Ask.Tool})
	case room.PermissionClosed:
		ref := fmt.Sprint(e.ID)
		var tool string
		l.Remove(func(it attention.Item) bool {
			if it.Kind == attention.Card && it.Ref == ref {
				tool = it.Detail
				return true
			}
			return false
		})
		if e.End == room.AskTimedOut {
			// The seat's own dialog decides now: the pane is where to answer.
			l.Add(attention.Item{Kind: attention.CardTimedOut, Topic: e.Topic, Account: e.Account, Ref: ref, Detail: tool})
		}
	case room.PostDelivered:
		if a.addressesAdmin(e.Post) {
			l.Add(attention.Item{Kind: attention.Addressed, Topic: e.Topic, Account: e.Post.Account,
				Ref: e.Post.MessageID, Detail: e.Post.Speaker})
		}
	case room.BrakeChanged:
		if e.On {
			l.Add(attention.Item{Kind: attention.Braked, Topic: e.Topic, Count: e.Count})
		} else {
			l.Remove(func(it attention.Item) bool { return it.Kind == attention.Braked && it.Topic == e.Topic })
		}
	}
}

// resyncRoom makes the list's cards the room's open cards, and drops a
// brake the room released, after the watcher's hub stream lost events (it
// subscribed again first: what changes from here arrives as events). A
// lost PermissionClosed left a card listed that nothing removes (a card
// leaves only when it closes); a lost PermissionAsked, a waiting card
// never listed. The room is read before the list's lock is taken.
func (a *App) resyncRoom() {
	asks := a.hub.PermissionAsks()
	open := map[string]bool{}
	for _, ask := range asks {
		open[fmt.Sprint(ask.ID)] = true
	}
	items, _ := a.attention.Items()
	released := map[string]bool{}
	for _, it := range items {
		if it.Kind == attention.Braked && !a.hub.Braked(it.Topic) {
			released[it.Topic] = true
		}
	}
	listed := map[string]bool{}
	a.attention.Remove(func(it attention.Item) bool {
		switch it.Kind {
		case attention.Card:
			listed[it.Ref] = open[it.Ref]
			return !open[it.Ref]
		case attention.Braked:
			return released[it.Topic]
		}
		return false
	})
	for _, ask := range asks {
		if !listed[fmt.Sprint(ask.ID)] {
			a.roomAttention(room.PermissionAsked{Ask: ask})
		}
	}
}

// resyncSeats reads every seat's state after the watcher's seat stream
// lost events: a seat running again has no exit to report, and a limit
// that turned on or off unseen is listed as its event would have (a stale
// "limited" would have hidden the seat's next stop on its limit). A card
// that timed out stays: its dialog may still wait in the pane of this
// very launch.
func (a *App) resyncSeats(limited map[[2]string]bool) {
	for _, in := range a.seats.Seats("") {
		if in.State == seats.StateStarting || in.State == seats.StateRunning {
			a.attention.Remove(func(it attention.Item) bool {
				return it.Kind == attention.Exited && it.Topic == in.Topic && it.Account == in.Account
			})
		}
		a.seatAttention(seats.SeatUpdated{Topic: in.Topic, Account: in.Account}, limited)
	}
}

// addressesAdmin reports whether p names the human (by the admin account's
// name now), as the chat marks it; the human's own posts never do.
func (a *App) addressesAdmin(p room.Post) bool {
	if p.Role == room.RoleAdmin || len(p.To) == 0 {
		return false
	}
	admin, ok := a.accounts.Admin()
	if !ok {
		return false
	}
	name := admin.DisplayName()
	for _, n := range p.To {
		if strings.EqualFold(strings.TrimSpace(n), name) {
			return true
		}
	}
	return false
}

// seatAttention lists a seat's unrequested exit with an error, and its
// stop on the usage limit and its return from it (limited: the last state
// seen per seat).
func (a *App) seatAttention(e seats.Event, limited map[[2]string]bool) {
	l := a.attention
	switch e := e.(type) {
	case seats.SeatChanged:
		in := e.Info
		key := [2]string{in.Topic, in.Account}
		switch in.State {
		case seats.StateExited:
			delete(limited, key)
			if why := exitReason(in); why != "" {
				l.Add(attention.Item{Kind: attention.Exited, Topic: in.Topic, Account: in.Account, Detail: why})
			}
		case seats.StateStarting, seats.StateRunning:
			// Back: what its last run asked of the human is over.
			l.Remove(func(it attention.Item) bool {
				return it.Topic == in.Topic && it.Account == in.Account &&
					(it.Kind == attention.Exited || it.Kind == attention.CardTimedOut)
			})
		}
	case seats.SeatUpdated:
		in, ok := a.seatInfo(e.Topic, e.Account)
		if !ok {
			return
		}
		key := [2]string{e.Topic, e.Account}
		lim := in.Limit
		if lim.Limited == limited[key] {
			return
		}
		limited[key] = lim.Limited
		isSeat := func(it attention.Item) bool { return it.Topic == e.Topic && it.Account == e.Account }
		if lim.Limited {
			l.Remove(func(it attention.Item) bool { return isSeat(it) && it.Kind == attention.Resumed })
			resets := ""
			if !lim.ResetsAt.IsZero() {
				resets = lim.ResetsAt.Format(time.RFC3339)
			}
			l.Add(attention.Item{Kind: attention.Limited, Topic: e.Topic, Account: e.Account, Detail: resets})
			return
		}
		l.Remove(func(it attention.Item) bool { return isSeat(it) && it.Kind == attention.Limited })
		l.Add(attention.Item{Kind: attention.Resumed, Topic: e.Topic, Account: e.Account})
	}
}

// seatInfo is the seat (topic, account) as the Manager reports it.
func (a *App) seatInfo(topic, account string) (seats.SeatInfo, bool) {
	for _, in := range a.seats.Seats(topic) {
		if in.Account == account {
			return in, true
		}
	}
	return seats.SeatInfo{}, false
}

// exitReason is why a seat that ended on its own needs the human: a
// non-zero exit or a signal ("" for a clean exit or a requested stop).
func exitReason(in seats.SeatInfo) string {
	if in.Requested {
		return ""
	}
	if in.Err != nil {
		return in.Err.Error()
	}
	if in.ExitCode != 0 {
		return fmt.Sprintf("exit %d", in.ExitCode)
	}
	return ""
}

// opFailed lists a failed session operation (sessionops.Options.OnFailed)
// in the asking seat's topic.
func (a *App) opFailed(rec room.SessionRecord) {
	if a.attention == nil {
		return
	}
	topic := rec.RequesterTopic
	if topic == "" {
		topic = rec.TopicID
	}
	// The asking seat's item, not its target's: the ring's cooldown is per
	// seat, and a seat whose operations on a sibling fail would take the
	// sibling's ring (its card's) for the cooldown.
	a.attention.Add(attention.Item{Kind: attention.OpFailed, Topic: topic, Account: rec.Requester,
		Ref: rec.OperationID, Detail: rec.Action + ": " + rec.Error})
}

// watchMCPDeaths lists a local MCP server that exited or failed, by its mcp
// account, and drops the item once it runs again (last: each server's
// phase as listed so far).
func (a *App) watchMCPDeaths(ctx context.Context, last map[string]localmcp.Phase) {
	defer a.attentionWait.Done()
	defer func() {
		if r := recover(); r != nil {
			a.logger.Error("mcp attention watcher panic", "panic", r)
		}
	}()
	if a.mcp == nil {
		return
	}
	var seen uint64
	for {
		gen, ok := a.mcp.WaitChange(ctx.Done(), seen)
		if !ok {
			return
		}
		seen = gen
		a.mcpPass(last)
	}
}

// mcpPass compares every mcp account's server with its last phase.
func (a *App) mcpPass(last map[string]localmcp.Phase) {
	for _, acc := range a.accounts.All() {
		if acc.Kind != config.KindMCP {
			continue
		}
		a.mcpAttention(acc, last)
	}
}

// mcpAttention compares one mcp account's server with its last phase.
func (a *App) mcpAttention(acc config.Account, last map[string]localmcp.Phase) {
	name := acc.Server
	if name == "" {
		name = strings.TrimPrefix(acc.ID, config.MCPAccountIDPrefix)
	}
	st := a.mcp.State(name)
	if st.Phase == last[name] {
		return
	}
	last[name] = st.Phase
	isIt := func(it attention.Item) bool { return it.Kind == attention.MCPDied && it.Account == acc.ID }
	switch st.Phase {
	case localmcp.Exited:
		a.attention.Add(attention.Item{Kind: attention.MCPDied, Account: acc.ID, Detail: fmt.Sprintf("exit %d", st.Code)})
	case localmcp.Failed:
		a.attention.Add(attention.Item{Kind: attention.MCPDied, Account: acc.ID, Detail: st.Reason})
	case localmcp.Running, localmcp.Stopped:
		a.attention.Remove(isIt)
	}
}
