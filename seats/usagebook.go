package seats

import (
	"sync"
	"time"

	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats/cli"
)

// usageBook keeps, per seat (topic, account), the last usage figures its
// launches reported, each with its own received time: what a seat reads of
// itself (my_usage, Manager.Usage; spec «席が自分の利用上限を読む（#364）»).
// It outlives a launch: a seat started again reads the figures of the one
// before, with when they arrived, until its own arrive («同じ席を起動し直せ
// ば、自分の値が届くまで前の値を受け取った時刻つきで返す»); a topic's
// delete drops them. The panel shows a launch's own figures (Seat.usage).
// mu is a leaf.
type usageBook struct {
	mu sync.Mutex
	m  map[seatKey]bookedUsage
}

// bookedUsage is one seat's figures; a zero at is a figure never received.
type bookedUsage struct {
	fiveHour, weekly bookedWindow
	context          *float64
	contextAt        time.Time
}

type bookedWindow struct {
	used   *float64
	resets time.Time
	at     time.Time
}

// note takes the figures of a report: each one received later than the
// one kept replaces it (with its reset time); the others stay.
func (b *usageBook) note(k seatKey, u cli.Usage) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.m == nil {
		b.m = map[seatKey]bookedUsage{}
	}
	e := b.m[k]
	if u.FiveHour != nil && u.FiveHourAt.After(e.fiveHour.at) {
		e.fiveHour = bookedWindow{used: clonePct(u.FiveHour), resets: u.FiveHourResets, at: u.FiveHourAt}
	}
	if u.Weekly != nil && u.WeeklyAt.After(e.weekly.at) {
		e.weekly = bookedWindow{used: clonePct(u.Weekly), resets: u.WeeklyResets, at: u.WeeklyAt}
	}
	if u.Context != nil && u.ContextAt.After(e.contextAt) {
		e.context, e.contextAt = clonePct(u.Context), u.ContextAt
	}
	b.m[k] = e
}

// fill gives u, the usage of k's launch started at started, the figures
// it has not reported yet from the launches before: each figure the book
// received before started, with its reset and received times. A figure this
// launch reported and then dropped (Claude Code leaves a window out once it
// reset) is not put back.
func (b *usageBook) fill(k seatKey, started time.Time, u *cli.Usage) {
	b.mu.Lock()
	e, ok := b.m[k]
	b.mu.Unlock()
	if !ok {
		return
	}
	earlier := func(at time.Time) bool { return !at.IsZero() && at.Before(started) }
	if u.FiveHour == nil && e.fiveHour.used != nil && earlier(e.fiveHour.at) {
		u.FiveHour, u.FiveHourResets, u.FiveHourAt = clonePct(e.fiveHour.used), e.fiveHour.resets, e.fiveHour.at
	}
	if u.Weekly == nil && e.weekly.used != nil && earlier(e.weekly.at) {
		u.Weekly, u.WeeklyResets, u.WeeklyAt = clonePct(e.weekly.used), e.weekly.resets, e.weekly.at
	}
	if u.Context == nil && e.context != nil && earlier(e.contextAt) {
		u.Context, u.ContextAt = clonePct(e.context), e.contextAt
	}
}

// dropTopic forgets the figures of every seat of topic (its delete).
func (b *usageBook) dropTopic(topic string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for k := range b.m {
		if k.topic == topic {
			delete(b.m, k)
		}
	}
}

// usage is k's figures for the usage frame; ok is false when none was
// ever received.
func (b *usageBook) usage(k seatKey) (room.SeatUsage, bool) {
	b.mu.Lock()
	e, ok := b.m[k]
	b.mu.Unlock()
	if !ok {
		return room.SeatUsage{}, false
	}
	out := room.SeatUsage{FiveHour: e.fiveHour.window(), SevenDay: e.weekly.window(), Context: clonePct(e.context),
		ContextAt: e.contextAt}
	for _, at := range []time.Time{e.fiveHour.at, e.weekly.at, e.contextAt} {
		if at.After(out.ReceivedAt) {
			out.ReceivedAt = at
		}
	}
	return out, !out.ReceivedAt.IsZero()
}

// window is w for the usage frame; nil when never received.
func (w bookedWindow) window() *room.UsageWindow {
	if w.used == nil {
		return nil
	}
	return &room.UsageWindow{UsedPercentage: *w.used, ResetsAt: w.resets, ReceivedAt: w.at}
}

func clonePct(p *float64) *float64 {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
