//go:build windows

package seats

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pullcept/pullcept/testdata/launchkit"

	"golang.org/x/sys/windows"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats/pty"
)

// TestWindowsLaunchLinesReadWholeByCmd: every kind's line, with hostile
// names, character and options, composed the way the ConPTY spawn composes
// it, passes the cmd.exe reading (pty.CheckCmdLine) — what the builder writes
// never holds a character cmd.exe would cut at, whatever the quote count.
func TestWindowsLaunchLinesReadWholeByCmd(t *testing.T) {
	for _, kind := range []config.Kind{config.KindClaudeCode, config.KindCodexCLI, config.KindCLI} {
		a := launchkit.Account(kind)
		a.Nickname, a.Character = `A&B "q" (x)`, `be "nice" & <kind> | 100% ^ 名前`
		if kind == config.KindCodexCLI {
			a.Character = "character_codex_luna" // Codex takes a plain style name only (#281)
			// Li+'s file mode: a hook-mode line refuses an inline character (#276).
			a.WorkDir = t.TempDir()
			if err := os.MkdirAll(filepath.Join(a.WorkDir, ".codex", "output-styles"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		for _, opts := range []string{`--x "a b"`, `--name 'a"b'`, `--x a&b`, `--y "(z)"`} {
			a.LaunchOptions = opts
			in := launchkit.Input(a)
			in.GOOS = "windows"
			in.TopicID = `t&(1)`
			l, err := buildLaunch(in)
			if err != nil {
				t.Fatalf("%s %q: %v", kind, opts, err)
			}
			line := windows.ComposeCommandLine(l.Argv)
			if err := pty.CheckCmdLine(line); err != nil {
				t.Errorf("%s %q: %v\nline: %s", kind, opts, err, line)
			}
		}
	}
}
