package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// relaunchScene: Lin was started again 10 minutes ago and has reported its
// context since; its plan windows are still the launch before's, received
// two hours ago. Ada runs with figures of its own launch only.
func relaunchScene() *fakeBackend {
	f := scene()
	now := testNow()
	started := now.Add(-10 * time.Minute)
	before := now.Add(-2 * time.Hour)
	f.seats["t-main"] = []SeatInfo{
		{Topic: "t-main", Account: "lin", State: SeatRunning, Started: started, Activity: Activity{Kind: ActivityIdle, Since: now},
			Model: "Opus 4.6", Effort: "high", FiveHour: pctOf(72), Weekly: pctOf(40), Context: pctOf(8),
			FiveHourResets: fiveReset, WeeklyResets: weeklyReset, UsageAt: now.Add(-time.Minute),
			FiveHourAt: before, WeeklyAt: before, ContextAt: now.Add(-time.Minute)},
	}
	return f
}

// TestGoldenRelaunchedUsage (issue 34 item 16): a seat started again shows
// the figures of its launch before until it reports its own, dimmed, and
// its usage head says they are the last known; its own figures as usual.
func TestGoldenRelaunchedUsage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		lang Lang
	}{{"120x40", LangEnglish}, {"120x40ja", LangJapanese}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m := sceneModel(t, relaunchScene(), 120, 40, tc.lang)
			golden.RequireEqual(t, m.View().Content)
		})
	}
}

// TestEarlierLaunchFigures: which figures are an earlier launch's.
func TestEarlierLaunchFigures(t *testing.T) {
	t.Parallel()
	started := testNow()
	p := pctOf(1)
	for _, c := range []struct {
		name string
		s    SeatInfo
		want bool
	}{
		{"no figures", SeatInfo{Started: started}, false},
		{"own figures", SeatInfo{Started: started, FiveHour: p, FiveHourAt: started.Add(time.Second)}, false},
		{"a window from before", SeatInfo{Started: started, Weekly: p, WeeklyAt: started.Add(-time.Second)}, true},
		{"no received time", SeatInfo{Started: started, Context: p}, false},
		{"a time without its figure", SeatInfo{Started: started, ContextAt: started.Add(-time.Hour)}, false},
	} {
		if got := earlierFigures(c.s); got != c.want {
			t.Errorf("%s: earlierFigures = %v, want %v", c.name, got, c.want)
		}
	}
	m := sceneModel(t, relaunchScene(), 120, 40, LangEnglish)
	lines := usageLines(&m.env, relaunchScene().seats["t-main"][0], 60, testNow(), false)
	if head := ansi.Strip(lines[0]); !strings.Contains(head, "Opus 4.6 · high · last known") {
		t.Errorf("the relaunched seat's usage head %q does not say last known", head)
	}
}
