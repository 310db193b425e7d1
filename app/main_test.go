package app

import (
	"os"
	"testing"

	"github.com/pullcept/pullcept/testdata/fakecli"
	"github.com/pullcept/pullcept/testdata/fakemcp"
)

// TestMain runs the scripted local MCP server (testdata/fakemcp) when this
// test binary was started as one (an mcp-servers.json entry of a test),
// else the tests; fakecli.Run removes the pullcept binary the Claude seat
// tests build (fakecli.PullceptBinary).
func TestMain(m *testing.M) {
	if fakemcp.Serving() {
		os.Exit(fakemcp.Main())
	}
	os.Exit(fakecli.Run(m))
}
