// Package peer reads what the kernel says of the process on the other end
// of a local socket — its pid and uid (Linux SO_PEERCRED, macOS
// LOCAL_PEERPID/LOCAL_PEERCRED) — and walks a process's parents. The room
// uses it to know a seat by its process tree rather than by a token alone,
// and the app to refuse a seat that attaches as the human
// (docs/design.md §16 "Threat model"). No goroutines, no locks.
package peer

import (
	"fmt"
	"net"
)

// InTree reports whether pid is root or one of root's descendants.
func InTree(pid, root int) bool {
	return pid > 0 && root > 0 && (pid == root || Descends(pid, root))
}

// Process is a socket's peer as the kernel named it at connect: its pid and
// its start time, which a later process given the same pid does not share.
// A connection whose connecting process has ended (its pid free for reuse)
// must not be judged by that pid (issue 31 review: a seat kept connections
// of children that had exited and waited for the pids to come back in
// another seat's tree).
type Process struct {
	PID   int
	Start uint64 // 0: unknown on this OS (the pid alone is judged)
}

// Identify names c's peer: its pid (PID) and its start time now. An error
// when the OS cannot say, or the process has already ended.
func Identify(c net.Conn) (Process, error) {
	pid, err := PID(c)
	if err != nil {
		return Process{}, err
	}
	start, ok := startTime(pid)
	if !ok {
		return Process{PID: pid}, fmt.Errorf("the connecting process %d has ended", pid)
	}
	return Process{PID: pid, Start: start}, nil
}

// Alive reports whether p still runs: the process with its pid started
// when p did.
func (p Process) Alive() bool {
	start, ok := startTime(p.PID)
	return ok && start == p.Start
}
