//go:build unix

package seats

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/logstore"
	"github.com/pullcept/pullcept/seats/cli"
	"github.com/pullcept/pullcept/testdata/fakecli"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// manualNow is a clock that moves only when the test says: every read and
// write of a seat is stamped with it, so what counts as an echo does not
// depend on how fast a loaded machine schedules the PTY reader.
type manualNow struct {
	mu  sync.Mutex
	now time.Time
}

func (c *manualNow) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *manualNow) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// observedRig is a Manager on a manual clock with one generic CLI account
// (the fake CLI, which reports nothing), started with the fake's flags opts.
func observedRig(t *testing.T, opts string) (*Manager, *manualNow, config.Account) {
	t.Helper()
	dir := t.TempDir()
	store, err := logstore.Open(filepath.Join(dir, "data"), logstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	clock := &manualNow{now: time.Date(2026, 10, 2, 14, 30, 0, 0, time.UTC)}
	book := &accountBook{m: map[string]config.Account{}}
	m, err := NewManager(ManagerOptions{Sessions: store, Accounts: book.get, PullceptPath: fakecli.Command(t),
		Environ: os.Environ, Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	m.SetRoom(managerRoom)
	t.Cleanup(func() {
		m.Close()
		_ = store.Close()
	})
	work := filepath.Join(dir, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	a := fakecli.Account(t, "sh", "Shell", work, opts)
	book.put(a)
	return m, clock, a
}

// TestObservedSeatSaysOutputThenIdle: a generic CLI, which reports
// nothing, is "output" while its terminal gets output and idle after a
// second without any (spec «走っているアカウントが何をしているか» #82, #148),
// and the echo of the human's keys and the CLI's answer to them, read at
// the time they were typed, leave it idle (issue 34 item 9). Before, such
// a seat showed "running" forever.
func TestObservedSeatSaysOutputThenIdle(t *testing.T) {
	m, clock, a := observedRig(t, "")
	if _, err := m.Start(managerTopic, a.ID, 100, 20); err != nil {
		t.Fatalf("Start: %v", err)
	}
	s, _ := m.Seat(managerTopic, a.ID)
	start := clock.Now()
	activity := func() cli.Activity { return s.info().Activity }
	// Its banner is output of its own: nothing was typed into it.
	testkit.Eventually(t, "the fake CLI's banner", func() bool { return strings.Contains(s.Screen().Text(), fakecli.Ready) })
	if got := activity(); got.Kind != cli.ActivityOutput || !got.Since.Equal(start) {
		t.Fatalf("after the banner: %+v, want output since %v", got, start)
	}
	clock.advance(cli.QuietAfter)
	testkit.Eventually(t, "idle after a second without output", func() bool {
		a := activity()
		return a.Kind == cli.ActivityIdle && a.Since.Equal(start)
	})

	// The human types a line: the terminal echoes it and the CLI answers
	// at once ("got: …"), all at the time of the keys.
	if err := s.Input([]byte("hello\r")); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, "the CLI's answer to the line", func() bool { return strings.Contains(s.Screen().Text(), "got: hello") })
	if got := activity(); got.Kind != cli.ActivityIdle || !got.Since.Equal(start) {
		t.Fatalf("after the human's line and its echo: %+v, want still idle since %v", got, start)
	}
}

// TestObservedResizeIsNotOutput: what a CLI draws in answer to a resize
// (a full redraw at SIGWINCH) leaves its seat idle, as the echo of a key
// does (issue 35: a shell's pane said "outputting" at every resize of the
// window). What it writes later of its own still counts: the window is
// cli.EchoWindow's, TestObservedEchoIsNotOutput.
func TestObservedResizeIsNotOutput(t *testing.T) {
	m, clock, a := observedRig(t, "-redraw")
	if _, err := m.Start(managerTopic, a.ID, 100, 20); err != nil {
		t.Fatalf("Start: %v", err)
	}
	s, _ := m.Seat(managerTopic, a.ID)
	start := clock.Now()
	activity := func() cli.Activity { return s.info().Activity }
	testkit.Eventually(t, "the fake CLI's banner", func() bool { return strings.Contains(s.Screen().Text(), fakecli.Ready) })
	clock.advance(cli.QuietAfter)
	testkit.Eventually(t, "idle after a second without output", func() bool { return activity().Kind == cli.ActivityIdle })

	clock.advance(time.Minute)
	if err := s.Resize(90, 20); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, "the CLI's redraw at the new size", func() bool {
		return strings.Contains(s.Screen().Text(), fakecli.Redrawn+" 90x20")
	})
	if got := activity(); got.Kind != cli.ActivityIdle || !got.Since.Equal(start) {
		t.Fatalf("after a resize and its redraw: %+v, want still idle since %v", got, start)
	}

}

// TestReportingKindsAreNotObserved: Claude Code and Codex report their
// turns (hooks, rollout, app-server notes), which come first: only a kind
// that reports nothing has its terminal read for its activity.
func TestReportingKindsAreNotObserved(t *testing.T) {
	t.Parallel()
	kinds := newKinds(ManagerOptions{})
	for k, want := range map[config.Kind]bool{config.KindCLI: true, config.KindClaudeCode: false, config.KindCodexCLI: false} {
		if got := kinds[k].Observed(); got != want {
			t.Errorf("%s: Observed = %v, want %v", k, got, want)
		}
	}
}
