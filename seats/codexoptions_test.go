//go:build unix

package seats

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/logstore"
)

// TestManagerPreviewCodexOptions: the editor's preview of a hook-mode Codex
// account refuses what its launch refuses, with the reason (issue 34 item
// 13): a subcommand, --remote, a -C/--cd that is no directory, a profile
// with no file under the CODEX_HOME of the Manager's environment; and
// shows the line of options it takes. Before, each went on the line.
func TestManagerPreviewCodexOptions(t *testing.T) {
	dir := t.TempDir()
	home, work := filepath.Join(dir, "codex-home"), filepath.Join(dir, "work")
	for _, d := range []string{home, filepath.Join(work, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(home, "fast.config.toml"), []byte("model = \"x\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	store, err := logstore.Open(filepath.Join(dir, "data"), logstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	m, err := NewManager(ManagerOptions{Sessions: store, Accounts: (&accountBook{m: map[string]config.Account{}}).get,
		PullceptPath: "/opt/pullcept", Environ: func() []string { return []string{"HOME=" + dir, "CODEX_HOME=" + home} }})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	m.SetRoom(managerRoom)
	hook := false
	a := config.Account{Name: "Cody", Kind: config.KindCodexCLI, WorkDir: work, Command: "codex", CodexAppServer: &hook}
	for _, c := range []struct{ options, says string }{
		{"exec", `"exec" is a Codex subcommand`},
		{"--remote ws://127.0.0.1:9", "--remote: it attaches the terminal to another app-server"},
		{"-C nowhere", filepath.Join(work, "nowhere") + " does not exist"},
		{"-p slow", "slow.config.toml cannot be read"},
	} {
		a.LaunchOptions = c.options
		line, problems := m.Preview(a)
		if line != "" || len(problems) != 1 || !strings.Contains(problems[0], "launch option refused for a Codex seat") || !strings.Contains(problems[0], c.says) {
			t.Errorf("preview of %q = %q, %q; want a refusal saying %q", c.options, line, problems, c.says)
		}
	}
	a.LaunchOptions = "-C sub -p fast"
	if line, problems := m.Preview(a); !strings.Contains(line, "codex -C sub -p fast -c ") || len(launchProblems(problems)) != 0 {
		t.Errorf("preview of -C sub -p fast = %q, %q", line, problems)
	}
}
