// Package fakecli is the fake coding CLI of Pullcept's tests: a tiny
// generic CLI that a test binary becomes when a seat re-executes it
// (docs/design.md §13 "Fake CLIs in a real PTY": fake CLIs run in a real
// PTY by re-executing the test binary, so a test needs no program of its
// own on the machine). It prints Ready, echoes every line it reads from
// its terminal, exits with a chosen status on request, and can join the
// room through the real sidecar the way Claude Code does, by reading the
// seat's .mcp.json (JoinRoom).
//
// With -echo it is the worst case of a model: it answers every post typed
// into it with one say_to_room, so two such seats answer each other without
// end (the room's brake stops that, docs/design.md §2 "The brake").
//
// It is test-only. It lives under testdata/ so `go test ./...` and the
// product build never see it; test files import it by path. A test binary
// that seats it runs it from its TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(fakecli.Run(m)) }
//
// and seats an Account (kind cli, the test binary as its command, Env in
// its environment). Main's doc lists the flags the CLI takes.
//
// Goroutines: none in the test process. In the fake CLI process, one
// stdin reader, which ends at EOF or when Main returns.
package fakecli

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats/pty"
)

// Env, set in a process's environment, makes Run act as the fake CLI
// instead of running the tests. It is outside config.ReservedEnvPrefix
// (PULLCEPT_), so an account's env may carry it.
const Env = "FAKECLI"

// Ready is the line the fake CLI prints once it reads its terminal (after
// joining the room, with -join).
const Ready = "fake cli ready"

// Redrawn starts the line a fake CLI started with -redraw prints at each
// SIGWINCH.
const Redrawn = "redrawn"

// Run is the body of a test binary's TestMain: a seat's namespace init
// when started as one (a Manager whose PullceptPath is this test binary
// starts every seat through `seat-ns`, pty.NamespaceCommand), the fake CLI
// when this process was started as one (Env set), else the tests, after
// which the pullcept binary PullceptBinary built is removed. It returns the
// exit status for os.Exit: a helper process has no other way to end with a
// chosen status.
func Run(m *testing.M) int {
	if len(os.Args) > 1 && os.Args[1] == pty.NamespaceCommand {
		return pty.RunNamespace(os.Args[2:], os.Stderr)
	}
	if os.Getenv(Env) != "" {
		return Main(os.Args[1:])
	}
	code := m.Run()
	removeBuilt()
	return code
}

// Main is the fake CLI. Flags come first; the first word that is not a
// flag ends them and the rest is only recorded (so a launch line's
// "resume {session_id}" can follow):
//
//	-argv FILE   write the command line (JSON list) to FILE first
//	-env FILE    write the environment (JSON list of NAME=value) to FILE first
//	-exit N      then exit with status N at once (a CLI that dies by itself)
//	-join        start the room's sidecar from ./.mcp.json as a CLI does
//	             (initialize, tools/list), so the seat joins and gets ready
//	-echo        with -join: answer every post typed into the terminal (a
//	             tag line, room.TagPrefix) with one say_to_room, content
//	             "re <message_id>" (and " @NAME" with -to NAME) and
//	             last_seen that message_id, then print Answered's line
//	-mine        with -echo: answer only the posts addressed to this seat
//	             (the tag's "to" names its "you")
//	-ops         with -join: a line "start ACCOUNT" (a post's body) asks
//	             the room to start ACCOUNT's seat in this topic, resuming
//	             (control_account_session), then prints OpAsked's line
//	-lines FILE  append every line read from the terminal (a JSON string
//	             per line; read it with Lines)
//	-load N      with -join: post "load <account> <n>" with say_to_room N
//	             times a second (load.go), passing the newest post seen as
//	             last_seen; the LoadResult goes to -out
//	-hostile     with -join: run every flood of the hostile-seats issue with
//	             the seat's own token (hostile.go); the HostileReport goes
//	             to -out
//	-to NAME     with -load or -echo: address every post to NAME (@NAME in
//	             its body)
//	-start FILE  the load or the floods begin once FILE exists; with -echo,
//	             each answer waits for FILE
//	-for D       and last D (a Go duration)
//	-out FILE    where the result goes
//	-winch FILE  append the terminal's size as "COLSxROWS" to FILE at start
//	             and at every SIGWINCH (Unix; read it with Sizes)
//	-redraw      print "redrawn COLSxROWS" at every SIGWINCH, as a
//	             full-screen CLI redraws at a resize (Unix)
//	-prompt      read key by key and draw an input line like Claude Code:
//	             cursor hidden and parked at its own caret (prompt.go; Linux)
//	-mouse       with -prompt: ask for mouse reports and record them
//	-osc52 TEXT  with -prompt: first write TEXT to the clipboard (OSC 52)
//	-stay        terminal EOF does not end it (under Wine a pseudo console
//	             child may read EOF at once and end before a test looks)
//
// It prints Ready, then "got: <line>" for every line it reads; a line
// "exit N" ends it with status N; terminal EOF, SIGHUP or SIGTERM end it
// with 0. Exit statuses of its own: 2 bad flags (-echo or -ops without -join), 3 a
// file error, 4 the join failed.
func Main(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGHUP, syscall.SIGTERM)
	defer stop()
	return run(ctx, args, os.Stdin, os.Stdout)
}

// options are Main's flags.
type options struct {
	argvFile  string
	envFile   string
	exit      int // -1: do not exit at once
	join      bool
	echo      bool
	mine      bool
	ops       bool
	linesFile string
	winchFile string
	redraw    bool
	load      loadOptions
	prompt    bool
	mouse     bool
	osc52     string
	stay      bool
}

func parse(args []string, out io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("fakecli", flag.ContinueOnError)
	fs.StringVar(&o.argvFile, "argv", "", "")
	fs.StringVar(&o.envFile, "env", "", "")
	fs.IntVar(&o.exit, "exit", -1, "")
	fs.BoolVar(&o.join, "join", false, "")
	fs.BoolVar(&o.echo, "echo", false, "")
	fs.BoolVar(&o.mine, "mine", false, "")
	fs.BoolVar(&o.ops, "ops", false, "")
	fs.StringVar(&o.linesFile, "lines", "", "")
	fs.StringVar(&o.winchFile, "winch", "", "")
	fs.BoolVar(&o.redraw, "redraw", false, "")
	fs.BoolVar(&o.prompt, "prompt", false, "")
	fs.BoolVar(&o.mouse, "mouse", false, "")
	fs.StringVar(&o.osc52, "osc52", "", "")
	fs.BoolVar(&o.stay, "stay", false, "")
	fs.IntVar(&o.load.rate, "load", 0, "")
	fs.BoolVar(&o.load.hostile, "hostile", false, "")
	fs.StringVar(&o.load.start, "start", "", "")
	fs.StringVar(&o.load.to, "to", "", "")
	fs.DurationVar(&o.load.dur, "for", 10*time.Second, "")
	fs.StringVar(&o.load.out, "out", "", "")
	fs.SetOutput(out)
	return o, fs.Parse(args)
}

// run is Main over the given terminal.
func run(ctx context.Context, args []string, in io.Reader, out io.Writer) int {
	o, err := parse(args, out)
	if err != nil {
		return 2
	}
	if (o.echo || o.ops || o.load.rate > 0 || o.load.hostile) && !o.join {
		fmt.Fprintln(out, "-echo, -ops, -load and -hostile need -join")
		return 2
	}
	if o.argvFile != "" {
		if err := writeJSONAtomic(o.argvFile, os.Args); err != nil {
			fmt.Fprintf(out, "argv: %v\n", err)
			return 3
		}
	}
	if o.envFile != "" {
		if err := writeJSONAtomic(o.envFile, os.Environ()); err != nil {
			fmt.Fprintf(out, "env: %v\n", err)
			return 3
		}
	}
	if o.exit >= 0 {
		return o.exit
	}
	var answer func(string)
	if o.join {
		c, err := JoinRoom(ctx)
		if err != nil {
			fmt.Fprintf(out, "join: %v\n", err)
			return 4
		}
		defer c.Close()
		if answer, err = answerer(ctx, c, o, out); err != nil {
			fmt.Fprintf(out, "load: %v\n", err)
			return 4
		}
	}
	var lines io.Writer = io.Discard
	if o.linesFile != "" {
		f, err := os.OpenFile(o.linesFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			fmt.Fprintf(out, "lines: %v\n", err)
			return 3
		}
		defer f.Close()
		lines = f
	}
	if o.winchFile != "" || o.redraw {
		var redraw io.Writer
		if o.redraw {
			redraw = out
		}
		stop, err := recordSizes(o.winchFile, redraw)
		if err != nil {
			fmt.Fprintf(out, "winch: %v\n", err)
			return 3
		}
		defer stop()
	}
	if o.prompt {
		return runPrompt(ctx, o, in, out, lines, rawTerminal)
	}
	fmt.Fprintln(out, Ready)
	code, eof := echo(ctx, in, out, lines, answer)
	if o.stay && eof {
		<-ctx.Done() // or the kill
	}
	return code
}

// answerer is what a joined CLI does with each line it reads (-echo, -ops,
// the load modes; nil: nothing), and starts the load modes' run.
func answerer(ctx context.Context, c *client.Client, o options, out io.Writer) (func(string), error) {
	var answer func(string)
	if o.echo {
		answer = func(line string) {
			if (!o.mine || addressedToMe(line)) && waitStart(ctx, o.load.start) {
				answerPost(ctx, c, line, o.load.to, out)
			}
		}
	}
	if o.ops {
		prev := answer
		answer = func(line string) {
			if prev != nil {
				prev(line)
			}
			askStart(ctx, c, line, out)
		}
	}
	if o.load.rate > 0 || o.load.hostile {
		seen := &newest{}
		answer = seen.learn
		if err := startLoad(ctx, c, o.load, seen, out); err != nil {
			return nil, err
		}
	}
	return answer, nil
}

// echo answers every line of in until "exit N", EOF (eof) or ctx ends;
// answer, when set, then sees the line too.
func echo(ctx context.Context, in io.Reader, out, lines io.Writer, answer func(string)) (code int, eof bool) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // ends the reader if it waits to hand over a line
	read := make(chan string)
	go func() {
		defer close(read)
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		for sc.Scan() {
			select {
			case read <- sc.Text():
			case <-ctx.Done():
				return
			}
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return 0, false
		case line, ok := <-read:
			if !ok {
				return 0, true
			}
			b, _ := json.Marshal(line)
			if _, err := lines.Write(append(b, '\n')); err != nil {
				fmt.Fprintf(out, "lines: %v\n", err)
				return 3, false
			}
			var code int
			if _, err := fmt.Sscanf(line, "exit %d", &code); err == nil {
				return code, false
			}
			fmt.Fprintf(out, "got: %s\n", line)
			if answer != nil {
				answer(line)
			}
		}
	}
}

// Command is the fake CLI's command: the absolute path of the running test
// binary.
func Command(t testing.TB) string {
	t.Helper()
	p, err := os.Executable()
	if err != nil {
		t.Fatalf("test binary: %v", err)
	}
	return p
}

// Account is a generic CLI account (kind cli) that runs the fake CLI with
// opts (Main's flags) in workDir.
func Account(t testing.TB, id, name, workDir, opts string) config.Account {
	t.Helper()
	return config.Account{ID: id, Name: name, Kind: config.KindCLI, WorkDir: workDir,
		Command: Command(t), LaunchOptions: opts, Env: []config.EnvVar{{Name: Env, Value: "1"}}}
}

// Lines reads the file of a fake CLI started with -lines: every line it
// read from its terminal, in order.
func Lines(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		var line string
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			// The last line may be half-written while the CLI runs.
			break
		}
		out = append(out, line)
	}
	return out, sc.Err()
}

// writeJSONAtomic writes v as JSON to path through a temp file and a
// rename, so a reader never sees half a file.
func writeJSONAtomic(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
