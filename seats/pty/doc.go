// Package pty runs a seat's child process in a pseudo-terminal, per OS: on
// Unix a new session with the PTY as its controlling terminal (creack/pty),
// on Windows a ConPTY inside a Job object that is killed with it
// (docs/design.md §9, §14 "One writer per PTY"). It also owns what ends a
// process tree: Proc.Kill, the seat guard that an app-server Codex seat's
// server runs under on Unix (RunGuard, Options.Guard), and EndTreeOnCancel
// for children run with os/exec; how the program's end crosses the chain
// it runs under — an exit, or which signal (Proc.Signaled, end_unix.go,
// docs/design.md §9 "How a seat's end is told"); the last check of a
// Windows command line before cmd.exe reads it (CheckCmdLine); and what
// keeps seats from seeing each other (Options.Isolate, docs/design.md
// §16): on Linux the child runs as `pullcept seat-ns -- argv`
// (RunNamespace, PID 1 of new user, PID and mount namespaces, with argv in
// a nested user and mount namespace), and where the kernel refuses them it
// starts as before; Isolate.Got says which.
//
// # Goroutines
//
// One per Proc: the child reaper (unixProc.reap, winProc.reap), the only
// waiter on the child, so no zombie is left. Owner: the Proc. Ends once the
// child is reaped; Proc.Wait waits for it. The seat guard (a process of its
// own) runs one goroutine waiting for its command. The namespace init (a
// process of its own) runs one reaping every child of its namespace until
// argv's end, while its main goroutine passes signals on; both end with
// the process.
//
// # Locks
//
// The Unix Proc's killMu (whether its process group is gone) is a leaf,
// never held across a call out of the package.
package pty
