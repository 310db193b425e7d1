package localmcp

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScriptsRunOnlyByTheirFullName: a .cmd script runs through cmd.exe
// when named with its extension; the same name without it is looked up
// as a .exe only, and is not found.
func TestScriptsRunOnlyByTheirFullName(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "fake server.cmd")
	if err := os.WriteFile(script, []byte("@\""+os.Args[0]+"\" %*\r\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	s := newSupervisor(t, Options{})
	spec := fakeSpec(t, fakeConfig{})
	spec.Command = script
	if err := s.Start("script", spec); err != nil {
		t.Fatal(err)
	}
	waitPhase(t, s, "script", Running)

	spec.Command = strings.TrimSuffix(script, ".cmd")
	if err := s.Start("bare", spec); err == nil || !strings.Contains(s.State("bare").Reason, "not found") {
		t.Errorf("a bare script name: %v, %+v", err, s.State("bare"))
	}
	spec.Args = []string{"100%"}
	spec.Command = script
	if err := s.Start("percent", spec); err == nil {
		t.Error("a word with % went to cmd.exe")
	} else if errors.Is(err, ErrRunning) {
		t.Error(err)
	}
}
