// Command pullcept is a terminal chat room for AI coding CLIs and their human
// (docs/design.md §1). main.go only reads the command line and hands over:
// the UI and everything below it to app.Run, the sidecar to sidecar.Run, the
// status line to app.RunStatusLine, a hook to app.RunHook, an export to app.RunExport, the seat
// guard to pty.RunGuard, a seat's namespace init to pty.RunNamespace. Subcommands:
//
//	pullcept                 the terminal UI, attached to the data directory's server
//	                         (started when none runs); --no-server: in this process
//	pullcept attach|ls|kill-server|server  the served mode (app/attachclient, app.Serve)
//	pullcept sidecar         the MCP stdio server a seat's CLI starts from .mcp.json
//	pullcept status-line URL Claude Code's statusLine command: forwards its JSON to the room
//	pullcept hook URL        a Claude Code command hook: forwards its JSON, prints the answer
//	pullcept export TOPIC    write a topic as Markdown (app.RunExport)
//	pullcept seat-guard -- CMD…  runs a Codex app-server seat's server; not run by hand
//	pullcept seat-ns -- CMD…     PID 1 of a seat's namespaces (Linux); not run by hand
//	pullcept --version       print the version
//	pullcept --help          print usage
//
// main.go is the only place that calls os.Exit.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"

	"github.com/pullcept/pullcept/app"
	"github.com/pullcept/pullcept/app/attachclient"
	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats/pty"
	"github.com/pullcept/pullcept/sidecar"
)

// version is set with -ldflags "-X main.version=…"; otherwise the module
// version from the build info is used (go install …@vX.Y.Z).
var version = ""

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func versionString() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

const usage = `Pullcept — a chat room for AI coding CLIs and their human.

Usage:
  pullcept [flags]          the terminal UI: attach to this data directory's server, starting it
                            when none runs (the seats keep running when the window closes)
  pullcept attach           attach to the running server (ssh -t HOST pullcept attach works too)
  pullcept ls               list the server, its attached terminals and the seats of every topic
  pullcept kill-server      stop every seat, then the server
  pullcept server           run the server in the foreground (for a service manager)
      [--exit-empty 10s]    end after this long with no terminal and no seat (0: never)
      [--ssh [HOST:]PORT]   also listen for SSH (loopback unless HOST), public keys only, from
      [--authorized-keys F] F (default: authorized_keys in the data directory)
  pullcept sidecar          MCP stdio server for a seat (started by the CLI from .mcp.json)
  pullcept status-line URL  Claude Code status line command (set by Pullcept; forwards to the room)
  pullcept hook URL         Claude Code hook command (set by Pullcept; forwards to the room)
  pullcept export TOPIC [-o FILE] [--data DIR]
                            write a topic (its id or title, or a unique start of either) as Markdown
                            to stdout or FILE

Flags:
  --version                 print the version and exit
  --help                    print this help and exit
  --data DIR                data directory (default: $PULLCEPT_HOME, else the OS config dir + /pullcept)
  --no-server               run the UI and the seats in this process: they end with this window

Environment:
  PULLCEPT_HOME             data directory (config.json, logs/)
  PULLCEPT_LANGUAGE         en or ja: the UI's language (else config.json's "language", else the locale)
`

// run dispatches the command line and returns the process exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == room.StatusLineCommand {
		return app.RunStatusLine(args[1:], os.Getenv, stdin, stdout, stderr)
	}
	if len(args) > 0 && args[0] == room.HookCommand {
		return app.RunHook(args[1:], os.Getenv, stdin, stdout, stderr)
	}
	if len(args) > 0 && args[0] == pty.GuardCommand {
		return pty.RunGuard(args[1:], stderr)
	}
	if len(args) > 0 && args[0] == pty.NamespaceCommand {
		return pty.RunNamespace(args[1:], stderr)
	}
	if len(args) > 0 && args[0] == "export" {
		return app.RunExport(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == room.SidecarCommand {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		if err := sidecar.Run(ctx, os.Getenv, stdin, stdout, stderr); err != nil && !errors.Is(err, context.Canceled) {
			fmt.Fprintf(stderr, "pullcept sidecar: %v\n", err)
			return 1
		}
		return 0
	}
	args = servedFirst(args)
	if len(args) > 0 {
		switch args[0] {
		case "server", "attach", "ls", "kill-server":
			return runServed(args[0], args[1:], stdout, stderr)
		}
	}
	fs := flag.NewFlagSet("pullcept", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors and usage are printed below, once
	fs.Usage = func() {}
	showVersion := fs.Bool("version", false, "print the version and exit")
	dataDir := fs.String("data", "", "data directory")
	noServer := fs.Bool("no-server", false, "run in this process")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usage)
			return 0
		}
		fmt.Fprintf(stderr, "pullcept: %v\n\n%s", err, usage)
		return 2
	}
	if *showVersion {
		fmt.Fprintf(stdout, "pullcept %s\n", versionString())
		return 0
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "pullcept: unknown command %q\n\n%s", fs.Arg(0), usage)
		return 2
	}
	var notices []string
	if !*noServer && app.ServeSupported {
		code, err := attachclient.Attach(attachclient.Options{DataDir: *dataDir, Start: true})
		if !errors.Is(err, attachclient.ErrNoDetachedStart) {
			if err != nil {
				fmt.Fprintf(stderr, "pullcept: %v\n", err)
			}
			return code
		}
		// No server could outlive this terminal (Windows Terminal's job):
		// the single process, saying why.
		notices = append(notices, "Seats end with this window: "+err.Error()+" (docs/serve.md)")
	} else if !*noServer {
		// Here only where the server does not run: say that the seats end
		// with this window, as the issue asks.
		notices = append(notices, noServerNotice)
	}
	if err := app.Run(context.Background(), *dataDir, versionString(), notices...); err != nil {
		if errors.Is(err, config.ErrDataDirBusy) && app.ServeSupported {
			err = fmt.Errorf("%w\n(a pullcept server holds it: pullcept attach shows it, pullcept kill-server ends it)", err)
		}
		fmt.Fprintf(stderr, "pullcept: %v\n", err)
		return 1
	}
	return 0
}

// noServerNotice is the start-up notice where `pullcept server` cannot
// run (docs/serve.md "Windows").
const noServerNotice = "Seats end with this window here: pullcept server does not run on this OS yet (docs/serve.md)"

// holderNote says who holds a data directory no server serves: a
// pullcept --no-server whose pid note is there and alive; else orElse.
func holderNote(dir, orElse string) string {
	if dir == "" {
		d, err := config.DataDir()
		if err != nil {
			return orElse
		}
		dir = d
	}
	pid := config.ReadPidNote(dir) // a FIFO planted there does not hang
	if pid <= 0 {
		return orElse
	}
	if p, err := os.FindProcess(pid); err != nil || p.Signal(syscall.Signal(0)) != nil {
		return orElse
	}
	return fmt.Sprintf("; a pullcept --no-server (pid %d) has it open: its seats end with its window", pid)
}

// servedFirst moves a served-mode command given after --data DIR to the
// front, as tmux users write it (pullcept --data DIR ls).
func servedFirst(args []string) []string {
	n := 0
	switch {
	case len(args) >= 2 && args[0] == "--data":
		n = 2
	case len(args) >= 1 && strings.HasPrefix(args[0], "--data="):
		n = 1
	default:
		return args
	}
	if len(args) <= n {
		return args
	}
	switch args[n] {
	case "server", "attach", "ls", "kill-server":
		out := append([]string{args[n]}, args[:n]...)
		return append(out, args[n+1:]...)
	}
	return args
}

// readyReport is how a server says it listens: on the starter's
// readiness pipe ("ok", or why not), or — in the foreground (a service
// manager, a person) — one line on stderr; its logs say the rest.
func readyReport(fd int, stderr io.Writer) func(error) {
	if fd <= 0 {
		return func(err error) {
			if err == nil {
				fmt.Fprintf(stderr, "pullcept server: running (pid %d); pullcept attach shows it, pullcept kill-server or Ctrl+C ends it\n", os.Getpid())
			}
		}
	}
	f := os.NewFile(uintptr(fd), "ready")
	var once sync.Once
	return func(err error) {
		once.Do(func() {
			if err != nil {
				fmt.Fprintf(f, "%v\n", err)
			} else {
				fmt.Fprintln(f, "ok")
			}
			_ = f.Close()
		})
	}
}

// runServed runs the served mode's commands (docs/serve.md): the server
// itself, or a client of it.
func runServed(cmd string, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("pullcept "+cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dataDir := fs.String("data", "", "data directory")
	exitEmpty := fs.Duration("exit-empty", app.DefaultExitEmpty, "end after this long with no client and no seat (0: never)")
	readyFD := fs.Int(strings.TrimPrefix(attachclient.ReadyFDFlag, "--"), 0, "readiness pipe")
	sshAddr := fs.String("ssh", "", "the embedded SSH listener's address")
	keys := fs.String("authorized-keys", "", "the embedded SSH listener's keys")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 || (cmd != "server" && (*readyFD != 0 || *sshAddr != "" || *keys != "")) {
		if err == nil {
			err = fmt.Errorf("unexpected argument %q", fs.Arg(0))
		}
		fmt.Fprintf(stderr, "pullcept %s: %v\n\n%s", cmd, err, usage)
		return 2
	}
	switch cmd {
	case "server":
		o := app.ServeOptions{ExitEmpty: *exitEmpty, SSH: *sshAddr, AuthorizedKeys: *keys}
		o.Ready = readyReport(*readyFD, stderr)
		if err := app.Serve(context.Background(), *dataDir, versionString(), o); err != nil {
			fmt.Fprintf(stderr, "pullcept server: %v\n", err)
			return 1
		}
		return 0
	case "attach":
		code, err := attachclient.Attach(attachclient.Options{DataDir: *dataDir})
		if errors.Is(err, attachclient.ErrNoServer) {
			fmt.Fprintf(stderr, "pullcept attach: no server runs for this data directory%s\n", holderNote(*dataDir, "; plain pullcept starts one"))
			return 1
		}
		if err != nil {
			fmt.Fprintf(stderr, "pullcept attach: %v\n", err)
		}
		return code
	}
	dir := *dataDir
	if dir == "" {
		d, err := config.DataDir()
		if err != nil {
			fmt.Fprintf(stderr, "pullcept %s: %v\n", cmd, err)
			return 1
		}
		dir = d
	}
	if cmd == "kill-server" {
		if err := attachclient.KillServer(dir, stdout); errors.Is(err, attachclient.ErrNoServer) {
			fmt.Fprintf(stderr, "pullcept %s: no server runs for %s\n", cmd, dir)
			return 1
		} else if err != nil {
			fmt.Fprintf(stderr, "pullcept %s: %v\n", cmd, err)
			return 1
		}
		return 0
	}
	if err := attachclient.Command(dir, cmd, stdout); err != nil {
		if errors.Is(err, attachclient.ErrNoServer) {
			fmt.Fprintf(stderr, "pullcept %s: no server runs for %s%s\n", cmd, dir, holderNote(dir, ""))
			return 1
		}
		fmt.Fprintf(stderr, "pullcept %s: %v\n", cmd, err)
		return 1
	}
	return 0
}
