//go:build windows

package seats

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/logstore"
)

// TestPreviewJudgesTheResolvedCommand: on Windows the Manager resolves a
// bare command on PATH (with PATHEXT) before it builds the line, so npm's
// tool.cmd in a folder whose name holds a parenthesis is refused as
// cmd.exe would cut it — the check used to read only the name "tool"
// (runs on Windows and under Wine, make wine).
func TestPreviewJudgesTheResolvedCommand(t *testing.T) {
	store, err := logstore.Open(filepath.Join(t.TempDir(), "data"), logstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	m, err := NewManager(ManagerOptions{Sessions: store, Accounts: func(string) (config.Account, bool) { return config.Account{}, false },
		PullceptPath: `C:\pullcept.exe`, Environ: os.Environ})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	m.SetRoom(RoomEndpoint{URL: "ws://127.0.0.1:9/room", HooksURL: "http://127.0.0.1:9"})
	work := t.TempDir()
	dir := filepath.Join(t.TempDir(), "npm (x86)")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tool.cmd"), []byte("@echo off\r\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	t.Setenv("PATHEXT", ".COM;.EXE;.BAT;.CMD")
	a := config.Account{ID: "t", Name: "Tool", Kind: config.KindCLI, WorkDir: work, Command: "tool"}
	_, problems := m.Preview(a)
	if len(problems) == 0 || !strings.Contains(strings.Join(problems, "\n"), "npm (x86)") {
		t.Fatalf("a tool.cmd under %q: problems %q, want the cmd.exe refusal naming it", dir, problems)
	}
}

// TestWindowsExitCodesAreNotSignals: a Windows program's code above 128
// (255, a crash's 0xC0000005) is its own answer, never read as a kill: the
// PTY names no signal there.
func TestWindowsExitCodesAreNotSignals(t *testing.T) {
	for _, code := range []int{129, 137, 255, 0xC0000005} {
		if err := exitErr(code, 0, nil, false); err != nil {
			t.Errorf("exit %d: %v, want no error", code, err)
		}
	}
}
