package seats

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/logstore"
	"github.com/pullcept/pullcept/testdata/fakecli"
)

// TestOwnsProcess: a listed seat's child is the Manager's, this test
// process is not, and an ended seat owns nothing.
func TestOwnsProcess(t *testing.T) {
	dir := t.TempDir()
	store, err := logstore.Open(filepath.Join(dir, "data"), logstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	work := filepath.Join(dir, "work")
	if err := os.Mkdir(work, 0o700); err != nil {
		t.Fatal(err)
	}
	a := fakecli.Account(t, "own", "Own", work, "-stay")
	m, err := NewManager(ManagerOptions{Sessions: store, PullceptPath: fakecli.Command(t), Environ: os.Environ,
		Accounts: func(id string) (config.Account, bool) { return a, id == a.ID }})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	m.SetRoom(RoomEndpoint{URL: "ws://127.0.0.1:9/room", HooksURL: "http://127.0.0.1:9", Token: "t"})
	if _, err := m.Start("topic-1", a.ID, 80, 24); err != nil {
		t.Fatal(err)
	}
	s, ok := m.Seat("topic-1", a.ID)
	if !ok {
		t.Fatal("no seat after Start")
	}
	pid := s.proc.Pid()
	if !m.OwnsProcess(pid) {
		t.Errorf("OwnsProcess(%d) = false for the seat's child", pid)
	}
	if m.OwnsProcess(os.Getpid()) || m.OwnsProcess(0) {
		t.Error("OwnsProcess is true for a process outside every seat")
	}
	if err := m.Stop("topic-1", a.ID); err != nil {
		t.Fatal(err)
	}
	if m.OwnsProcess(pid) {
		t.Errorf("a stopped seat still owns %d", pid)
	}
}
