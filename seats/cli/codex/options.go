package codex

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats/launch"
)

// What Pullcept reads of a Codex seat's launch options (spec «起動とアカウント»
// #272: "-C パス / --cd パス / --cd=パス は元の process cwd に対して解決し…
// remote 接続・CLI 自身による --worktree 作成・非対話サブコマンドは、このローカル
// 席の起動欄では使えない"; docs/design.md §9 "Hook mode"). Options go on the
// line as written, but the ones that would make the seat something other
// than a local interactive Codex in a directory Pullcept knows are refused
// with the reason, in the preview and the launch alike (Line).

// codexSubcommands are Codex CLI's subcommands (codex --help, 0.169.0,
// aliases and the hidden ones included). As a launch option each would run
// instead of the interactive TUI.
var codexSubcommands = []string{
	"agents", "exec", "e", "review", "login", "logout", "mcp", "plugin", "app-server",
	"remote-control", "completion", "update", "doctor", "sandbox", "debug", "apply", "a",
	codexResume, "queue", "archive", "delete", "migrate-rollouts", "migrate-nfs-db",
	"unarchive", "fork", "cloud", "cloud-tasks", "exec-server", "features", "help",
	"responses-api-proxy", "stdio-to-uds", "execpolicy",
}

// codexValued are the options that take a value (codex --help): the word
// after each is its value, never an option or a subcommand. -i/--image
// takes every word up to the next option.
var codexValued = []string{
	"-c", "--config", "--enable", "--disable", "--remote", "--remote-auth-token-env",
	"-i", "--image", "-m", "--model", "--local-provider", "-p", "--profile",
	"-s", "--sandbox", "-C", "--cd", "--add-dir", "-a", "--ask-for-approval",
}

// codexRefused are the options no Codex seat runs with, and why.
var codexRefused = map[string]string{
	"--remote":                "it attaches the terminal to another app-server; a seat is a Codex of its own, whose session Pullcept finds and resumes (an app-server seat's connection is Pullcept's to make)",
	"--remote-auth-token-env": "it belongs to --remote, which attaches the terminal to another app-server; a seat is a Codex of its own",
	"--worktree":              "Codex would make a new worktree and work there, and the seat's session is found by the directory it works in; make the worktree first and name it with -C/--cd",
	"-h":                      "it prints the help and exits; a seat runs the interactive CLI",
	"--help":                  "it prints the help and exits; a seat runs the interactive CLI",
	"-V":                      "it prints the version and exits; a seat runs the interactive CLI",
	"--version":               "it prints the version and exits; a seat runs the interactive CLI",
	"--":                      "every word after it would be taken as the prompt, the room's own options included",
}

// codexRefusal is why the word w, met where an option or the prompt may
// stand (not as an option's value), is refused: a subcommand, or an option
// of codexRefused (name: w without its =value), alone or first in a
// cluster of short flags (-hV, -Vx: Codex prints the help or the version
// and exits, as for -h and -V). "" when it is not.
func codexRefusal(w, name string) string {
	if !strings.HasPrefix(w, "-") && slices.Contains(codexSubcommands, w) {
		return fmt.Sprintf("%q is a Codex subcommand, which would run instead of the interactive CLI a seat is; Pullcept resumes and forks a seat's session itself (the topic's session operations)", w)
	}
	if r := codexRefused[name]; r != "" {
		return fmt.Sprintf("%s: %s", name, r)
	}
	if len(w) > 2 && w[0] == '-' && w[1] != '-' {
		if r := codexRefused[w[:2]]; r != "" {
			return fmt.Sprintf("%s: %s", w, r)
		}
	}
	return ""
}

// codexGlued refuses -C and -p with their value in the same word (-Cdir,
// -C=dir, -pname, -p=name): Codex reads them, but the spec keeps a short
// flag's value a word of its own (#276 «-p名前／-p=名前 等の連結・等号形式は
// 探索と起動で明示拒否し»).
func codexGlued(w string) error {
	for _, f := range []struct{ short, long, what string }{{"-C", "--cd", "<dir>"}, {"-p", "--profile", "<name>"}} {
		if len(w) > 2 && strings.HasPrefix(w, f.short) {
			return fmt.Errorf("%w: %q: write %s %s or %s=%s", ErrOption, w, f.short, f.what, f.long, f.what)
		}
	}
	return nil
}

// hookOptions checks a hook-mode seat's launch options (Line): it refuses
// what codexRefusal and codexGlued refuse, an option that takes a value
// left without one or given an empty one, and -C/--cd or -p/--profile given twice; it resolves
// -C/--cd (codexCdDir) and checks -p/--profile (codexProfile). dir is the
// -C/--cd directory resolved, "" without one.
func hookOptions(b *launch.Builder, opts []string) (dir string, err error) {
	var profile string
	for i := 0; i < len(opts); i++ {
		w := opts[i]
		name, inline, hasInline := w, "", false
		if strings.HasPrefix(w, "--") {
			name, inline, hasInline = strings.Cut(w, "=")
			if !hasInline {
				name = w
			}
		}
		if r := codexRefusal(w, name); r != "" {
			return "", fmt.Errorf("%w: %s", ErrOption, r)
		}
		if err := codexGlued(w); err != nil {
			return "", err
		}
		if !slices.Contains(codexValued, name) {
			continue
		}
		v := inline
		if !hasInline {
			if i+1 == len(opts) || strings.HasPrefix(opts[i+1], "-") {
				return "", fmt.Errorf("%w: %s needs a value", ErrOption, name)
			}
			i++
			v = opts[i]
		}
		if v == "" {
			// Codex refuses it ("a value is required"); an empty -C/--cd
			// resolved to Pullcept's own folder.
			return "", fmt.Errorf("%w: %s needs a value", ErrOption, name)
		}
		switch name {
		case "-C", "--cd":
			if dir != "" {
				return "", fmt.Errorf("%w: %s given twice (Codex works in one directory)", ErrOption, name)
			}
			if dir, err = codexCdDir(b, name, v); err != nil {
				return "", err
			}
		case "-p", "--profile":
			if profile != "" {
				return "", fmt.Errorf("%w: %s given twice (Codex takes one profile)", ErrOption, name)
			}
			if err := codexProfile(b, name, v); err != nil {
				return "", err
			}
			profile = v
		case "-i", "--image":
			for !hasInline && i+1 < len(opts) && !strings.HasPrefix(opts[i+1], "-") {
				i++ // one or more files, up to the next option
			}
		}
	}
	return dir, nil
}

// codexCdDir resolves the -C/--cd value v (flag: how it was written) the
// way Codex does, against the seat's process cwd (the account's working
// directory), and requires a directory there: the seat's session, its
// project's .codex/config.toml and its rollout are found by it.
func codexCdDir(b *launch.Builder, flag, v string) (string, error) {
	work := b.In.Account.WorkDir
	dir := filepath.Clean(launch.SeatDir(work, v))
	fi, err := os.Stat(dir)
	why := ""
	switch {
	case errors.Is(err, fs.ErrNotExist):
		why = "does not exist"
	case err != nil:
		why = fmt.Sprintf("cannot be looked at (%v)", err)
	case !fi.IsDir():
		why = "is not a directory"
	default:
		return dir, nil
	}
	return "", fmt.Errorf("%w: %s %s: %s %s (a relative directory is resolved against the working directory %s)", ErrOption, flag, v, dir, why, work)
}

// maxProfileName bounds a profile's name (a file name under CODEX_HOME).
const maxProfileName = 128

// codexProfile checks the -p/--profile name v: a plain name (ASCII
// letters, digits, _ and -: Codex refuses a dot, a path separator, a
// space or anything else, "pass a plain name such as `work`") whose
// $CODEX_HOME/<name>.config.toml is a file the seat can read. Codex 0.169.0
// starts without a word when the file is missing, so a misspelt profile
// would silently not apply. In the editor's preview an account whose own
// env sets CODEX_HOME cannot be looked in (no value is opened there): the
// file is then checked at the launch, and the preview says so.
func codexProfile(b *launch.Builder, flag, v string) error {
	if !plainProfile(v) {
		return fmt.Errorf("%w: %s %q is not a plain name (ASCII letters, digits, _ and -, at most %d: Codex refuses dots and path separators)", ErrOption, flag, v, maxProfileName)
	}
	if b.EnvUnknown(envCodexHome) {
		b.Warn("profile %q: its file is looked for at the launch, under the CODEX_HOME of the account's env", v)
		return nil
	}
	home, err := Home(b.Getenv, b.In.Account.WorkDir)
	if err != nil {
		return fmt.Errorf("%w: %s %s: cannot find CODEX_HOME: %v", ErrOption, flag, v, err)
	}
	path := filepath.Join(home, v+".config.toml")
	f, err := config.OpenRegularFollow(path)
	if err == nil {
		_, err = f.Read(make([]byte, 1))
		_ = f.Close()
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("%w: %s %s: the profile's file %s cannot be read (%v); Codex layers it over its config.toml", ErrOption, flag, v, path, err)
	}
	return nil
}

// plainProfile: 1 to maxProfileName ASCII letters, digits, _ and -, not
// starting with - (it would read as an option).
func plainProfile(v string) bool {
	if v == "" || len(v) > maxProfileName || v[0] == '-' {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}
