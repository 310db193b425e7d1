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

// TestMCPKindIsFixed: an existing account cannot become an MCP server's,
// nor an MCP server's account another kind (spec #200).
func TestMCPKindIsFixed(t *testing.T) {
	a, b := openTest(t)
	sh, ok := a.accounts.Account("sh")
	if !ok {
		t.Fatal("no sh account")
	}
	in := toInfo(sh)
	in.Kind, in.KeepEnv = tui.KindMCP, true
	if _, err := b.SaveAccount(in); err == nil {
		t.Error("a CLI account became an MCP server's")
	}
	made, err := b.CreateMCPAccount(tui.AccountInfo{Kind: tui.KindMCP, Name: "Hooks", KeepEnv: true}, "sleep", "30", "")
	if err != nil {
		t.Fatal(err)
	}
	made.Kind, made.KeepEnv = tui.KindCLI, true
	if _, err := b.SaveAccount(made); err == nil {
		t.Error("an MCP server's account became a CLI")
	}
}
