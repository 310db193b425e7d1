package app

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/testdata/testkit"
	"github.com/pullcept/pullcept/tui"
)

// testShell is the generic CLI account's command: a shell every machine
// of the OS has.
var testShell = map[bool]string{true: "cmd.exe", false: "/bin/sh"}[runtime.GOOS == "windows"]

// openTest opens an App on a fresh data dir with an admin (Alice) and a
// generic CLI account running a shell (testShell), and one Backend; both
// close at the test's end.
func openTest(t *testing.T) (*App, *Backend) {
	t.Helper()
	a, err := openConfig(t, "")
	if err != nil {
		t.Fatal(err)
	}
	b := NewBackend(a)
	t.Cleanup(b.Close)
	return a, b
}

// openConfig opens an App on a fresh data dir whose config.json holds the
// accounts of openTest and the top-level members in extra (",\"k\": v", or
// ""); a successful App closes at the test's end.
func openConfig(t *testing.T, extra string) (*App, error) {
	t.Helper()
	return openShell(t, `"command":`+jsonString(testShell), extra)
}

// stayFlag makes this test binary, started as a seat's CLI, wait until it
// is killed: a seat that must stay running. Under Wine cmd.exe in a
// pseudo console ends at once (exit 0), in 1 run of 3 before the
// running-seats recorder saw it.
const stayFlag = "-pullcept-test-stay"

// openStaying is openTest with the sh account running this test binary
// with stayFlag instead of the shell.
func openStaying(t *testing.T) (*App, *Backend) {
	t.Helper()
	a, err := openShell(t, stayCommand(t), "")
	if err != nil {
		t.Fatal(err)
	}
	b := NewBackend(a)
	t.Cleanup(b.Close)
	return a, b
}

// stayCommand is the sh account's command members for openShell that run
// this test binary with stayFlag.
func stayCommand(t *testing.T) string {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return `"command":` + jsonString(self) + `,"launch_options":` + jsonString(stayFlag)
}

// openShell opens an App as openConfig does, the sh account's command
// members being command.
func openShell(t *testing.T, command, extra string) (*App, error) {
	t.Helper()
	dir := t.TempDir()
	work := t.TempDir()
	cfg := `{"accounts":[{"id":"admin","name":"Alice","kind":"admin"},
		{"id":"sh","name":"Shell","kind":"cli","cwd":` + jsonString(work) + `,` + command + `}],
		"keys":{"new_topic":["ctrl+n"]}` + extra + `}`
	if err := os.WriteFile(filepath.Join(dir, config.FileName), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	a, err := Open(dir, "test")
	if err == nil {
		t.Cleanup(a.Close)
	}
	return a, err
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// nextEvent reads events until one of type T satisfies ok.
func nextEvent[T tui.Event](t *testing.T, b *Backend, ok func(T) bool) T {
	t.Helper()
	found := make(chan T, 1)
	go func() {
		for {
			evs, open := b.NextEvents(16)
			if !open {
				return
			}
			for _, ev := range evs {
				if e, is := ev.(T); is && (ok == nil || ok(e)) {
					found <- e
					return
				}
			}
		}
	}()
	select {
	case e := <-found:
		return e
	case <-time.After(testkit.Wait):
		var zero T
		t.Fatalf("no %T event", zero)
		return zero
	}
}

// TestAppPostsThroughTheOnePath wires the real parts as Run does and posts
// as the admin through the UI backend: the post reaches the UI's events, the
// topic log and the index (named from the first post).
func TestAppPostsThroughTheOnePath(t *testing.T) {
	a, b := openTest(t)
	topic, _ := b.NewTopic()
	if err := b.OpenRoom(topic); err != nil {
		t.Fatal(err)
	}
	res, err := b.Post(topic, room.Draft{Content: "first words here"})
	if err != nil || !res.Delivered {
		t.Fatalf("post: %+v %v", res, err)
	}
	pd := nextEvent(t, b, func(e tui.PostDelivered) bool { return e.Post.MessageID == res.Post.MessageID })
	if pd.Post.Role != room.RoleAdmin || pd.Post.Speaker != "Alice" || pd.Topic != topic {
		t.Fatalf("post = %+v", pd)
	}
	data, err := os.ReadFile(filepath.Join(a.dataDir, "logs", "main", topic+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var rec map[string]any
	if err := json.Unmarshal(bytes.TrimSpace(data), &rec); err != nil || rec["speaker"] != "Alice" || rec["content"] != "first words here" {
		t.Fatalf("log line %q (%v)", data, err)
	}
	var topics []tui.TopicInfo
	testkit.Eventually(t, "the topic named from its first post", func() bool {
		topics, err = b.Topics()
		return err == nil && len(topics) == 1 && topics[0].Name != ""
	})
	if topics[0].Name != "first words here" || !topics[0].Indexed {
		t.Fatalf("topics = %+v", topics)
	}
	opts, err := a.uiOptions()
	if err != nil || len(opts.Keys["new_topic"]) != 1 || opts.AdminID != "admin" {
		t.Fatalf("ui options %+v %v", opts, err)
	}
}

// TestDeleteTopicStopsSeatsFirst: deleting a topic stops its running seats
// (a requested stop, never a failure), forgets their screens, deletes the
// log and the index entry, and closes the room.
func TestDeleteTopicStopsSeatsFirst(t *testing.T) {
	a, b := openTest(t)
	topic, _ := b.NewTopic()
	if _, err := b.Post(topic, room.Draft{Content: "to be deleted"}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.StartSeat(topic, "sh", 80, 24); err != nil {
		t.Fatal(err)
	}
	if s := b.Seats(topic); len(s) != 1 || s[0].State != tui.SeatRunning {
		t.Fatalf("seats after start = %+v (a generic CLI shows running at once)", s)
	}
	if err := b.DeleteTopic(topic); err != nil {
		t.Fatal(err)
	}
	ev := nextEvent(t, b, func(e tui.SeatChanged) bool { return e.State == tui.SeatExited })
	if !ev.Requested || ev.Err != "" {
		t.Fatalf("seat exit = %+v, want a requested stop", ev)
	}
	if a.seats.Running("sh") || len(b.Seats(topic)) != 0 {
		t.Fatalf("seat still there after the delete: %+v", b.Seats(topic))
	}
	if _, err := os.Stat(filepath.Join(a.dataDir, "logs", "main", topic+".jsonl")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("log file after delete: %v", err)
	}
	if ts, _ := b.Topics(); len(ts) != 0 {
		t.Fatalf("topics after delete = %+v", ts)
	}
	if _, err := b.Roster(topic); !errors.Is(err, room.ErrNoRoom) {
		t.Fatalf("roster after delete: %v, want ErrNoRoom", err)
	}
}

// TestDeleteAccountRefusals: the admin cannot be deleted, nor an account
// whose seat runs; once stopped it can.
func TestDeleteAccountRefusals(t *testing.T) {
	_, b := openTest(t)
	if err := b.DeleteAccount("admin"); !errors.Is(err, config.ErrAdminAccount) {
		t.Fatalf("delete admin: %v", err)
	}
	topic, _ := b.NewTopic()
	if _, err := b.StartSeat(topic, "sh", 80, 24); err != nil {
		t.Fatal(err)
	}
	if err := b.DeleteAccount("sh"); !errors.Is(err, errAccountRunning) {
		t.Fatalf("delete running: %v", err)
	}
	if err := b.StopSeat(topic, "sh"); err != nil {
		t.Fatal(err)
	}
	if err := b.DeleteAccount("sh"); err != nil {
		t.Fatalf("delete stopped: %v", err)
	}
}

// TestSkippedLinesReportedOnce: unreadable lines in a topic's log are
// reported as one LinesSkipped per new count, however often it is read.
func TestSkippedLinesReportedOnce(t *testing.T) {
	a, b := openTest(t)
	topic, _ := b.NewTopic()
	if _, err := b.Post(topic, room.Draft{Content: "a good line"}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(a.dataDir, "logs", "main", topic+".jsonl")
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString("{torn\n")
	_ = f.Close()
	for range 3 {
		if _, _, err := b.History(topic, "", 50); err != nil {
			t.Fatal(err)
		}
	}
	ev := nextEvent(t, b, func(e tui.LinesSkipped) bool { return true })
	if ev.Topic != topic || ev.Count != 1 {
		t.Fatalf("LinesSkipped = %+v", ev)
	}
	// A marker event after the reads: no second LinesSkipped before it.
	b.notes.Publish(tui.Notice{Text: "marker"})
	next := nextEvent(t, b, func(e tui.Event) bool {
		switch e := e.(type) {
		case tui.LinesSkipped:
			return true
		case tui.Notice:
			return e.Text == "marker"
		}
		return false
	})
	if again, ok := next.(tui.LinesSkipped); ok {
		t.Fatalf("reported again: %+v", again)
	}
}

// TestEventsResyncAfterACutOff: a UI that stopped reading is cut off by the
// hub rather than growing memory; its next read says Resynced and later
// events reach it on a fresh subscription.
func TestEventsResyncAfterACutOff(t *testing.T) {
	a, b := openTest(t)
	topic, _ := b.NewTopic()
	if err := b.OpenRoom(topic); err != nil {
		t.Fatal(err)
	}
	admin := room.Hello{Name: "Alice", AccountID: "admin"}
	for range 1<<16 + 8 { // more roster changes than a subscriber may hold
		a.hub.SetAdmin(admin)
	}
	nextEvent(t, b, func(tui.Resynced) bool { return true })
	res, err := b.Post(topic, room.Draft{Content: "after the resync"})
	if err != nil {
		t.Fatal(err)
	}
	nextEvent(t, b, func(e tui.PostDelivered) bool { return e.Post.MessageID == res.Post.MessageID })
}

// TestEventsArePlainCopies: what the UI gets shares no pointer with the
// room: changing a roster hue in the UI changes nothing in the hub.
func TestEventsArePlainCopies(t *testing.T) {
	a, b := openTest(t)
	topic, _ := b.NewTopic()
	me := account(t, b, "admin")
	me.Hue = intPtr(120)
	if _, err := b.SaveAccount(me); err != nil { // the room reads the hue from the account
		t.Fatal(err)
	}
	if err := b.OpenRoom(topic); err != nil {
		t.Fatal(err)
	}
	ev := nextEvent(t, b, func(e tui.RosterChanged) bool { return e.Topic == topic })
	*ev.Roster[0].Hue = 7
	roster, _ := a.hub.Roster(topic)
	if *roster[0].Hue != 120 {
		t.Fatalf("the hub's hue changed to %d through a UI event", *roster[0].Hue)
	}
}

// TestCloseEndsTheWaits: after Close, NextEvents and WaitScreens return
// at once with ok false.
func TestCloseEndsTheWaits(t *testing.T) {
	_, b := openTest(t)
	done := make(chan string, 2)
	go func() {
		for {
			if _, ok := b.NextEvents(8); !ok {
				done <- "events"
				return
			}
		}
	}()
	go func() {
		var gen uint64
		for {
			var ok bool
			if gen, ok = b.WaitScreens(gen); !ok {
				done <- "screens"
				return
			}
		}
	}()
	b.Close()
	var got []string
	for range 2 {
		select {
		case w := <-done:
			got = append(got, w)
		case <-time.After(testkit.Wait):
			t.Fatalf("waits still blocked after Close; ended: %v", got)
		}
	}
}

// TestOpenOnePerDataDir: a second Pullcept on the same data directory is
// refused before it touches anything, naming the first one's pid; once the
// first has closed, the directory opens again.
func TestOpenOnePerDataDir(t *testing.T) {
	first, err := openConfig(t, "")
	if err != nil {
		t.Fatal(err)
	}
	dir := first.dataDir
	logBefore, _ := os.ReadFile(filepath.Join(dir, logFileName))
	_, err = Open(dir, "second")
	if !errors.Is(err, config.ErrDataDirBusy) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", os.Getpid())) {
		t.Fatalf("second Open = %v, want ErrDataDirBusy naming pid %d", err, os.Getpid())
	}
	if logAfter, _ := os.ReadFile(filepath.Join(dir, logFileName)); string(logAfter) != string(logBefore) {
		t.Fatalf("the refused Open wrote to the app log:\n%s", logAfter[len(logBefore):])
	}
	first.Close()
	again, err := Open(dir, "again")
	if err != nil {
		t.Fatalf("Open after the first closed: %v", err)
	}
	again.Close()
}

// TestSetAsideIndexIsTold: an index.json that does not parse is set aside
// at start (its topics are listed from their logs), and the UI is told so
// on the status line, naming the file kept aside.
func TestSetAsideIndexIsTold(t *testing.T) {
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs", "main")
	if err := os.MkdirAll(logs, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(logs, "index.json"), []byte(`{"topics": [`), 0o600); err != nil {
		t.Fatal(err)
	}
	a, err := Open(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	b := NewBackend(a)
	t.Cleanup(b.Close)
	n := nextEvent(t, b, func(n tui.Notice) bool { return strings.Contains(n.Text, "index") })
	if !strings.Contains(n.Text, "kept as "+filepath.Join(logs, "index.json.bad-")) || !strings.Contains(n.Text, "rebuilt") {
		t.Fatalf("notice %q does not say where the index was kept and what happens", n.Text)
	}
}

// TestPreviewOfAnAccountThatStartsNothing: the human's own account shows
// no launch line and no problem in the editor (it read "this kind of
// account does not launch" as an error); a seat's account still previews.
func TestPreviewOfAnAccountThatStartsNothing(t *testing.T) {
	_, b := openTest(t)
	if line, problems := b.Preview(tui.AccountInfo{ID: "admin", Kind: tui.KindAdmin, Name: "Alice"}); line != "" || len(problems) != 0 {
		t.Errorf("admin preview: %q, problems %q; want none", line, problems)
	}
	var sh tui.AccountInfo
	accounts, err := b.Accounts()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range accounts {
		if a.ID == "sh" {
			sh = a
		}
	}
	if line, _ := b.Preview(sh); !strings.Contains(line, filepath.Base(testShell)) {
		t.Errorf("a seat's preview lost its line: %q", line)
	}
}
