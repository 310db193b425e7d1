package cli

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestParseVersion: what the CLIs print for --version (Claude Code 2.1.328
// and Codex 0.169.0 as measured, docs/clis.md) and what is no version.
func TestParseVersion(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		out  string
		want Version
		ok   bool
	}{
		{"2.1.328 (Claude Code)\n", Version{2, 1, 328, false}, true},
		{"codex-cli 0.169.0\n", Version{0, 169, 0, false}, true},
		{"codex-cli 0.131.0-alpha.9", Version{0, 131, 0, true}, true},
		{"v1.2.3", Version{1, 2, 3, false}, true},
		{"claude 10.20.30.4", Version{10, 20, 30, false}, true},
		{"node 18 ; 2.1 ; then 3.4.5", Version{3, 4, 5, false}, true},
		{"", Version{}, false},
		{"Usage: claude [options]", Version{}, false},
		{"1.2", Version{}, false},
		{"1.2.x", Version{}, false},
		{"1234567890.1.1", Version{}, false},
	} {
		got, ok := ParseVersion(c.out)
		if ok != c.ok || got != c.want {
			t.Errorf("ParseVersion(%q) = %v, %v; want %v, %v", c.out, got, ok, c.want, c.ok)
		}
	}
}

func TestVersionLess(t *testing.T) {
	t.Parallel()
	v := func(a, b, c int, pre bool) Version { return Version{a, b, c, pre} }
	for _, c := range []struct {
		a, b Version
		less bool
	}{
		{v(2, 1, 50, false), v(2, 1, 78, false), true},
		{v(2, 1, 78, false), v(2, 1, 78, false), false},
		{v(2, 1, 328, false), v(2, 1, 78, false), false},
		{v(0, 159, 9, false), v(0, 160, 0, false), true},
		{v(1, 0, 0, false), v(0, 160, 0, false), false},
		{v(0, 160, 0, true), v(0, 160, 0, false), true},
		{v(0, 160, 0, false), v(0, 160, 0, true), false},
	} {
		if got := c.a.Less(c.b); got != c.less {
			t.Errorf("%v.Less(%v) = %v, want %v", c.a, c.b, got, c.less)
		}
	}
}

// TestNeedCheck: an older CLI is refused with what it needs, named; the
// minimum and newer pass.
func TestNeedCheck(t *testing.T) {
	t.Parallel()
	n := Need{CLI: "Claude Code", Min: Version{2, 1, 78, false}, Uses: "the StopFailure hook"}
	err := n.Check("/usr/bin/claude", Version{2, 1, 50, false})
	var old *TooOldError
	if !errors.Is(err, ErrCLITooOld) || !errors.As(err, &old) || old.Have != (Version{2, 1, 50, false}) {
		t.Fatalf("Check(2.1.50) = %v, want a TooOldError for 2.1.50", err)
	}
	for _, want := range []string{"Claude Code 2.1.50", "/usr/bin/claude", "2.1.78 or newer", "StopFailure"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	for _, ok := range []Version{{2, 1, 78, false}, {2, 1, 328, false}, {3, 0, 0, false}} {
		if err := n.Check("/usr/bin/claude", ok); err != nil {
			t.Errorf("Check(%v) = %v, want nil", ok, err)
		}
	}
}

// TestVersionBookReadsOncePerFile: a CLI is run once per executable file
// (path, size, modification time): the next start reuses the version; an
// update of the file reads it again; a failed read is not kept.
func TestVersionBookReadsOncePerFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "claude")
	if err := os.WriteFile(path, []byte("v1"), 0o755); err != nil {
		t.Fatal(err)
	}
	var runs atomic.Int32
	answer := atomic.Value{}
	answer.Store("2.1.100 (Claude Code)")
	fail := atomic.Bool{}
	b := &VersionBook{Run: func(_ context.Context, p string, env []string) ([]byte, error) {
		runs.Add(1)
		if p != path || len(env) != 1 || env[0] != "HOME=/h" {
			t.Errorf("run %q with %q", p, env)
		}
		if fail.Load() {
			return nil, errors.New("exit status 1")
		}
		return []byte(answer.Load().(string)), nil
	}}
	env := []string{"HOME=/h"}
	read := func(want Version) {
		t.Helper()
		v, err := b.Read(context.Background(), path, env)
		if err != nil || v != want {
			t.Fatalf("Read = %v, %v; want %v", v, err, want)
		}
	}
	read(Version{2, 1, 100, false})
	read(Version{2, 1, 100, false})
	if n := runs.Load(); n != 1 {
		t.Fatalf("%d runs for two reads of one file, want 1", n)
	}
	// An update replaces the file: a new modification time (set, not
	// waited for) and size.
	answer.Store("2.1.200 (Claude Code)")
	if err := os.WriteFile(path, []byte("v2 longer"), 0o755); err != nil {
		t.Fatal(err)
	}
	later := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	read(Version{2, 1, 200, false})
	if n := runs.Load(); n != 2 {
		t.Fatalf("%d runs after the file changed, want 2", n)
	}
	// A failure is said and not kept: the next read runs again.
	if err := os.Chtimes(path, later.Add(time.Hour), later.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	fail.Store(true)
	if _, err := b.Read(context.Background(), path, env); err == nil {
		t.Fatal("Read of a failing CLI = nil error")
	}
	fail.Store(false)
	answer.Store("not a version")
	if _, err := b.Read(context.Background(), path, env); err == nil || !strings.Contains(err.Error(), "printed no version") {
		t.Fatalf("Read of a CLI printing no version = %v", err)
	}
	if n := runs.Load(); n != 4 {
		t.Fatalf("%d runs, want 4: failed reads are not kept", n)
	}
	if _, err := b.Read(context.Background(), filepath.Join(t.TempDir(), "gone"), env); err == nil {
		t.Fatal("Read of a missing file = nil error")
	}
}

// TestVersionBookTimeout: a CLI that does not answer in time is unread,
// said as such, and its run is cancelled.
func TestVersionBookTimeout(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "codex")
	if err := os.WriteFile(path, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	b := &VersionBook{Timeout: time.Millisecond, Run: func(ctx context.Context, _ string, _ []string) ([]byte, error) {
		<-ctx.Done() // hangs until the book gives up
		return nil, ctx.Err()
	}}
	_, err := b.Read(context.Background(), path, nil)
	if err == nil || !strings.Contains(err.Error(), "no answer to --version") {
		t.Fatalf("Read of a hanging CLI = %v, want no answer", err)
	}
}
