//go:build windows

package localmcp

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// cmdExeReactive are the characters that cmd.exe reads even inside a
// quoted word (% expands variables) or that cannot be quoted (the quote
// itself); a word holding one is refused rather than passed.
const cmdExeReactive = "%\""

// command builds the server's process, no shell in between for a .exe.
// A bare name runs only as <name>.exe: a .cmd or .bat script runs only
// when named with its extension (spec «ローカル MCP サーバ»), and then
// through `cmd.exe /D /V:OFF /S /C "<quoted words>"`, the one program
// that runs scripts.
func command(spec Spec) (*exec.Cmd, error) {
	name := spec.Command
	ext := strings.ToLower(filepath.Ext(name))
	if ext == "" {
		name += ".exe"
		ext = ".exe"
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return nil, fmt.Errorf("command not found: %w", err)
	}
	if ext == ".exe" || ext == ".com" {
		return exec.Command(path, spec.Args...), nil
	}
	words := append([]string{path}, spec.Args...)
	for i, w := range words {
		if strings.ContainsAny(w, cmdExeReactive) || strings.ContainsFunc(w, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			return nil, fmt.Errorf("word %d (%q) holds a character cmd.exe would act on (%% or \" or a control character)", i, w)
		}
		words[i] = `"` + w + `"`
	}
	comspec := os.Getenv("ComSpec")
	if comspec == "" {
		comspec = "cmd.exe"
	}
	cmd := exec.Command(comspec)
	cmd.SysProcAttr = &syscall.SysProcAttr{
		CmdLine: syscall.EscapeArg(comspec) + ` /D /V:OFF /S /C "` + strings.Join(words, " ") + `"`,
	}
	return cmd, nil
}

// killTree ends the server and every process it started (taskkill /T).
func killTree(p *os.Process) {
	_ = exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(p.Pid)).Run()
	_ = p.Kill()
}

// reapGroup does nothing on Windows: once the server exited, taskkill can
// no longer find its tree.
func reapGroup(int) {}

// exitCode is the run's exit code.
func exitCode(ps *os.ProcessState) int { return ps.ExitCode() }
