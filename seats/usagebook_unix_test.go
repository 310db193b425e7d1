//go:build unix

package seats

import (
	"sync"
	"testing"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
)

// testClock is a settable clock for ManagerOptions.Now.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) set(t time.Time) {
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}

// TestUsageOutlivesTheLaunch (issue 34 item 16; spec «席が自分の利用上限を
// 読む（#364）»): what a seat reads of its own usage keeps each figure with
// when it arrived; a seat started again reads the figures of the launch
// before until its own arrive, figure by figure; a topic's delete drops
// them.
func TestUsageOutlivesTheLaunch(t *testing.T) {
	r := newManagerRig(t)
	clock := &testClock{t: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
	r.m.opts.Now = clock.now // before any seat runs
	a := r.versionAccount(t, "ada", config.KindClaudeCode, versionCLI(t, t.TempDir(), "claude", "2.1.328 (Claude Code)", "", false))
	start := func() {
		t.Helper()
		if _, err := r.m.Start(managerTopic, a.ID, 100, 30); err != nil {
			t.Fatal(err)
		}
	}
	status := func(body string) {
		t.Helper()
		if !r.m.Reported(managerTopic, a.ID, room.Report{Kind: room.ReportStatus, Body: []byte(body)}) {
			t.Fatal("status report refused")
		}
	}
	if _, ok := r.m.Usage(managerTopic, a.ID); ok {
		t.Fatal("usage before any report")
	}
	start()
	t1 := clock.now()
	status(`{"context_window":{"used_percentage":30},"rate_limits":{"five_hour":{"used_percentage":40,"resets_at":1796100000},"seven_day":{"used_percentage":10}}}`)
	if err := r.m.Stop(managerTopic, a.ID); err != nil {
		t.Fatal(err)
	}
	clock.set(t1.Add(2 * time.Hour))
	start()
	u, ok := r.m.Usage(managerTopic, a.ID)
	if !ok || u.FiveHour == nil || u.FiveHour.UsedPercentage != 40 || !u.FiveHour.ReceivedAt.Equal(t1) ||
		!u.FiveHour.ResetsAt.Equal(time.Unix(1796100000, 0)) || u.SevenDay == nil || !u.SevenDay.ReceivedAt.Equal(t1) ||
		u.Context == nil || *u.Context != 30 || !u.ContextAt.Equal(t1) || !u.ReceivedAt.Equal(t1) {
		t.Fatalf("a relaunched seat's usage before it reported = %+v, %v; want the last launch's, received %v", u, ok, t1)
	}
	// Its first report names the context only (before any answer a status
	// line has no plan windows): the windows stay the last launch's.
	t2 := clock.now()
	status(`{"context_window":{"used_percentage":5}}`)
	u, _ = r.m.Usage(managerTopic, a.ID)
	if *u.Context != 5 || !u.ContextAt.Equal(t2) || u.FiveHour == nil || !u.FiveHour.ReceivedAt.Equal(t1) || !u.ReceivedAt.Equal(t2) {
		t.Fatalf("after the new launch's context = %+v; want its context at %v, the windows still at %v", u, t2, t1)
	}
	// The same value again is received again: its time moves.
	clock.set(t2.Add(time.Minute))
	status(`{"context_window":{"used_percentage":5},"rate_limits":{"five_hour":{"used_percentage":40,"resets_at":1796100000}}}`)
	u, _ = r.m.Usage(managerTopic, a.ID)
	if !u.FiveHour.ReceivedAt.Equal(clock.now()) || !u.ContextAt.Equal(clock.now()) || !u.SevenDay.ReceivedAt.Equal(t1) {
		t.Fatalf("after the same values again = %+v", u)
	}
	r.m.CloseTopic(managerTopic)
	if u, ok := r.m.Usage(managerTopic, a.ID); ok {
		t.Fatalf("usage after the topic's delete = %+v", u)
	}
}

// TestPanelShowsTheLastLaunchsFigures (issue 34 item 16): a seat started
// again lists the figures of its launch before, dated before its start,
// until it reports its own; a figure its own launch dropped (a window
// Claude Code leaves out once it reset) is not put back.
func TestPanelShowsTheLastLaunchsFigures(t *testing.T) {
	r := newManagerRig(t)
	clock := &testClock{t: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
	r.m.opts.Now = clock.now // before any seat runs
	a := r.versionAccount(t, "ada", config.KindClaudeCode, versionCLI(t, t.TempDir(), "claude", "2.1.328 (Claude Code)", "", false))
	status := func(body string) {
		t.Helper()
		if !r.m.Reported(managerTopic, a.ID, room.Report{Kind: room.ReportStatus, Body: []byte(body)}) {
			t.Fatal("status report refused")
		}
	}
	listed := func() SeatInfo {
		t.Helper()
		list := r.m.Seats(managerTopic)
		if len(list) != 1 {
			t.Fatalf("seats = %+v", list)
		}
		return list[0]
	}
	if _, err := r.m.Start(managerTopic, a.ID, 100, 30); err != nil {
		t.Fatal(err)
	}
	t1 := clock.now()
	status(`{"model":{"display_name":"Opus"},"context_window":{"used_percentage":30},"rate_limits":{"five_hour":{"used_percentage":40,"resets_at":1796100000},"seven_day":{"used_percentage":10}}}`)
	if err := r.m.Stop(managerTopic, a.ID); err != nil {
		t.Fatal(err)
	}
	clock.set(t1.Add(2 * time.Hour))
	if _, err := r.m.Start(managerTopic, a.ID, 100, 30); err != nil {
		t.Fatal(err)
	}
	in := listed()
	u := in.Usage
	if u.FiveHour == nil || *u.FiveHour != 40 || !u.FiveHourAt.Equal(t1) || !u.FiveHourResets.Equal(time.Unix(1796100000, 0)) ||
		u.Weekly == nil || !u.WeeklyAt.Equal(t1) || u.Context == nil || !u.ContextAt.Equal(t1) || u.Model != "" || !u.At.IsZero() {
		t.Fatalf("the relaunched seat lists %+v; want the last launch's figures dated %v, no model, nothing of its own", u, t1)
	}
	if !in.Started.After(t1) {
		t.Fatalf("started %v, not after the figures' %v", in.Started, t1)
	}
	t2 := clock.now()
	status(`{"model":{"display_name":"Opus"},"context_window":{"used_percentage":5}}`)
	u = listed().Usage
	if *u.Context != 5 || !u.ContextAt.Equal(t2) || u.FiveHour == nil || !u.FiveHourAt.Equal(t1) || u.Model != "Opus" {
		t.Fatalf("after its own context = %+v", u)
	}
	status(`{"rate_limits":{"five_hour":{"used_percentage":50}}}`)
	if u = listed().Usage; u.FiveHour == nil || *u.FiveHour != 50 || !u.FiveHourAt.Equal(t2) {
		t.Fatalf("after its own 5-hour window = %+v", u)
	}
	status(`{"context_window":{"used_percentage":6}}`)
	if u = listed().Usage; u.FiveHour != nil || u.Weekly == nil || !u.WeeklyAt.Equal(t1) {
		t.Fatalf("after a report without the 5-hour window = %+v; want it gone (this launch's), the week still the last launch's", u)
	}
}
