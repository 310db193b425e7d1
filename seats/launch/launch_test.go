package launch

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestViaCmdExe(t *testing.T) {
	t.Parallel()
	for goos, want := range map[string]bool{"linux": false, "darwin": false, "windows": true} {
		if got := ViaCmdExe(goos); got != want {
			t.Errorf("ViaCmdExe(%q) = %v", goos, got)
		}
	}
}

func TestRoomPromptIsLineSafe(t *testing.T) {
	t.Parallel()
	key := MCPKey("8f14e45f-ceea-467a-b160-6f14e45fceea", "topic-with-a-long-id")
	p := RoomPrompt(key)
	for _, r := range p {
		if !LineSafeText(r) {
			t.Fatalf("RoomPrompt holds %q, outside the line-safe set: %s", r, p)
		}
	}
	if !strings.Contains(p, ToolName(key, "say_to_room")) || !strings.Contains(p, "reaches nobody") {
		t.Errorf("RoomPrompt = %s", p)
	}
}

// TestResolveCommandFindsTheFileOnPATH: a bare name resolves the way the
// spawn resolves it — on Windows with PATHEXT, so "tool" is tool.cmd —
// and a path is left as written.
func TestResolveCommandFindsTheFileOnPATH(t *testing.T) {
	dir := t.TempDir()
	file := "tool"
	if runtime.GOOS == "windows" {
		file = "tool.cmd"
		t.Setenv("PATHEXT", ".COM;.EXE;.BAT;.CMD")
	}
	if err := os.WriteFile(filepath.Join(dir, file), []byte("@echo off\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	got := ResolveCommand("tool")
	if !strings.EqualFold(got, filepath.Join(dir, file)) {
		t.Fatalf("ResolveCommand(tool) = %q, want %q", got, filepath.Join(dir, file))
	}
	if got := ResolveCommand(filepath.Join(dir, file)); got != "" {
		t.Fatalf("a path resolved to %q", got)
	}
	if got := ResolveCommand("no-such-tool"); got != "" {
		t.Fatalf("a missing name resolved to %q", got)
	}
}
