package pty

import (
	"os"
	"testing"
)

// TestMain runs a seat's namespace init or its guard when a test started
// this binary as one (Isolate.Init, NamespaceCommand; Options.Guard,
// GuardCommand), and the tests otherwise.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == NamespaceCommand {
		os.Exit(RunNamespace(os.Args[2:], os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == GuardCommand {
		os.Exit(RunGuard(os.Args[2:], os.Stderr))
	}
	os.Exit(m.Run())
}
