package seats_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats"
	"github.com/pullcept/pullcept/testdata/fakeapi"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// useBook makes a config.Book on the rig's data directory whose vault is
// this system's (the test's private Secret Service): accounts saved in it
// hold sealed values, and the rig's seats open them at launch.
func (r *rig) useBook() *config.Book {
	r.t.Helper()
	cfg, _, err := config.Load(r.data)
	if err != nil {
		r.t.Fatal(err)
	}
	b := config.NewBook(r.data, cfg, config.SystemVault())
	r.mu.Lock()
	r.book = b
	r.mu.Unlock()
	return b
}

// envAccount is one Claude account of TestE2EAccountsRunWithTheirStoredEnv.
type envAccount struct {
	name, configDir, token string
	acct                   config.Account
	res                    seats.StartResult
}

// TestE2EAccountsRunWithTheirStoredEnv: two Claude Code accounts whose
// CLAUDE_CONFIG_DIR and API token come from their stored env (typed in the
// editor's form, sealed through the OS keyring — a private Secret Service —
// into config.json) run side by side in one topic with the real, pinned
// Claude Code against the fake model API: each answers its post, each
// session reached the model with its own token, each transcript lies in
// its own config directory (none in the directory Pullcept's environment
// names), and the values — one holds "=" and quotes — reached the CLI's
// process environment exactly, but never config.json, argv, the preview,
// or .mcp.json.
func TestE2EAccountsRunWithTheirStoredEnv(t *testing.T) {
	testkit.StartSecretService(t, true)
	// Both seats answer the admin's post; the floor lets one through and
	// the other re-sends its kept draft.
	r := newRig(t, adminOnly(fakeapi.Script{Resend: true}))
	env, base := fakeapi.ClaudeEnv(t, r.base, r.root)
	r.setEnv(env)
	book := r.useBook()
	const note = `a=b "c" 'd'`
	accounts := []*envAccount{
		{name: "Ada", configDir: filepath.Join(t.TempDir(), "ada-config"), token: "sk-ada-0123456789-private-token"},
		{name: "Bea", configDir: filepath.Join(t.TempDir(), "bea-config"), token: "sk-bea-9876543210-private-token"},
	}
	for _, a := range accounts {
		_, err := fakeapi.PrepareClaude(fakeapi.ClaudeSetup{Home: base.Home, ConfigDir: a.configDir, TrustedDirs: []string{r.root},
			BaseURL: r.base, AuthToken: a.token, Bypass: true})
		if err != nil {
			t.Fatal(err)
		}
		saved, err := book.Save(config.AccountEdit{Kind: string(config.KindClaudeCode), Name: a.name,
			WorkDir: r.workDir(strings.ToLower(a.name)), Command: fakeapi.CLIPath(t, fakeapi.CLIClaude),
			LaunchOptions: "--dangerously-skip-permissions",
			Env:           "CLAUDE_CONFIG_DIR=" + a.configDir + "\nANTHROPIC_AUTH_TOKEN=\"" + a.token + "\"\nE2E_NOTE='" + note + "'"})
		if err != nil {
			t.Fatalf("save %s: %v", a.name, err)
		}
		a.acct = r.addAccount(saved)
	}
	secrets := []string{accounts[0].token, accounts[1].token, accounts[0].configDir, accounts[1].configDir, note}
	absent(t, "config.json", readFile(t, filepath.Join(r.data, config.FileName)), secrets)

	for _, a := range accounts {
		res, s := r.start(a.acct.ID)
		a.res = res
		r.waitReady(a.acct.ID, s)
	}
	r.post("hello @Ada @Bea")
	replied := map[string]bool{}
	for range accounts {
		reply := r.waitPost("a reply of each", func(p room.Post) bool {
			return !replied[p.Account] && (p.Account == accounts[0].acct.ID || p.Account == accounts[1].acct.ID)
		})
		replied[reply.Account] = true
		if reply.Content != "reply to: hello" {
			t.Errorf("%s replied %q", reply.Speaker, reply.Content)
		}
	}
	for _, a := range accounts {
		checkOwnEnv(t, r, a, note)
		absent(t, a.name+"'s preview", a.res.Preview, secrets)
		absent(t, a.name+"'s .mcp.json", readFile(t, filepath.Join(a.acct.WorkDir, ".mcp.json")), secrets)
	}
	if found, _ := filepath.Glob(filepath.Join(base.ConfigDir, "projects", "*", "*.jsonl")); len(found) != 0 {
		t.Errorf("transcripts in the config dir of Pullcept's environment: %q", found)
	}
}

// checkOwnEnv: a's session reached the fake with a's token only, its
// transcript is in a's config dir, and its CLI process has a's values in
// its environment and none of them in its argv.
func checkOwnEnv(t *testing.T, r *rig, a *envAccount, note string) {
	t.Helper()
	calls := r.sessionCalls(a.res.SessionID)
	if len(calls) == 0 {
		t.Fatalf("%s: no model call of session %s", a.name, a.res.SessionID)
	}
	for _, ex := range calls {
		if got := ex.Request.Header.Get("Authorization"); got != "Bearer "+a.token {
			t.Errorf("%s: model call #%d authorised with %q, want its own token", a.name, ex.Request.Seq, got)
		}
	}
	if found, _ := filepath.Glob(filepath.Join(a.configDir, "projects", "*", a.res.SessionID+".jsonl")); len(found) != 1 {
		t.Errorf("%s: transcript of %s in %s: %q", a.name, a.res.SessionID, a.configDir, found)
	}
	pid := strconv.Itoa(r.seatInfo(a.acct.ID).Pid)
	environ := strings.Split(readFile(t, filepath.Join("/proc", pid, "environ")), "\x00")
	for _, kv := range []string{"CLAUDE_CONFIG_DIR=" + a.configDir, "ANTHROPIC_AUTH_TOKEN=" + a.token, "E2E_NOTE=" + note} {
		if !slices.Contains(environ, kv) {
			t.Errorf("%s: the CLI's environment lacks %q", a.name, kv)
		}
	}
	absent(t, a.name+"'s argv", readFile(t, filepath.Join("/proc", pid, "cmdline")), []string{a.token, a.configDir, note})
}

// absent fails t when text (named what) holds any of values.
func absent(t *testing.T, what, text string, values []string) {
	t.Helper()
	for _, v := range values {
		if strings.Contains(text, v) {
			t.Errorf("%s holds the value %q", what, v)
		}
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(fmt.Errorf("read %s: %w", path, err))
	}
	return string(b)
}
