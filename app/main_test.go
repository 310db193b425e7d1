package app

import (
	"net"
	"os"
	"testing"
	"time"

	"github.com/pullcept/pullcept/testdata/fakecli"
	"github.com/pullcept/pullcept/testdata/fakemcp"
)

// opsChildEnv names the setup file of the session-operations kill test's
// child process: the test binary, started again, runs an App there
// (opsChild) until killed.
const opsChildEnv = "PULLCEPT_TEST_SESSIONOPS_CHILD"

// TestMain runs the scripted local MCP server (testdata/fakemcp) when this
// test binary was started as one (an mcp-servers.json entry of a test),
// else the tests; fakecli.Run removes the pullcept binary the Claude seat
// tests build (fakecli.PullceptBinary).
func TestMain(m *testing.M) {
	if fakemcp.Serving() {
		os.Exit(fakemcp.Main())
	}
	if len(os.Args) > 1 && os.Args[1] == stayFlag {
		for { // until the seat is stopped (killed)
			time.Sleep(time.Hour)
		}
	}
	if len(os.Args) > 2 && os.Args[1] == connectFlag {
		os.Exit(connectAndEnd(os.Args[2]))
	}
	if path := os.Getenv(opsChildEnv); path != "" {
		os.Exit(opsChild(path))
	}
	os.Exit(fakecli.Run(m))
}

// connectFlag makes this test binary connect to the Unix socket named next
// and end at once (connectAndEnd): a peer that is gone when it is judged
// (TestAnEndedConnectorIsNoUI).
const connectFlag = "-pullcept-test-connect"

func connectAndEnd(path string) int {
	if _, err := net.Dial("unix", path); err != nil {
		return 1
	}
	return 0
}
