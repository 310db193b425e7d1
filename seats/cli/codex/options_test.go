package codex

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats/cli"
	"github.com/pullcept/pullcept/seats/launch"
	"github.com/pullcept/pullcept/testdata/launchkit"
)

// optionsFixture is a hook-mode Codex account in a real working directory
// holding sub/ (a directory) and afile (a file), whose CODEX_HOME (in the
// account's opened env, relative: against the working directory) holds
// the profile work.config.toml.
type optionsFixture struct {
	work, sub, home string
}

func newOptionsFixture(t *testing.T) optionsFixture {
	t.Helper()
	f := optionsFixture{work: t.TempDir()}
	f.sub = filepath.Join(f.work, "sub")
	f.home = filepath.Join(f.work, "codex-home")
	for _, d := range []string{f.sub, f.home} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{filepath.Join(f.work, "afile"), filepath.Join(f.home, "work.config.toml")} {
		if err := os.WriteFile(p, []byte("model = \"gpt-5.5\"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// input is the launch input of the fixture's account with options opts.
func (f optionsFixture) input(opts string) launch.Input {
	a := launchkit.Account(config.KindCodexCLI)
	a.WorkDir, a.LaunchOptions = f.work, opts
	a.Env = append(a.Env, config.EnvVar{Name: "CODEX_HOME", Sealed: "keyring:x:y"})
	in := launchkit.Input(a)
	in.Env = append(in.Env, "CODEX_HOME=codex-home")
	in.Getenv = func(string) string { return "" }
	return in
}

// TestCodexHookOptionsRefused: what a hook-mode seat cannot run with is
// refused before the launch with the reason (issue 34 item 13; spec
// «起動とアカウント» #272, #276): a -C/--cd that is no directory, the short
// -C and -p glued to their value, either given twice, a profile that is no
// plain name or has no readable file, a Codex subcommand in a word of its
// own, --remote, --worktree, help and version, "--", and an option left
// without its value. Before, each went on the line as written.
func TestCodexHookOptionsRefused(t *testing.T) {
	t.Parallel()
	f := newOptionsFixture(t)
	tests := []struct {
		options string
		says    []string
	}{
		{"-C missing", []string{"-C missing: " + filepath.Join(f.work, "missing") + " does not exist", "resolved against the working directory " + f.work}},
		{"--cd afile", []string{"--cd afile: ", "is not a directory"}},
		{"--cd=" + filepath.Join(f.work, "nope"), []string{"--cd", "does not exist"}},
		{"-C=sub", []string{`"-C=sub"`, "write -C <dir> or --cd=<dir>"}},
		{"-Csub", []string{`"-Csub"`, "write -C <dir> or --cd=<dir>"}},
		{"-C sub --cd sub", []string{"--cd given twice"}},
		{"-C", []string{"-C needs a value"}},
		{"--cd --search", []string{"--cd needs a value"}},
		{"-p", []string{"-p needs a value"}},
		{"-p a.b", []string{`-p "a.b" is not a plain name`, "dots"}},
		{"--profile ../work", []string{`--profile "../work" is not a plain name`}},
		{"--profile=a/b", []string{`--profile "a/b" is not a plain name`}},
		{"-p nope", []string{"-p nope: the profile's file " + filepath.Join(f.home, "nope.config.toml") + " cannot be read"}},
		{"-p=work", []string{`"-p=work"`, "write -p <name> or --profile=<name>"}},
		{"-pwork", []string{`"-pwork"`, "write -p <name> or --profile=<name>"}},
		{"-p work --profile work", []string{"--profile given twice"}},
		{"exec", []string{`"exec" is a Codex subcommand`, "interactive CLI", "session operations"}},
		{"-m gpt-5.5 e hi", []string{`"e" is a Codex subcommand`}},
		{"review", []string{`"review" is a Codex subcommand`}},
		{"resume --last", []string{`"resume" is a Codex subcommand`}},
		{"fork", []string{`"fork" is a Codex subcommand`}},
		{"app-server", []string{`"app-server" is a Codex subcommand`}},
		{"login", []string{`"login" is a Codex subcommand`}},
		{"--remote ws://127.0.0.1:1", []string{"--remote: ", "another app-server"}},
		{"--remote=unix://", []string{"--remote: ", "another app-server"}},
		{"--remote-auth-token-env TOKEN", []string{"--remote-auth-token-env: ", "--remote"}},
		{"--worktree", []string{"--worktree: ", "new worktree", "-C/--cd"}},
		{"--help", []string{"--help: ", "prints the help and exits"}},
		{"-V", []string{"-V: ", "prints the version"}},
		{"-- hello", []string{"--: ", "prompt"}},
		{"--model", []string{"--model needs a value"}},
		{"-c", []string{"-c needs a value"}},
		// Codex refuses an empty directory ("a value is required for
		// '--cd <DIR>'"); it resolved to Pullcept's own folder.
		{"--cd=", []string{"--cd needs a value"}},
		{"-C ''", []string{"-C needs a value"}},
		{"--model=", []string{"--model needs a value"}},
		// A cluster of short flags that starts with -h or -V prints the
		// help or the version and exits, as -h and -V do.
		{"-hV", []string{"-hV: ", "prints the help and exits"}},
		{"-Vx", []string{"-Vx: ", "prints the version"}},
	}
	for _, tt := range tests {
		l, err := buildLaunch(f.input(tt.options))
		if !errors.Is(err, ErrOption) {
			t.Errorf("%q: err %v (launch %q), want ErrOption", tt.options, err, l.Argv)
			continue
		}
		for _, s := range tt.says {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%q: %q does not say %q", tt.options, err, s)
			}
		}
	}
}

// TestCodexHookOptionsAccepted: -C/--cd (resolved against the working
// directory, kept on the line as written, fresh and resumed) makes the
// launch's CLIDir; a profile whose file is under CODEX_HOME — a relative
// CODEX_HOME against the working directory, never the -C one — is taken;
// a subcommand's name as an option's value or inside the prompt is no
// subcommand; options Pullcept does not read go on the line as written.
func TestCodexHookOptionsAccepted(t *testing.T) {
	t.Parallel()
	f := newOptionsFixture(t)
	tests := []struct {
		options string
		cliDir  string
	}{
		{"-C sub", f.sub},
		{"--cd sub/", f.sub},
		{"--cd=" + f.sub, f.sub},
		{"-C .", f.work},
		{"-C sub -p work", f.sub},
		{"--profile=work", ""},
		{"-m exec --add-dir review -c model=fork --enable resume", ""},
		{"-i a.png b.png exec --search", ""},
		{"--image=a.png 'review this'", ""},
		{"--no-daemon --oss --local-provider ollama --strict-config", ""},
	}
	for _, tt := range tests {
		for _, resume := range []bool{false, true} {
			in := f.input(tt.options)
			in.Resume, in.SessionID = resume, launchkit.Rec
			l, err := buildLaunch(in)
			if err != nil {
				t.Errorf("%q (resume %v): %v", tt.options, resume, err)
				continue
			}
			words, _ := config.SplitWords(tt.options)
			at := 1
			if resume {
				at = 3
			}
			if !slices.Equal(l.Argv[at:at+len(words)], words) {
				t.Errorf("%q (resume %v): argv %q does not carry the options as written", tt.options, resume, l.Argv)
			}
			if l.CLIDir != tt.cliDir || l.Dir != f.work {
				t.Errorf("%q (resume %v): CLIDir %q, Dir %q; want %q, %q", tt.options, resume, l.CLIDir, l.Dir, tt.cliDir, f.work)
			}
		}
	}
}

// TestCodexProfileInThePreview: the editor's preview opens no env value,
// so a profile under the CODEX_HOME of the account's own env is looked
// for at the launch, and the preview says so; with CODEX_HOME inherited
// the preview looks, as the launch does.
func TestCodexProfileInThePreview(t *testing.T) {
	t.Parallel()
	f := newOptionsFixture(t)
	in := f.input("-p nope")
	in.Env = nil // the preview's
	l, err := buildLaunch(in)
	if err != nil || len(l.Warnings) != 1 || !strings.Contains(l.Warnings[0], `profile "nope": its file is looked for at the launch`) {
		t.Fatalf("preview with the account's CODEX_HOME: %v, warnings %q", err, l.Warnings)
	}
	in.Account.Env = slices.DeleteFunc(slices.Clone(in.Account.Env), func(v config.EnvVar) bool { return v.Name == "CODEX_HOME" })
	in.Getenv = func(k string) string { return map[string]string{"CODEX_HOME": f.home}[k] }
	if _, err := buildLaunch(in); !errors.Is(err, ErrOption) || !strings.Contains(err.Error(), "nope.config.toml cannot be read") {
		t.Fatalf("preview with CODEX_HOME inherited: %v", err)
	}
	in.Account.LaunchOptions = "-p work"
	if l, err := buildLaunch(in); err != nil || len(l.Warnings) != 0 {
		t.Fatalf("an inherited CODEX_HOME's profile: %v, %q", err, l.Warnings)
	}
}

// TestCodexAppServerRefusesLikeHookMode: an app-server seat refuses a
// subcommand, --remote and --worktree with hook mode's reason (not "use
// hook mode for it", which refuses them too), and -C/--cd and -p/--profile
// as before, naming hook mode, which takes them.
func TestCodexAppServerRefusesLikeHookMode(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		options string
		says    []string
	}{
		{"exec", []string{`"exec" is a Codex subcommand`}},
		{"-m gpt-5.5 fork", []string{`"fork" is a Codex subcommand`}},
		{"--remote ws://127.0.0.1:1", []string{"--remote: ", "another app-server"}},
		{"--remote-auth-token-env=T", []string{"--remote-auth-token-env: "}},
		{"--worktree", []string{"--worktree: ", "new worktree"}},
		{"-- x", []string{"--: "}},
		{"-C sub", []string{"-C: ", "working directory", "hook mode"}},
		{"--cd=sub", []string{"--cd: ", "hook mode"}},
		{"-p work", []string{`"-p" has no place in an app-server seat`, "hook mode"}},
	} {
		_, err := buildLaunch(launchkit.Input(appServerAccount(tt.options)))
		if !errors.Is(err, ErrOption) {
			t.Errorf("%q: %v, want ErrOption", tt.options, err)
			continue
		}
		for _, s := range tt.says {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%q: %q does not say %q", tt.options, err, s)
			}
		}
	}
}

// TestPrepareCleansTheCdDir: a seat with -C/--cd cleans the stale room
// entries of the .codex/config.toml in that directory, where its Codex
// reads its project config, and leaves the working directory's alone.
func TestPrepareCleansTheCdDir(t *testing.T) {
	t.Parallel()
	f := newOptionsFixture(t)
	stale := "model = \"x\"\n\n[mcp_servers.pullcept-room-a]\nenv = { PULLCEPT_ACCOUNT_ID = \"a\" }\n"
	inSub := writeProjectFile(t, f.sub, stale)
	inWork := writeProjectFile(t, f.work, stale)
	in := f.input("--cd sub")
	l := mustLaunch(t, in)
	ln := &cli.Launching{Account: in.Account, Launch: &l, Getenv: func(string) string { return "" }, Logger: slog.New(slog.DiscardHandler)}
	if _, err := New(time.Second, nil).Prepare(context.Background(), ln); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(inSub); string(b) != "model = \"x\"\n" {
		t.Errorf("the -C directory's file after the start: %q", b)
	}
	if b, _ := os.ReadFile(inWork); string(b) != stale {
		t.Errorf("the working directory's file was changed: %q", b)
	}
}
