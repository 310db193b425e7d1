//go:build unix

package seats

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats/cli/claude"
)

// NextStart tells the quit dialog which seats resume next time: nothing
// recorded, a generic CLI without or with a resume line, a Claude Code
// conversation missing or on disk (issue 14).
func TestNextStartJudgesAsStartWould(t *testing.T) {
	r := newManagerRig(t)
	cli := r.fakeAccount(t, "sh", "{session_id}")
	if got := r.m.NextStart(managerTopic, cli.ID); got != OutlookNoSession {
		t.Fatalf("nothing recorded: %v", got)
	}
	if err := r.store.RecordSession(managerTopic, cli.ID, "s-1"); err != nil {
		t.Fatal(err)
	}
	if got := r.m.NextStart(managerTopic, cli.ID); got != OutlookNoResumeLine {
		t.Fatalf("no resume line: %v", got)
	}
	cli.ResumeLine = "resume {session_id}"
	r.book.put(cli)
	if got := r.m.NextStart(managerTopic, cli.ID); got != OutlookResumes {
		t.Fatalf("a resume line: %v", got)
	}

	home := filepath.Join(r.dir, "claude")
	t.Setenv("CLAUDE_CONFIG_DIR", home)
	cc := config.Account{ID: "cc", Name: "Claudia", Kind: config.KindClaudeCode, WorkDir: r.dir, Command: "claude"}
	r.book.put(cc)
	id := "0b5c3f7e-1111-4222-8333-944455556666"
	if err := r.store.RecordSession(managerTopic, cc.ID, id); err != nil {
		t.Fatal(err)
	}
	if got := r.m.NextStart(managerTopic, cc.ID); got != OutlookGone {
		t.Fatalf("no transcript yet: %v", got)
	}
	if s, _ := r.store.Session(managerTopic, cc.ID); s != id {
		t.Fatalf("judging dropped the record: %q", s)
	}
	path := claude.TranscriptPath(home, r.dir, id)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := r.m.NextStart(managerTopic, cc.ID); got != OutlookResumes {
		t.Fatalf("transcript on disk: %v", got)
	}
}
