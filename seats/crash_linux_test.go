//go:build linux

package seats_test

// A seat's CLI crashes or exits (docs/design.md §13, faults): with a real room, real
// PTYs and real processes, seats die by a signal of their own, by exit
// status, and by an outside SIGKILL (the OOM killer's way) while the room
// keeps delivering to a seat that lives on.

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/logstore"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats"
	"github.com/pullcept/pullcept/testdata/fakecli"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// crashWait bounds every wait: a shell starts and dies in milliseconds; the
// margin is for a loaded 2-core box.
var crashWait = testkit.Slow(30 * time.Second)

const crashTopic = "crash-topic"

// crashZombies lists this process's children in state Z, from
// /proc/<pid>/stat ("pid (comm) state ppid …"; comm may hold spaces and
// parentheses, so fields are read after the last ')').
func crashZombies(t *testing.T) []string {
	t.Helper()
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil {
		t.Fatal(err)
	}
	me := os.Getpid()
	var out []string
	for _, path := range stats {
		b, err := os.ReadFile(path)
		if err != nil {
			continue // ended meanwhile
		}
		s := string(b)
		end := strings.LastIndexByte(s, ')')
		if end < 0 {
			continue
		}
		f := strings.Fields(s[end+1:])
		if len(f) < 2 {
			continue
		}
		if ppid, err := strconv.Atoi(f[1]); err == nil && ppid == me && f[0] == "Z" {
			out = append(out, s[:end+1])
		}
	}
	return out
}

// crashAccounts are generic-CLI seats running the system shell: three die
// (their own SIGSEGV, exit status 3, an outside SIGKILL) and one lives on
// and prints what is typed into it.
func crashAccounts(work string) map[string]config.Account {
	sh := func(id, name, script string) config.Account {
		return config.Account{ID: id, Name: name, Kind: config.KindCLI, WorkDir: work, Command: "/bin/sh",
			LaunchOptions: "-c " + config.QuoteWord(script)}
	}
	return map[string]config.Account{
		// Prints, then dies of its own segmentation fault once a line is typed.
		"segv": sh("segv", "Segv", `echo segv ready; read line; kill -SEGV $$`),
		// Exits with status 3 once a line is typed.
		"quit": sh("quit", "Quit", `echo quit ready; read line; exit 3`),
		// Waits until killed from outside.
		"oom": sh("oom", "Oom", `echo oom ready; while :; do read line || exit 0; done`),
		// Lives on: echoes every line it reads.
		"live": sh("live", "Live", `echo live ready; while read line; do echo "seen: $line"; done`),
	}
}

// TestSeatCrashesLeaveNoTrace: each dying seat ends up exited (not
// requested, exit code 128+signal or its status, which the UI shows as a
// failed seat), its ledger place is free (it starts again at once), its
// process group is gone and no zombie is left, nothing more is typed into it;
// the room goes on: posts are still delivered and typed into the living seat.
func TestSeatCrashesLeaveNoTrace(t *testing.T) {
	accts := crashAccounts(t.TempDir())
	m, hub := newCrashRoom(t, accts)
	for _, id := range []string{"segv", "quit", "oom", "live"} {
		startCrashSeat(t, m, hub, accts[id])
	}
	pids := map[string]int{}
	for _, in := range m.Seats(crashTopic) {
		pids[in.Account] = in.Pid
	}

	// One post is typed into every seat: segv and quit die on reading it.
	first := crashPost(t, hub, "first", "")
	s, _ := m.Seat(crashTopic, "live")
	testkit.Eventually(t, "the living seat to print the post", func() bool { return strings.Contains(s.Screen().Text(), "seen: first") })
	// oom is killed from outside, as the OOM killer would.
	if err := syscall.Kill(pids["oom"], syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"segv": 128 + int(syscall.SIGSEGV), "quit": 3, "oom": 128 + int(syscall.SIGKILL)}
	for id, code := range want {
		checkDiedWithoutTrace(t, m, id, pids[id], code)
	}
	if z := crashZombies(t); len(z) > 0 {
		t.Fatalf("zombies left after the crashes: %q", z)
	}

	// The room goes on: the next post is delivered and typed into the
	// living seat, and into no dead one.
	second := crashPost(t, hub, "second", first.MessageID)
	testkit.Eventually(t, "the living seat to print the next post", func() bool { return strings.Contains(s.Screen().Text(), "seen: second") })
	for id := range want {
		if m.Enqueue(crashTopic, id, second) {
			t.Fatalf("a post was typed into the dead seat %s", id)
		}
	}
	if st := s.State(); st != seats.StateRunning {
		t.Fatalf("the living seat is %v, want running", st)
	}

	// Their ledger places are free: each dead seat starts again at once.
	for id := range want {
		if _, err := m.Start(crashTopic, id, 120, 30); err != nil {
			t.Fatalf("restart %s after its crash: %v", id, err)
		}
		seat, _ := m.Seat(crashTopic, id)
		testkit.Eventually(t, id+" ready again", func() bool { return strings.Contains(seat.Screen().Text(), id+" ready") })
		if err := m.Stop(crashTopic, id); err != nil {
			t.Fatal(err)
		}
	}
	if z := crashZombies(t); len(z) > 0 {
		t.Fatalf("zombies left after the restarts: %q", z)
	}
}

// newCrashRoom wires a Manager over accts as the Terminals of a room hub
// with the crash topic open and "me" as its admin.
func newCrashRoom(t *testing.T, accts map[string]config.Account) (*seats.Manager, *room.Hub) {
	t.Helper()
	store, err := logstore.Open(filepath.Join(t.TempDir(), "data"), logstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	m, err := seats.NewManager(seats.ManagerOptions{
		Sessions: store,
		Accounts: func(id string) (config.Account, bool) {
			a, ok := accts[id]
			return a, ok
		},
		// The shells never start a sidecar; .mcp.json just needs a path.
		PullceptPath: fakecli.Command(t),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	kinds := crashKinds{"me": "admin"}
	for id := range accts {
		kinds[id] = "cli"
	}
	hub, err := room.NewHub(room.HubOptions{Terminals: m, Accounts: kinds})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(hub.Close)
	hub.SetAdmin(room.Hello{Name: "Master", AccountID: "me"})
	if err := hub.OpenRoom(crashTopic); err != nil {
		t.Fatal(err)
	}
	// No server listens: the shells never dial it; the room's own
	// connections (startCrashSeat) stand in for their sidecars.
	m.SetRoom(seats.RoomEndpoint{URL: "ws://127.0.0.1:9/room", HooksURL: "http://127.0.0.1:9", Token: "unused"})
	return m, hub
}

// startCrashSeat starts a's seat, waits for its shell's prompt, and seats
// it in the room as its sidecar would (hello, then ready).
func startCrashSeat(t *testing.T, m *seats.Manager, hub *room.Hub, a config.Account) {
	t.Helper()
	if _, err := m.Start(crashTopic, a.ID, 120, 30); err != nil {
		t.Fatalf("start %s: %v", a.ID, err)
	}
	s, _ := m.Seat(crashTopic, a.ID)
	testkit.Eventually(t, a.ID+" ready", func() bool { return strings.Contains(s.Screen().Text(), a.ID+" ready") })
	c := hub.Connect()
	if err := c.Hello(room.Hello{Protocol: room.Protocol, Name: a.Name, Room: crashTopic, AccountID: a.ID}); err != nil {
		t.Fatal(err)
	}
	c.Ready()
	t.Cleanup(c.Close)
}

// checkDiedWithoutTrace waits for seat id (process group pgid) to end and
// checks it is exited, not requested, with exit code code, no longer
// running, and its whole process group gone (each seat leads its own).
func checkDiedWithoutTrace(t *testing.T, m *seats.Manager, id string, pgid, code int) {
	t.Helper()
	seat, _ := m.Seat(crashTopic, id)
	select {
	case <-seat.Done():
	case <-time.After(crashWait):
		t.Fatalf("seat %s did not end within %v: %s", id, crashWait, seat.Screen().Text())
	}
	var in seats.SeatInfo
	for _, x := range m.Seats(crashTopic) {
		if x.Account == id {
			in = x
		}
	}
	if in.State != seats.StateExited || in.Requested || in.ExitCode != code {
		t.Fatalf("seat %s after it died: %+v, want exited, not requested, code %d", id, in, code)
	}
	if m.Running(id) {
		t.Fatalf("seat %s still counts as running", id)
	}
	if err := syscall.Kill(-pgid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("seat %s: process group %d: kill 0 = %v, want ESRCH", id, pgid, err)
	}
}

// crashKinds is room.Accounts: account id → kind.
type crashKinds map[string]string

func (k crashKinds) AccountKind(id string) (string, bool) {
	v, ok := k[id]
	return v, ok
}

func crashPost(t *testing.T, h *room.Hub, content, lastSeen string) room.Post {
	t.Helper()
	res, err := h.Post(crashTopic, room.Draft{Content: content, LastSeen: lastSeen})
	if err != nil || !res.Delivered {
		t.Fatalf("post %q: %v (delivered %v)", content, err, res.Delivered)
	}
	return res.Post
}
