//go:build linux

package room

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/pullcept/pullcept/logstore"
)

// fsImmutableFL is FS_IMMUTABLE_FL from linux/fs.h (`chattr +i`): x/sys
// exports the ioctl numbers but not the flag bits.
const fsImmutableFL = 0x00000010

// logOutage makes a topic log directory unwritable and writable again.
type logOutage interface {
	on(t *testing.T)
	off(t *testing.T)
	// errno is the error a write gets during the outage.
	errno() syscall.Errno
	String() string
}

// immutableOutage is `chattr +i` on the log directory and every file in it.
// Root ignores permission bits, and the Store keeps each topic file open for
// appends, so chmod would stop nothing; the immutable flag stops root too,
// including writes through a descriptor opened before (EPERM), and creating
// files in the directory.
type immutableOutage struct{ paths []string }

func (o *immutableOutage) String() string       { return "chattr +i on the log directory and its files" }
func (o *immutableOutage) errno() syscall.Errno { return syscall.EPERM }

func setImmutable(path string, on bool) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	flags, err := unix.IoctlGetUint32(int(f.Fd()), unix.FS_IOC_GETFLAGS)
	if err != nil {
		return err
	}
	if on {
		flags |= fsImmutableFL
	} else {
		flags &^= fsImmutableFL
	}
	return unix.IoctlSetPointerInt(int(f.Fd()), unix.FS_IOC_SETFLAGS, int(flags))
}

func (o *immutableOutage) on(t *testing.T) {
	t.Helper()
	for _, p := range o.paths {
		if err := setImmutable(p, true); err != nil {
			t.Fatalf("chattr +i %s: %v", p, err)
		}
	}
}

func (o *immutableOutage) off(t *testing.T) {
	t.Helper()
	for _, p := range o.paths {
		if err := setImmutable(p, false); err != nil {
			t.Fatalf("chattr -i %s: %v", p, err)
		}
	}
}

// fsizeOutage is RLIMIT_FSIZE 0: every write to a regular file fails with
// EFBIG (Go takes SIGXFSZ without acting on it). It stands in where the
// file system or the user cannot set the immutable flag (tmpfs, no
// CAP_LINUX_IMMUTABLE); files can still be created, but none can be written.
type fsizeOutage struct{ old syscall.Rlimit }

func (o *fsizeOutage) String() string       { return "RLIMIT_FSIZE 0 (writes fail with EFBIG)" }
func (o *fsizeOutage) errno() syscall.Errno { return syscall.EFBIG }

func (o *fsizeOutage) on(t *testing.T) {
	t.Helper()
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &o.old); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: 0, Max: o.old.Max}); err != nil {
		t.Fatal(err)
	}
}

func (o *fsizeOutage) off(t *testing.T) {
	t.Helper()
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &o.old); err != nil {
		t.Fatal(err)
	}
}

// pickOutage prefers the immutable flag (a real unwritable directory, even
// for root) and falls back to RLIMIT_FSIZE where the flag cannot be set.
func pickOutage(t *testing.T, dir string) logOutage {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{dir}
	for _, e := range ents {
		paths = append(paths, filepath.Join(dir, e.Name()))
	}
	probe := filepath.Join(dir, "..", "immutable-probe")
	if err := os.WriteFile(probe, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(probe)
	if err := setImmutable(probe, true); err != nil {
		t.Logf("the immutable flag is not available here (%v); using RLIMIT_FSIZE", err)
		return &fsizeOutage{}
	}
	if err := setImmutable(probe, false); err != nil {
		t.Fatal(err)
	}
	return &immutableOutage{paths: paths}
}

// TestLogDirUnwritableMidConversation (docs/design.md §13, faults): with a real topic
// log, the log directory becomes unwritable mid-conversation. Posts from a
// socket seat and the UI are still delivered and typed, each with
// Result.LogErr and a LogFailed event (what the UI's status line shows,
// tui TestStatusLineIsNeverSilent), in an existing topic and in one whose
// file does not exist yet. When the directory is writable again, writing
// resumes on the same open file: the log holds every post but the failed
// ones, nothing unreadable, and the new topic is indexed from its first post
// that reached the log.
func TestLogDirUnwritableMidConversation(t *testing.T) {
	data := t.TempDir()
	store, err := logstore.Open(data, logstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := store.Close(); err != nil {
			t.Errorf("close store: %v", err)
		}
	})
	terms := newFakeTerms("alive/cx", "fresh/cx")
	h := newTestHub(t, store, terms, testAccounts)
	h.SetAdmin(Hello{Name: "Master", AccountID: "me"})
	for _, topic := range []string{"alive", "fresh"} {
		mustOpen(t, h, topic)
	}
	lin := seat(t, h, "alive", "Lin", "cc")
	seat(t, h, "alive", "Kai", "cx")
	linFresh := seat(t, h, "fresh", "Lin", "cc")
	seat(t, h, "fresh", "Kai", "cx")
	sub := h.Subscribe()
	defer sub.Close()

	a1 := say(t, lin, "before the outage", "")
	out := pickOutage(t, store.Dir())
	t.Logf("outage: %s", out)
	out.on(t)
	restored := false
	defer func() {
		if !restored {
			out.off(t) // never leave an undeletable temp dir behind
		}
	}()

	type sent struct {
		what  string
		topic string
		res   Result
	}
	var failed []sent
	r, err := lin.Post(Draft{Content: "during the outage", LastSeen: a1.MessageID})
	failed = append(failed, sent{"socket post", "alive", r})
	if err != nil {
		t.Fatal(err)
	}
	r, err = h.Post("alive", Draft{Content: "the human, during the outage", LastSeen: r.Post.MessageID})
	failed = append(failed, sent{"UI post", "alive", r})
	if err != nil {
		t.Fatal(err)
	}
	r, err = linFresh.Post(Draft{Content: "first words of a new topic, during the outage"})
	failed = append(failed, sent{"first post of a new topic", "fresh", r})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range failed {
		if !s.res.Delivered {
			t.Fatalf("%s: not delivered (%d missed)", s.what, len(s.res.Missed))
		}
		if !errors.Is(s.res.LogErr, out.errno()) {
			t.Fatalf("%s: LogErr %v, want %v (%s)", s.what, s.res.LogErr, out.errno(), out)
		}
	}
	// Every post of the outage was typed into the other seat and reported
	// by a LogFailed, in delivery order.
	for _, s := range failed {
		lf := nextEvent[LogFailed](t, sub, nil)
		if lf.MessageID != s.res.Post.MessageID || lf.Topic != s.topic || !errors.Is(lf.Err, out.errno()) {
			t.Fatalf("%s: LogFailed %+v, want message %s in %s", s.what, lf, s.res.Post.MessageID, s.topic)
		}
		if _, typed := terms.typedTo(s.res.Post.MessageID); !slices.Contains(typed, "cx") {
			t.Fatalf("%s: not typed into the other seat (typed into %q)", s.what, typed)
		}
	}

	out.off(t)
	restored = true
	a3 := say(t, lin, "after the outage", failed[1].res.Post.MessageID)
	f2 := say(t, linFresh, "the new topic's first logged words", failed[2].res.Post.MessageID)

	recs, more, err := store.Page("alive", "", 10)
	if err != nil || more {
		t.Fatalf("tail alive: %v (more %v)", err, more)
	}
	if got, want := recIDs(recs), []string{a1.MessageID, a3.MessageID}; !slices.Equal(got, want) {
		t.Fatalf("alive log %q, want %q (the posts during the outage are reported, not written)", got, want)
	}
	recs, _, err = store.Page("fresh", "", 10)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := recIDs(recs), []string{f2.MessageID}; !slices.Equal(got, want) {
		t.Fatalf("fresh log %q, want %q", got, want)
	}
	for _, topic := range []string{"alive", "fresh"} {
		if k := store.Skipped(topic); k != 0 {
			t.Fatalf("%s: %d unreadable lines after the outage", topic, k)
		}
	}
	topics, err := store.Topics()
	if err != nil {
		t.Fatal(err)
	}
	named := ""
	for _, tp := range topics {
		if tp.ID == "fresh" {
			named = tp.Name
		}
	}
	if want := logstore.TopicName(f2.Content); named != want {
		t.Fatalf("new topic named %q, want %q (from its first post that reached the log)", named, want)
	}
}

func recIDs(recs []logstore.Record) []string {
	ids := make([]string, 0, len(recs))
	for _, r := range recs {
		ids = append(ids, r.MessageID)
	}
	return ids
}
