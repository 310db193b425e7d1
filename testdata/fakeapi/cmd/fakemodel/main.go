// Command fakemodel runs the fake model API (package fakeapi) by hand, for
// scripts and manual sessions with the real CLIs (docs/design.md §13):
//
//	go run ./testdata/fakeapi/cmd/fakemodel -addr 127.0.0.1:0
//
// It prints the base URLs on stdout, one NAME=value line each, then serves
// until SIGINT/SIGTERM:
//
//	ANTHROPIC_BASE_URL=http://127.0.0.1:<port>
//	OPENAI_BASE_URL=http://127.0.0.1:<port>/v1
//
// Every request and reply is logged on stderr. With -record FILE the
// exchanges are written to FILE as JSON lines on exit.
//
// With -script FILE the model follows a rules script (fakeapi.Rules, the
// demo's testdata/demo/script.json) instead of answering every post.
// -claude-dir and -codex-dir prepare isolated, offline CLI homes (one or
// both; both share one HOME) and -env-out gets the environment they need
// (testdata/newcomer.sh, testdata/demo/run.sh).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/testdata/fakeapi"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run serves until ctx ends and returns the exit code: 0, 1 for a server
// or record error, 2 for bad flags.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fakemodel", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:0", "loopback address to listen on")
	resend := fs.Bool("resend", false, "re-send the kept draft after a say_to_room rejection")
	record := fs.String("record", "", "write every exchange to this file as JSON lines on exit")
	script := fs.String("script", "", "follow this rules script (JSON, fakeapi.Rules) instead of answering every post")
	claudeDir := fs.String("claude-dir", "", "prepare an isolated Claude Code (HOME, CLAUDE_CONFIG_DIR) under this folder")
	trust := fs.String("trust", "", "with -claude-dir or -codex-dir: the seat folder (or a parent) whose trust screen is pre-answered")
	codexDir := fs.String("codex-dir", "", "prepare an isolated Codex CLI (HOME, CODEX_HOME) under this folder (with -claude-dir too: one HOME, Claude's)")
	envOut := fs.String("env-out", "", "with -claude-dir or -codex-dir: write the CLIs' environment here as shell export lines")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	opts := fakeapi.Options{
		Addr:   *addr,
		Script: fakeapi.Script{Resend: *resend},
		Logf: func(format string, a ...any) {
			fmt.Fprintf(stderr, format+"\n", a...)
		},
	}
	if *script != "" {
		rules, err := fakeapi.LoadRules(*script)
		if err != nil {
			fmt.Fprintf(stderr, "fakemodel: %v\n", err)
			return 2
		}
		opts.Respond = rules.Decide
	}
	srv, err := fakeapi.New(opts)
	if err != nil {
		fmt.Fprintf(stderr, "fakemodel: %v\n", err)
		return 2
	}
	base, err := srv.Start()
	if err != nil {
		fmt.Fprintf(stderr, "fakemodel: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "ANTHROPIC_BASE_URL=%s\nOPENAI_BASE_URL=%s/v1\n", base, base)
	if *claudeDir != "" || *codexDir != "" {
		if err := prepare(*claudeDir, *codexDir, *trust, base, *envOut); err != nil {
			fmt.Fprintf(stderr, "fakemodel: %v\n", err)
			_ = srv.Close()
			return 1
		}
	}
	<-ctx.Done()
	code := 0
	if err := srv.Close(); err != nil {
		fmt.Fprintf(stderr, "fakemodel: %v\n", err)
		code = 1
	}
	if *record != "" {
		if err := writeRecord(*record, srv.Exchanges()); err != nil {
			fmt.Fprintf(stderr, "fakemodel: %v\n", err)
			code = 1
		}
	}
	return code
}

// prepare writes pre-seeded configurations for Claude Code (under
// claudeDir), Codex (under codexDir) or both (every first-run screen
// answered, trust for the seat folder) and their environment as `export
// 'NAME=value'` lines that a shell script sources before starting
// Pullcept, so the seats it launches talk to this fake and nothing else.
// One process environment has one HOME: with both, Codex's is Claude's.
func prepare(claudeDir, codexDir, trust, base, envOut string) error {
	if envOut == "" {
		return errors.New("-claude-dir and -codex-dir need -env-out")
	}
	var trusted []string
	if trust != "" {
		trusted = []string{trust}
	}
	var env []string
	home := ""
	if claudeDir != "" {
		home = filepath.Join(claudeDir, "home")
		e, err := fakeapi.PrepareClaude(fakeapi.ClaudeSetup{Home: home, ConfigDir: filepath.Join(claudeDir, "claude-config"),
			TrustedDirs: trusted, BaseURL: base})
		if err != nil {
			return err
		}
		env = e
	}
	if codexDir != "" {
		if home == "" {
			home = filepath.Join(codexDir, "home")
		}
		e, err := fakeapi.PrepareCodex(fakeapi.CodexSetup{Home: filepath.Join(codexDir, "codex-home"),
			UserHome: home, WorkDirs: trusted, BaseURL: base})
		if err != nil {
			return err
		}
		env = mergeEnv(env, e)
	}
	return writeEnv(envOut, env)
}

// mergeEnv is a with b's entries added; a name in both keeps a's place
// and takes b's value.
func mergeEnv(a, b []string) []string {
	out := slices.Clone(a)
	for _, kv := range b {
		name, _, _ := strings.Cut(kv, "=")
		i := slices.IndexFunc(out, func(o string) bool { return strings.HasPrefix(o, name+"=") })
		if i >= 0 {
			out[i] = kv
		} else {
			out = append(out, kv)
		}
	}
	return out
}

// writeEnv writes env as shell export lines, atomically: a script
// waiting for the file never reads half of it.
func writeEnv(envOut string, env []string) error {
	var b strings.Builder
	for _, kv := range env {
		b.WriteString("export '" + strings.ReplaceAll(kv, "'", `'\''`) + "'\n")
	}
	return config.WriteFileAtomic(envOut, []byte(b.String()), 0o600)
}

// writeRecord writes one JSON object per exchange, with the request body
// included as parsed JSON when it is JSON.
func writeRecord(path string, exs []fakeapi.Exchange) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}
	enc := json.NewEncoder(f)
	for _, ex := range exs {
		line := struct {
			fakeapi.Exchange
			Body json.RawMessage `json:"body,omitempty"`
		}{Exchange: ex}
		if json.Valid(ex.Request.Body) {
			line.Body = ex.Request.Body
		}
		if err := enc.Encode(line); err != nil {
			f.Close()
			return fmt.Errorf("record: %w", err)
		}
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("record: %w", err)
	}
	return nil
}
