package codex

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/pullcept/pullcept/testdata/launchkit"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats/cli"
	"github.com/pullcept/pullcept/seats/launch"
)

// writeRollout writes a Codex rollout whose first line is session_meta.
func writeRollout(t *testing.T, home string, started time.Time, id, cwd string, complete bool) string {
	t.Helper()
	u := started.UTC()
	dir := filepath.Join(home, "sessions", u.Format("2006"), u.Format("01"), u.Format("02"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, fmt.Sprintf("rollout-%s-%s.jsonl", u.Format("2006-01-02T15-04-05"), id))
	line := fmt.Sprintf(`{"timestamp":%q,"type":"session_meta","payload":{"id":%q,"timestamp":%q,"cwd":%q,"originator":"codex-tui","cli_version":"0.169.0","instructions":%q}}`,
		u.Format(time.RFC3339Nano), id, u.Format(time.RFC3339Nano), cwd, strings.Repeat("base instructions ", 4000))
	if complete {
		line += "\n" + `{"timestamp":"x","type":"turn_context","payload":{"model":"gpt-5.5"}}` + "\n"
	}
	if err := os.WriteFile(path, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCodexRollouts(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	cwd := filepath.Join(launchkit.Root(), "work", "x")
	launched := time.Now().Add(-time.Minute)
	const (
		old    = "019a0000-0000-7000-8000-000000000001"
		other  = "019a0000-0000-7000-8000-000000000002"
		first  = "019a0000-0000-7000-8000-000000000003"
		second = "019a0000-0000-7000-8000-000000000004"
		torn   = "019a0000-0000-7000-8000-000000000005"
	)
	oldPath := writeRollout(t, home, launched.Add(-48*time.Hour), old, cwd, true)
	writeRollout(t, home, launched.Add(5*time.Second), other, filepath.Join(launchkit.Root(), "elsewhere"), true)
	firstPath := writeRollout(t, home, launched.Add(10*time.Second), first, cwd, true)
	secondPath := writeRollout(t, home, launched.Add(20*time.Second), second, cwd+string(filepath.Separator), true)
	writeRollout(t, home, launched.Add(30*time.Second), torn, cwd, false)

	if p, ok := Rollout(home, old); !ok || p != oldPath {
		t.Errorf("Rollout(old) = %q, %v", p, ok)
	}
	for _, id := range []string{"019a0000-0000-7000-8000-00000000000f", "*", "../x", ""} {
		if _, ok := Rollout(home, id); ok {
			t.Errorf("Rollout(%q) found something", id)
		}
	}
	all, err := RolloutsSince(home, cwd, launched)
	if err != nil {
		t.Fatal(err)
	}
	// Oldest first (the cwd written with a trailing separator matches), the
	// other directory's and the torn one left out.
	if len(all) != 2 || all[0].ID != first || all[0].Path != firstPath || all[1].ID != second || all[1].Path != secondPath {
		t.Errorf("RolloutsSince = %+v", all)
	}
	if got, err := RolloutsSince(home, cwd, time.Now().Add(time.Hour)); len(got) != 0 || err != nil {
		t.Errorf("nothing after a future time expected: %+v %v", got, err)
	}
	if got, err := RolloutsSince(t.TempDir(), cwd, launched); len(got) != 0 || err != nil {
		t.Errorf("empty CODEX_HOME: %+v %v", got, err)
	}
}

// TestCodexHome: $CODEX_HOME, else <home>/.codex; a name-only CODEX_HOME
// of the account inherits the process's.
func TestCodexHome(t *testing.T) {
	t.Parallel()
	homeVar := "HOME"
	if runtime.GOOS == "windows" {
		homeVar = "USERPROFILE"
	}
	home := filepath.Join(launchkit.Root(), "home", "me")
	get := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if d, err := Home(get(map[string]string{homeVar: home}), ""); err != nil || d != filepath.Join(home, ".codex") {
		t.Errorf("Home = %q, %v", d, err)
	}
	if d, _ := Home(get(map[string]string{"CODEX_HOME": "/cx"}), ""); d != "/cx" {
		t.Errorf("CODEX_HOME ignored: %q", d)
	}
	a := config.Account{Env: []config.EnvVar{{Name: "CODEX_HOME", Value: ""}}}
	opened, err := config.OpenEnv(a.Env, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := Home(launch.SeatGetenv(opened, get(map[string]string{"CODEX_HOME": "/proc-cx"})), ""); d != "/proc-cx" {
		t.Errorf("name-only CODEX_HOME must inherit: %q", d)
	}
	work := filepath.Join(launchkit.Root(), "work", "seat")
	if d, _ := Home(get(map[string]string{"CODEX_HOME": "cx"}), work); d != filepath.Join(work, "cx") {
		t.Errorf("a relative CODEX_HOME is the seat's working directory's: %q", d)
	}
}

// TestCodexConversationRelativeHome: a relative CODEX_HOME is where the
// seat's Codex finds it, under the seat's working directory (spec: 相対
// パスは起動ディレクトリに対して解決する), not Pullcept's: the rollout
// there resumes.
func TestCodexConversationRelativeHome(t *testing.T) {
	t.Parallel()
	const id = "99999999-8888-4777-8666-555555555555"
	work := t.TempDir()
	writeRollout(t, filepath.Join(work, "cx-home"), time.Now(), id, work, true)
	get := func(k string) string { return map[string]string{"CODEX_HOME": "cx-home"}[k] }
	a := config.Account{Kind: config.KindCodexCLI, WorkDir: work}
	if c, err := New(time.Second, nil).Conversation(a, id, get); c != cli.ConversationResumes || err != nil {
		t.Errorf("rollout under the seat's relative CODEX_HOME: %v, %v", c, err)
	}
}

// TestCodexConversation: a Codex conversation resumes while its rollout is
// under CODEX_HOME.
func TestCodexConversation(t *testing.T) {
	t.Parallel()
	const id = "99999999-8888-4777-8666-555555555555"
	home, work := t.TempDir(), t.TempDir()
	get := func(k string) string { return map[string]string{"CODEX_HOME": home}[k] }
	a := config.Account{Kind: config.KindCodexCLI, WorkDir: work}
	if c, _ := New(time.Second, nil).Conversation(a, id, get); c != cli.ConversationGone {
		t.Errorf("before the rollout: %v", c)
	}
	writeRollout(t, home, time.Now(), id, work, true)
	if c, err := New(time.Second, nil).Conversation(a, id, get); c != cli.ConversationResumes || err != nil {
		t.Errorf("rollout not found: %v %v", c, err)
	}
}

// TestFindRolloutCannotLook: a sessions folder that cannot be read is an
// error (the record is kept), never "not there"; a missing one, or a date
// entry that is not a folder, is "not there".
func TestFindRolloutCannotLook(t *testing.T) {
	t.Parallel()
	const id = "99999999-8888-4777-8666-555555555555"
	home := t.TempDir()
	if p, err := FindRollout(home, id); p != "" || err != nil {
		t.Errorf("no sessions folder: %q, %v; want not there", p, err)
	}
	if err := os.MkdirAll(filepath.Join(home, "sessions", "2026"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "sessions", "2026", "07"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if p, err := FindRollout(home, id); p != "" || err != nil {
		t.Errorf("a date entry that is a file: %q, %v; want not there", p, err)
	}
	want := writeRollout(t, home, time.Now(), id, t.TempDir(), true)
	if p, err := FindRollout(home, id); p != want || err != nil {
		t.Errorf("FindRollout = %q, %v; want %q", p, err, want)
	}
	blocked := t.TempDir()
	if err := os.WriteFile(filepath.Join(blocked, "sessions"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if p, err := FindRollout(blocked, id); err == nil {
		t.Errorf("sessions is a file: %q, nil; want an error", p)
	}
	get := func(k string) string { return map[string]string{"CODEX_HOME": blocked}[k] }
	if _, err := New(time.Second, nil).Conversation(config.Account{Kind: config.KindCodexCLI}, id, get); err == nil {
		t.Error("Conversation: the check that could not look must say so")
	}
}
