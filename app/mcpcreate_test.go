package app

import (
	"os"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/tui"
)

// TestCreateMCPAccountRefusedWritesNothing: a create the account book
// refuses (the name is the human's) leaves no entry in mcp-servers.json —
// its command would otherwise run at the next start under that name.
func TestCreateMCPAccountRefusedWritesNothing(t *testing.T) {
	a, b := openTest(t)
	_, err := b.CreateMCPAccount(tui.AccountInfo{Kind: tui.KindMCP, Name: "Alice", KeepEnv: true}, "/bin/sh", "-c\ntouch marker", "")
	if err == nil {
		t.Fatal("an mcp account named as the human was made")
	}
	data, rerr := os.ReadFile(a.mcpFile.Path())
	if rerr == nil && strings.Contains(string(data), "touch marker") {
		t.Fatalf("the refused account's entry stayed:\n%s", data)
	}
	list, err := a.mcpFile.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 0 {
		t.Errorf("entries after a refused create: %+v", list)
	}
	if names := a.mcp.Names(); len(names) != 0 {
		t.Errorf("servers started: %q", names)
	}
}
