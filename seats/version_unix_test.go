//go:build unix

package seats

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats/cli"
)

// versionCLI writes a fake CLI at dir/name: `--version` prints version
// (and appends a line to runs, when set); any other line runs as a seat
// that waits to be stopped. hang makes `--version` never answer.
func versionCLI(t *testing.T, dir, name, version, runs string, hang bool) string {
	t.Helper()
	answer := "echo " + config.QuoteWord(version)
	if hang {
		answer = "exec sleep 3600"
	}
	count := ""
	if runs != "" {
		count = "echo run >> " + config.QuoteWord(runs) + "\n  "
	}
	script := "#!/bin/sh\nif [ \"$1\" = --version ]; then\n  " + count + answer + "\n  exit 0\nfi\nexec sleep 3600\n"
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// versionAccount adds an account of kind running command in its own
// working directory.
func (r *managerRig) versionAccount(t *testing.T, id string, kind config.Kind, command string) config.Account {
	t.Helper()
	work := filepath.Join(r.dir, "work-"+id)
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	a := config.Account{ID: id, Name: id, Kind: kind, WorkDir: work, Command: command}
	r.book.put(a)
	return a
}

// TestStartRefusesTooOldCLI (issue 34 item 12): a Claude Code or Codex CLI
// older than its launch line needs is refused before the seat starts,
// naming the version needed, and nothing of the start is left: no
// .mcp.json, no topic entry, no ledger place.
func TestStartRefusesTooOldCLI(t *testing.T) {
	r := newManagerRig(t)
	bin := t.TempDir()
	for _, c := range []struct {
		kind    config.Kind
		version string
		have    string
		need    string
		appSrv  bool
	}{
		{config.KindClaudeCode, "2.1.50 (Claude Code)", "2.1.50", "Claude Code 2.1.78 or newer", false},
		{config.KindCodexCLI, "codex-cli 0.150.3", "0.150.3", "Codex CLI 0.160.0 or newer", false},
		{config.KindCodexCLI, "codex-cli 0.160.0-alpha.2", "0.160.0-pre", "Codex CLI 0.160.0 or newer", true},
	} {
		id := strings.ReplaceAll(string(c.kind)+"-"+c.have, ".", "-")
		a := r.versionAccount(t, id, c.kind, versionCLI(t, bin, id, c.version, "", false))
		if c.kind == config.KindCodexCLI {
			mode := c.appSrv
			a.CodexAppServer = &mode
			r.book.put(a)
		}
		res, err := r.m.Start(managerTopic, a.ID, 100, 30)
		var old *cli.TooOldError
		if !errors.Is(err, cli.ErrCLITooOld) || !errors.As(err, &old) || old.Have.String() != c.have {
			t.Fatalf("%s %s: Start = %+v, %v; want a refusal for %s", c.kind, c.version, res, err, c.have)
		}
		if !strings.Contains(err.Error(), c.need) {
			t.Errorf("refusal %q does not name %q", err, c.need)
		}
		if _, ok := r.m.Seat(managerTopic, a.ID); ok {
			t.Errorf("%s: a seat is listed after the refusal", id)
		}
		if _, err := os.Stat(filepath.Join(a.WorkDir, ".mcp.json")); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: .mcp.json written for a refused start (stat: %v)", id, err)
		}
	}
	if got := r.m.ledger.List(""); len(got) != 0 {
		t.Errorf("ledger after the refusals = %+v, want empty", got)
	}
	if topics, err := r.store.Topics(); err != nil || len(topics) != 0 {
		t.Errorf("topics after the refusals = %+v, %v; want none (nothing started)", topics, err)
	}
}

// TestStartReadsVersionOncePerFile: a CLI new enough starts, its version
// on the start and the seat; the next start of the same file does not run
// --version again, an updated file is read again.
func TestStartReadsVersionOncePerFile(t *testing.T) {
	r := newManagerRig(t)
	runs := filepath.Join(r.dir, "runs")
	path := versionCLI(t, t.TempDir(), "claude", "2.1.328 (Claude Code)", runs, false)
	a := r.versionAccount(t, "ada", config.KindClaudeCode, path)
	start := func() {
		t.Helper()
		res, err := r.m.Start(managerTopic, a.ID, 100, 30)
		if err != nil {
			t.Fatalf("Start: %v", err)
		}
		if res.CLIVersion != "Claude Code 2.1.328" || res.VersionUnread != "" {
			t.Errorf("StartResult = %+v, want the version read", res)
		}
		s, _ := r.m.Seat(managerTopic, a.ID)
		if in := s.info(); in.CLIVersion != res.CLIVersion || in.VersionUnread != "" {
			t.Errorf("SeatInfo version = %q, %q", in.CLIVersion, in.VersionUnread)
		}
		if err := r.m.Stop(managerTopic, a.ID); err != nil {
			t.Fatal(err)
		}
	}
	count := func() int {
		b, _ := os.ReadFile(runs)
		return strings.Count(string(b), "run")
	}
	start()
	start()
	if n := count(); n != 1 {
		t.Fatalf("--version ran %d times for two starts of one file, want 1", n)
	}
	later := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	start()
	if n := count(); n != 2 {
		t.Fatalf("--version ran %d times after the file changed, want 2", n)
	}
}

// TestStartWithUnreadVersion: a version that cannot be read — none
// printed, or no answer in time — is no refusal: the seat starts, and its
// start and row say the check was not made.
func TestStartWithUnreadVersion(t *testing.T) {
	r := newManagerRig(t)
	r.m.versions.Timeout = 300 * time.Millisecond // the hanging CLI's wait; not asserted
	bin := t.TempDir()
	for _, c := range []struct {
		id   string
		cli  string
		why  string
		kind config.Kind
	}{
		{"garbled", versionCLI(t, bin, "garbled", "Claude Code (build unknown)", "", false), "printed no version", config.KindClaudeCode},
		{"hung", versionCLI(t, bin, "hung", "", "", true), "no answer to --version", config.KindClaudeCode},
	} {
		a := r.versionAccount(t, c.id, c.kind, c.cli)
		res, err := r.m.Start(managerTopic, a.ID, 100, 30)
		if err != nil {
			t.Fatalf("%s: Start = %v, want the seat started", c.id, err)
		}
		if res.CLIVersion != "" || !strings.Contains(res.VersionUnread, c.why) {
			t.Errorf("%s: StartResult version = %q, unread %q; want %q", c.id, res.CLIVersion, res.VersionUnread, c.why)
		}
		s, ok := r.m.Seat(managerTopic, a.ID)
		if !ok {
			t.Fatalf("%s: no seat", c.id)
		}
		if in := s.info(); in.VersionUnread != res.VersionUnread {
			t.Errorf("%s: SeatInfo.VersionUnread = %q, want %q", c.id, in.VersionUnread, res.VersionUnread)
		}
		if err := r.m.Stop(managerTopic, a.ID); err != nil {
			t.Fatal(err)
		}
	}
}
