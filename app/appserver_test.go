package app

import (
	"testing"

	"github.com/pullcept/pullcept/tui"
)

// TestAccountAppServerMapping: the editor's app-server toggle and
// config's codex_app_server map both ways. A Codex account saves the
// toggle as it stands (false kept as hook mode), Accounts reads it back
// through Account.AppServer, and saving the account as another kind
// leaves the stored value alone (and reads as off: only Codex has the mode).
func TestAccountAppServerMapping(t *testing.T) {
	_, b := openTest(t)
	work := t.TempDir()
	lay := tui.AccountInfo{Kind: tui.KindCodexCLI, Name: "Codex Lay", Dir: work, Command: "codex", KeepEnv: true}
	saved, err := b.SaveAccount(lay)
	if err != nil {
		t.Fatal(err)
	}
	stored := func() *bool {
		t.Helper()
		a, ok := b.a.accounts.Account(saved.ID)
		if !ok {
			t.Fatalf("account %s not stored", saved.ID)
		}
		return a.CodexAppServer
	}
	if p := stored(); saved.AppServer || p == nil || *p {
		t.Fatalf("saved off: info %v, stored %v", saved.AppServer, p)
	}
	saved.AppServer = true
	if saved, err = b.SaveAccount(saved); err != nil || !saved.AppServer {
		t.Fatalf("saved on: %+v, %v", saved, err)
	}
	saved.AppServer = false
	if saved, err = b.SaveAccount(saved); err != nil {
		t.Fatal(err)
	}
	all, err := b.Accounts()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range all {
		if a.ID == saved.ID && a.AppServer {
			t.Fatalf("Accounts lost hook mode: %+v", a)
		}
		if a.ID == "sh" && a.AppServer {
			t.Fatalf("a generic CLI reads as app-server mode: %+v", a)
		}
	}
	saved.Kind, saved.Command, saved.AppServer = tui.KindClaudeCode, "claude", true
	if saved, err = b.SaveAccount(saved); err != nil || saved.AppServer {
		t.Fatalf("as Claude Code: %+v, %v", saved, err)
	}
	if p := stored(); p == nil || *p {
		t.Fatalf("another kind's save changed codex_app_server to %v", p)
	}
}
