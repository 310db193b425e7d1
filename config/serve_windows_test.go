//go:build windows

package config

import (
	"errors"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSocketPathIsTheUsersPipe: a data directory's server listens on
// \\.\pipe\pullcept-<16 hex>, the hash of the user's SID and the data
// directory (case folded): one name per user and directory, the same for
// the server and every client.
func TestSocketPathIsTheUsersPipe(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sid, err := UserSID()
	if err != nil || !strings.HasPrefix(sid, "S-1-") {
		t.Fatalf("UserSID = %q, %v", sid, err)
	}
	p, err := SocketPath(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^\\\\\.\\pipe\\pullcept-[0-9a-f]{16}$`).MatchString(p) {
		t.Fatalf("SocketPath = %q, want \\\\.\\pipe\\pullcept- and 16 hex digits", p)
	}
	if again, _ := SocketPath(dir); again != p {
		t.Errorf("SocketPath changed: %q then %q", p, again)
	}
	if upper, _ := SocketPath(strings.ToUpper(dir)); upper != p {
		t.Errorf("the same directory in capitals has another pipe: %q, %q", upper, p)
	}
	if other, _ := SocketPath(filepath.Join(dir, "other")); other == p {
		t.Errorf("another data directory has the same pipe %q", p)
	}
	if pipeName("S-1-5-21-1-2-3-1001", dir) == pipeName("S-1-5-21-1-2-3-1002", dir) {
		t.Error("two users share a data directory's pipe name")
	}
	if pipeName(sid, dir) != p {
		t.Errorf("pipeName(this user) = %q, SocketPath = %q", pipeName(sid, dir), p)
	}
}

// TestCheckSocketDirTakesOnlyThisMachinesPipes: a client takes the pipe
// server.json names only in \\.\pipe\ — not a folder, not another
// machine's pipes.
func TestCheckSocketDirTakesOnlyThisMachinesPipes(t *testing.T) {
	t.Parallel()
	p, err := SocketPath(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckSocketDir(filepath.Dir(p)); err != nil {
		t.Errorf("CheckSocketDir(%q) = %v", filepath.Dir(p), err)
	}
	for _, d := range []string{`C:\Temp`, `\\host\pipe`, `\\host\pipe\`, `\\.\pipe\sub`, t.TempDir()} {
		if err := CheckSocketDir(d); !errors.Is(err, ErrSocketDirUnsafe) {
			t.Errorf("CheckSocketDir(%q) = %v, want ErrSocketDirUnsafe", d, err)
		}
	}
}
