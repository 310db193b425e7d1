//go:build !windows

package app

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestSystemOpenStartsNoShell: the opener gets the path as one argument,
// never read by a shell: a file name full of shell syntax reaches a fake
// xdg-open (open on macOS) on PATH whole, and nothing in it runs. With no
// opener installed the error says so.
func TestSystemOpenStartsNoShell(t *testing.T) {
	bin := t.TempDir()
	argv := filepath.Join(bin, "argv")
	name := "xdg-open"
	if runtime.GOOS == "darwin" {
		name = "open"
	}
	script := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > " + argv + "\n"
	if err := os.WriteFile(filepath.Join(bin, name), []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	dir := t.TempDir()
	pwned := filepath.Join(dir, "pwned")
	p := filepath.Join(dir, "a $(touch "+pwned+"); `touch "+pwned+"` 'q\" & | x.png")
	if err := systemOpen(p); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(argv)
	if err != nil || string(got) != p+"\n" {
		t.Fatalf("the opener got %q (%v), want the one argument %q", got, err, p)
	}
	if _, err := os.Stat(pwned); err == nil {
		t.Fatal("a shell ran the path")
	}
	t.Setenv("PATH", t.TempDir())
	if err := systemOpen(p); !errors.Is(err, errNoOpener) || !strings.Contains(err.Error(), name) {
		t.Errorf("no opener installed: %v", err)
	}
}
