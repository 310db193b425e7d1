package app

import (
	"slices"
	"testing"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/tui"
)

// TestPermissionModesAgree: the editor offers the modes config accepts,
// in the same order (tui does not import config), and the editor's mode
// reaches the account and back.
func TestPermissionModesAgree(t *testing.T) {
	if !slices.Equal(tui.PermissionModes, config.PermissionModes) {
		t.Fatalf("tui %q, config %q", tui.PermissionModes, config.PermissionModes)
	}
	e := toEdit(tui.AccountInfo{Kind: string(config.KindClaudeCode), PermissionMode: config.PermissionPlan})
	if e.PermissionMode == nil || *e.PermissionMode != config.PermissionPlan {
		t.Fatalf("edit %+v", e)
	}
	if e := toEdit(tui.AccountInfo{Kind: string(config.KindCodexCLI)}); e.PermissionMode != nil {
		t.Fatal("a Codex account's edit carries a permission mode")
	}
	if info := toInfo(config.Account{Kind: config.KindClaudeCode, PermissionMode: "acceptEdits"}); info.PermissionMode != "acceptEdits" {
		t.Fatalf("info %+v", info)
	}
}
