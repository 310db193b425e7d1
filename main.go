// Command pullcept is a terminal chat room for AI coding CLIs and their human
// (docs/design.md §1). main.go only reads the command line and hands over:
// the UI and everything below it to app.Run, the sidecar to sidecar.Run, the
// status line to app.RunStatusLine, an export to app.RunExport, the seat
// guard to pty.RunGuard. Subcommands:
//
//	pullcept                 the terminal UI (--data DIR: another data directory)
//	pullcept sidecar         the MCP stdio server a seat's CLI starts from .mcp.json
//	pullcept status-line URL Claude Code's statusLine command: forwards its JSON to the room
//	pullcept export TOPIC    write a topic as Markdown (app.RunExport)
//	pullcept seat-guard -- CMD…  runs a Codex app-server seat's server; not run by hand
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
	"syscall"

	"github.com/pullcept/pullcept/app"
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
  pullcept [flags]          start the terminal UI
  pullcept sidecar          MCP stdio server for a seat (started by the CLI from .mcp.json)
  pullcept status-line URL  Claude Code status line command (set by Pullcept; forwards to the room)
  pullcept export TOPIC [-o FILE] [--data DIR]
                            write a topic (its id or title, or a unique start of either) as Markdown
                            to stdout or FILE

Flags:
  --version                 print the version and exit
  --help                    print this help and exit
  --data DIR                data directory (default: $PULLCEPT_HOME, else the OS config dir + /pullcept)

Environment:
  PULLCEPT_HOME             data directory (config.json, logs/)
  PULLCEPT_LANGUAGE         en or ja: the UI's language (else config.json's "language", else the locale)
`

// run dispatches the command line and returns the process exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == room.StatusLineCommand {
		return app.RunStatusLine(args[1:], os.Getenv, stdin, stdout, stderr)
	}
	if len(args) > 0 && args[0] == pty.GuardCommand {
		return pty.RunGuard(args[1:], stderr)
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
	fs := flag.NewFlagSet("pullcept", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors and usage are printed below, once
	fs.Usage = func() {}
	showVersion := fs.Bool("version", false, "print the version and exit")
	dataDir := fs.String("data", "", "data directory")
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
	if err := app.Run(context.Background(), *dataDir, versionString()); err != nil {
		fmt.Fprintf(stderr, "pullcept: %v\n", err)
		return 1
	}
	return 0
}
