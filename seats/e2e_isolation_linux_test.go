package seats_test

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats"
	"github.com/pullcept/pullcept/testdata/fakeapi"
	"github.com/pullcept/pullcept/testdata/fakecli"
)

// snoopScript is seat A's command: it lists every process its /proc shows
// (own: its environment holds SEAT_MARK=a; other: readable and not;
// unreadable), then for each pid in PEERS (seat B's and this test's) tries
// to read its environment, to probe it and to send it SIGTERM, looks at
// the session bus, tries to unmount its /proc, to remove the room socket
// and to plant a file beside it, and says it is done.
const snoopScript = `
for d in /proc/[0-9]*; do
  p=${d#/proc/}
  if e=$(tr '\0' '\n' < "$d/environ" 2>/dev/null); then
    case "$e" in *SEAT_MARK=a*) echo "$p own";; *) echo "$p other";; esac
  else echo "$p unreadable"; fi
done > procs.txt
for p in $PEERS; do
  cat "/proc/$p/environ" >/dev/null 2>&1 && echo "$p environ read"
  kill -0 "$p" 2>/dev/null && echo "$p probed"
  kill -TERM "$p" 2>/dev/null && echo "$p signalled"
  echo "$p tried"
done > peers.txt
if [ -S "$XDG_RUNTIME_DIR/bus" ]; then echo "bus reachable"; else echo "bus hidden"; fi > bus.txt
echo "address ${DBUS_SESSION_BUS_ADDRESS:-unset}" >> bus.txt
umount -l /proc 2>/dev/null && echo "proc unmounted" >> bus.txt
ls /proc | grep -c '^[0-9]' > after.txt
rm -f "$PULLCEPT_ROOM_SOCKET" 2>/dev/null
touch "${PULLCEPT_ROOM_SOCKET%/*}/planted" 2>/dev/null && echo "planted" > sock.txt
if [ -S "$PULLCEPT_ROOM_SOCKET" ]; then echo "socket kept"; else echo "socket gone"; fi >> sock.txt
echo snoop-done
while read -r line; do :; done
`

// sessionBusDir makes a D-Bus session bus stand-in (a socket that
// answers) at <dir>/bus and returns the seat environment that names it
// both ways: DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR.
func sessionBusDir(t *testing.T) []string {
	t.Helper()
	dir, err := os.MkdirTemp("", "pullcept-bus-") // a socket path has ~100 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	ln, err := net.Listen("unix", filepath.Join(dir, "bus"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	return []string{"XDG_RUNTIME_DIR=" + dir, "DBUS_SESSION_BUS_ADDRESS=unix:path=" + filepath.Join(dir, "bus")}
}

// TestE2ESeatsCannotSeeEachOther (docs/design.md §16): seat B (a fake CLI
// that joined the room through its sidecar, from inside its namespaces)
// runs; seat A, a shell, looks for it. A's /proc shows only A's own
// processes — none of B's, none of Pullcept's (this test process); reading
// their environment, probing them and signalling them fail; the session
// bus is covered and its variable gone; /proc cannot be unmounted, even as
// root. B is unharmed: its processes live and a post still reaches it.
func TestE2ESeatsCannotSeeEachOther(t *testing.T) {
	r := newRig(t, nil)
	if !namespacesHere(t) {
		t.Skip("this machine gives seats no namespaces")
	}
	r.setEnv(append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}, sessionBusDir(t)...))
	lines := filepath.Join(r.root, "bea-lines.jsonl")
	bea := fakecli.Account(t, "bea", "Bea", r.workDir("bea"), "-join -lines "+config.QuoteWord(lines))
	bea.Env = append(bea.Env, config.EnvVar{Name: "SEAT_MARK", Value: "b"})
	r.addAccount(bea)
	_, beaSeat := r.start(bea.ID)
	r.waitReady(bea.ID, beaSeat)
	beaPid := r.seatInfo(bea.ID).Pid
	var family []int // B's init, its fake CLI and the CLI's sidecar
	e2eUntil(t, "Bea's processes", func() bool {
		family = append([]int{beaPid}, descendants(beaPid)...)
		return len(family) >= 3
	}, beaSeat.Done())
	peers := append(slices.Clone(family), os.Getpid())

	ana := r.addAccount(config.Account{ID: "ana", Name: "Ana", Kind: config.KindCLI, WorkDir: r.workDir("ana"),
		Command: "/bin/sh", LaunchOptions: "-c " + config.QuoteWord(snoopScript),
		Env: []config.EnvVar{{Name: "SEAT_MARK", Value: "a"}, {Name: "PEERS", Value: joinInts(peers)}}})
	_, anaSeat := r.start(ana.ID)
	e2eUntil(t, "Ana's look around", func() bool { return strings.Contains(seatText(anaSeat), "snoop-done") }, anaSeat.Done())

	checkSnoop(t, r.workDir(ana.ID), peers)
	for _, id := range []string{ana.ID, bea.ID} {
		if in := r.seatInfo(id); !in.Isolation.Isolated {
			t.Errorf("seat %s: %s", id, in.Isolation)
		}
	}
	// B is unharmed: every process of it lives, and it still reads posts.
	for _, pid := range family {
		if gone(pid) {
			t.Errorf("Bea's process %d is gone", pid)
		}
	}
	if st := beaSeat.State(); st != seats.StateRunning {
		t.Fatalf("Bea is %v after Ana's attempts", st)
	}
	p := r.post("still there? @Bea")
	fakeLines(t, lines, beaSeat.Done(), typedTag(p, "Bea"), "still there?")
}

// checkSnoop reads what the snoop script found in dir.
func checkSnoop(t *testing.T, dir string, peers []int) {
	t.Helper()
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	procs := read("procs.txt")
	seen := map[int]string{}
	for _, l := range strings.Split(strings.TrimSpace(procs), "\n") {
		f := strings.Fields(l)
		if pid, err := strconv.Atoi(f[0]); err == nil && len(f) == 2 {
			seen[pid] = f[1]
		}
	}
	// Its init (pid 1) may be unreadable to it: it runs in the user
	// namespace one level up.
	if len(seen) < 2 || len(seen) > 4 || seen[1] == "" {
		t.Errorf("Ana's /proc lists %v, want its init (1) and its shell only:\n%s", seen, procs)
	}
	for pid, what := range seen {
		if what == "other" {
			t.Errorf("Ana sees pid %d of someone else:\n%s", pid, procs)
		}
	}
	for _, pid := range peers {
		if seen[pid] == "own" {
			// The same number is one of Ana's own pids in its namespace:
			// what was tried on it says nothing of the peer.
			t.Logf("peer pid %d is also one of Ana's own; not checked", pid)
			continue
		}
		if _, ok := seen[pid]; ok {
			t.Errorf("Ana's /proc lists peer pid %d", pid)
		}
	}
	peerLines := read("peers.txt")
	for _, pid := range peers {
		if seen[pid] == "own" {
			continue
		}
		for _, act := range []string{"environ read", "probed", "signalled"} {
			if strings.Contains(peerLines, fmt.Sprintf("%d %s\n", pid, act)) {
				t.Errorf("Ana's %s pid %d worked:\n%s", act, pid, peerLines)
			}
		}
		if !strings.Contains(peerLines, fmt.Sprintf("%d tried\n", pid)) {
			t.Errorf("Ana did not try pid %d:\n%s", pid, peerLines)
		}
	}
	if bus := read("bus.txt"); bus != "bus hidden\naddress unset\n" {
		t.Errorf("Ana's session bus:\n%s\nwant it hidden, its variable unset and /proc kept", bus)
	}
	// The room socket's directory is read-only in a seat: it connects
	// there, but cannot remove the socket (to listen in its place) or
	// plant a file.
	if sock := read("sock.txt"); sock != "socket kept\n" {
		t.Errorf("Ana at the room socket:\n%s\nwant it kept and nothing planted", sock)
	}
	if n, _ := strconv.Atoi(strings.TrimSpace(read("after.txt"))); n == 0 || n > 4 {
		t.Errorf("after the unmount attempt Ana's /proc lists %d processes", n)
	}
}

func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, " ")
}

// TestE2EClaudeWithTheBusHidden: a real Claude Code seat, isolated, with a
// session bus on the machine it may not see, starts, joins the room
// through its sidecar from inside its namespaces and answers a post; its
// CLI's environment holds no bus address.
func TestE2EClaudeWithTheBusHidden(t *testing.T) {
	r := newRig(t, nil)
	if !namespacesHere(t) {
		t.Skip("this machine gives seats no namespaces")
	}
	env, _ := fakeapi.ClaudeEnv(t, r.base, r.root)
	r.setEnv(append(env, sessionBusDir(t)...))
	ada := r.claudeAccount("ada", "Ada")
	_, s := r.start(ada.ID)
	r.waitReady(ada.ID, s)
	r.post("hello @Ada")
	reply := r.waitPost("Ada's reply", func(p room.Post) bool { return p.Account == ada.ID })
	if reply.Content != "reply to: hello" {
		t.Errorf("Ada's reply = %q", reply.Content)
	}
	in := r.seatInfo(ada.ID)
	if !in.Isolation.Isolated || in.Isolation.SessionBus {
		t.Errorf("Ada's isolation = %+v, want isolated without the bus", in.Isolation)
	}
	kids := descendants(in.Pid)
	if len(kids) == 0 {
		t.Fatal("Ada's init has no CLI under it")
	}
	cliEnv, err := environOf(kids[0])
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(cliEnv, func(kv string) bool { return strings.HasPrefix(kv, "DBUS_SESSION_BUS_ADDRESS=") }) {
		t.Errorf("Ada's CLI (pid %d) has the session bus's address", kids[0])
	}
	r.waitStop(ada.ID, time.Time{})
}
