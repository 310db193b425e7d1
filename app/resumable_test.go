package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pullcept/pullcept/testdata/testkit"
	"github.com/pullcept/pullcept/tui"
)

// runningSeats reads running-seats.json's (topic, account) pairs.
func runningSeats(t *testing.T, dataDir string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dataDir, RunningSeatsFile))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Seats []seatMark }
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range doc.Seats {
		out = append(out, s.Topic+"/"+s.Account)
	}
	return out
}

// TestRunningSeatsFollowTheManager: a started seat is in
// running-seats.json; a clean end leaves nothing there.
func TestRunningSeatsFollowTheManager(t *testing.T) {
	a, b := openStaying(t)
	topic, _ := b.NewTopic()
	if _, err := b.StartSeat(topic, "sh", 80, 24); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, "the seat recorded as running", func() bool {
		return slices.Equal(runningSeats(t, a.dataDir), []string{topic + "/sh"})
	})
	b.Close()
	a.Close()
	if got := runningSeats(t, a.dataDir); len(got) != 0 {
		t.Fatalf("after a clean end running-seats.json lists %v", got)
	}
}

// TestCrashLeavesResumableSeats: the seats a crash left (running-seats.json
// still listing them) are offered as resumable in their topic and nowhere
// else, started by the start key (then running, no longer offered), or
// dismissed by the stop key; nothing starts by itself.
func TestCrashLeavesResumableSeats(t *testing.T) {
	a0, err := openShell(t, stayCommand(t), "")
	if err != nil {
		t.Fatal(err)
	}
	dir := a0.dataDir
	a0.Close()
	left := `{"seats":[{"topic":"t1","account":"sh","since":"2026-12-01T10:00:00Z"},{"topic":"t2","account":"sh","since":"2026-12-01T10:00:00Z"}]}`
	if err := os.WriteFile(filepath.Join(dir, RunningSeatsFile), []byte(left), 0o600); err != nil {
		t.Fatal(err)
	}
	a, err := Open(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	b := NewBackend(a)
	t.Cleanup(b.Close)
	if !slices.ContainsFunc(a.notices, func(n string) bool { return strings.Contains(n, "resumable") }) {
		t.Errorf("no start-up notice of the resumable seats: %q", a.notices)
	}
	if a.seats.Running("sh") {
		t.Fatal("a seat the crash left started by itself")
	}
	s1 := b.Seats("t1")
	if len(s1) != 1 || !s1[0].Resumable || s1[0].State != tui.SeatOffline || s1[0].Account != "sh" {
		t.Fatalf("t1's seats = %+v, want sh offline and resumable", s1)
	}
	if s := b.Seats("t3"); len(s) != 0 {
		t.Fatalf("another topic lists %+v", s)
	}
	if _, err := b.StartSeat("t1", "sh", 80, 24); err != nil {
		t.Fatal(err)
	}
	if s := b.Seats("t1"); len(s) != 1 || s[0].Resumable || s[0].State != tui.SeatRunning {
		t.Fatalf("t1's seats after the start key = %+v, want it running", s)
	}
	if err := b.StopSeat("t2", "sh"); err != nil {
		t.Fatalf("the stop key on a resumable seat: %v", err)
	}
	if s := b.Seats("t2"); len(s) != 0 {
		t.Fatalf("t2's seats after dismissing = %+v", s)
	}
	testkit.Eventually(t, "the file lists the running seat only", func() bool {
		return slices.Equal(runningSeats(t, dir), []string{"t1/sh"})
	})
}

// TestRunningSeatsRetryAFailedWrite: a write of running-seats.json that
// fails (on Windows a rename over a file a reader holds open; here the
// path is a directory for a while) is tried again without waiting for the
// next seat event — 30 failures logged, far more than the seat's start
// has events — so a seat that goes on running is recorded once the path
// is free. Before, a running seat stayed unrecorded until another event.
func TestRunningSeatsRetryAFailedWrite(t *testing.T) {
	lo, hi := marksRetryMin, marksRetryMax
	t.Cleanup(func() { marksRetryMin, marksRetryMax = lo, hi }) // after the App's own cleanups
	marksRetryMin, marksRetryMax = time.Millisecond, 5*time.Millisecond
	a, b := openStaying(t)
	path := filepath.Join(a.dataDir, RunningSeatsFile)
	if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(path, "blocker"), 0o700); err != nil {
		t.Fatal(err)
	}
	topic, _ := b.NewTopic()
	if _, err := b.StartSeat(topic, "sh", 80, 24); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, "30 failed writes logged", func() bool {
		log, _ := os.ReadFile(filepath.Join(a.dataDir, logFileName))
		return strings.Count(string(log), "running seats not recorded") >= 30
	})
	if err := os.RemoveAll(path); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, "the seat recorded once the path is free", func() bool {
		_, err := os.Stat(path)
		return err == nil && slices.Equal(runningSeats(t, a.dataDir), []string{topic + "/sh"})
	})
}
