//go:build !linux

package pty

import (
	"fmt"
	"io"
	"runtime"
)

// CanIsolate: this OS has no namespaces Isolate could use.
const CanIsolate = false

// notSeparated is why a seat is not isolated on this OS (docs/design.md
// §16 "Seats that cannot see each other" says what is and is not separated).
func notSeparated() string {
	switch runtime.GOOS {
	case "darwin":
		return "macOS has no namespaces: the seat runs as you beside the other seats and Pullcept, " +
			"and can list, read and signal their processes and read their files"
	case "windows":
		return "Windows: the seat runs as you in a Job object, not a sandbox: it can list, read and end " +
			"the other seats' and Pullcept's processes and read their files"
	}
	return runtime.GOOS + " has no namespaces Pullcept uses: the seat can see and signal the other seats' processes"
}

// startIsolating starts c as without Isolate: this OS has nothing to
// separate a seat with; the isolation says so.
func startIsolating(c child, _ *Isolate) (Proc, Isolation, error) {
	p, err := startPTY(c)
	return p, Isolation{Reason: notSeparated()}, err
}

// Probe is always "not isolated" here, with what this OS does not separate.
func Probe(string) Isolation { return Isolation{Reason: notSeparated()} }

// RunNamespace is Linux only (Start never uses it elsewhere).
func RunNamespace(_ []string, stderr io.Writer) int {
	fmt.Fprintf(stderr, "pullcept %s: not used on %s\n", NamespaceCommand, runtime.GOOS)
	return 2
}
