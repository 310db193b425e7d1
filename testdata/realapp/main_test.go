// Package realapp drives the pullcept binary in tmux the way a person does
// — keys in with send-keys, the screen read back with capture-pane — with
// fake CLIs (testdata/fakecli) in its seats joining the room through the
// real sidecar (docs/design.md §13). Linux only (tmux).
package realapp

import (
	"os"
	"testing"

	"github.com/pullcept/pullcept/testdata/fakecli"
)

// TestMain runs the fake CLI when a seat re-executes this test binary as
// its command, and the tests otherwise.
func TestMain(m *testing.M) { os.Exit(fakecli.Run(m)) }
