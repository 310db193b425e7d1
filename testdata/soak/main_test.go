// Package soak is the real-app soak of docs/design.md §13: the pullcept
// binary in tmux, its seats real fake CLIs (testdata/fakecli) posting
// through the real sidecar, one of them hostile, while a local user without
// the token holds connections and a person types into the input bar.
package soak

import (
	"os"
	"testing"

	"github.com/pullcept/pullcept/testdata/fakecli"
	"github.com/pullcept/pullcept/testdata/fakemcp"
)

// TestMain runs the fake CLI when a seat re-executes this test binary as
// its command, the scripted local MCP server when the app starts it as
// one (the notice flood), and the tests otherwise.
func TestMain(m *testing.M) {
	if fakemcp.Serving() {
		os.Exit(fakemcp.Main())
	}
	os.Exit(fakecli.Run(m))
}
