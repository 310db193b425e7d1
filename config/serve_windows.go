package config

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/windows"
)

// PipePrefix starts every server's named pipe: a pipe of this machine's
// (\\.\pipe\), never another host's (\\HOST\pipe\).
const PipePrefix = `\\.\pipe\pullcept-`

// socketPath names the data directory's named pipe: 16 hex digits of the
// SHA-256 of the user's SID and the absolute data directory, case folded
// (Windows paths are case-insensitive: C:\Users\Me and c:\users\me are
// one data directory, one server). Another user's server for the same
// directory has another name; the pipe's ACL admits only this user
// (app/serve_windows.go), which is the check a socket directory's mode is
// on Unix. No directory is made.
func socketPath(abs string) (string, error) {
	sid, err := UserSID()
	if err != nil {
		return "", err
	}
	return pipeName(sid, abs), nil
}

// pipeName is the pipe of the user with SID sid for the absolute data
// directory abs.
func pipeName(sid, abs string) string {
	sum := sha256.Sum256([]byte(sid + strings.ToLower(filepath.Clean(abs))))
	return PipePrefix + hex.EncodeToString(sum[:8])
}

// UserSID is this process's user as a SID string (S-1-5-21-…): the one
// account a server's pipe admits.
func UserSID() (string, error) {
	tu, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return "", fmt.Errorf("the user's SID: %w", err)
	}
	return tu.User.Sid.String(), nil
}

// checkPrivateDir: on Windows a server listens on a named pipe whose ACL
// admits only the user (its directory is the pipe namespace, not a
// folder with a mode). A client takes the pipe server.json names only in
// this machine's pipe namespace: a path elsewhere — a folder, another
// host's \\HOST\pipe\ — is refused (ErrSocketDirUnsafe).
func checkPrivateDir(dir string) error {
	if !strings.EqualFold(strings.TrimRight(dir, `\`), strings.TrimSuffix(PipePrefix, `\pullcept-`)) {
		return fmt.Errorf("%w: %s is not this machine's pipe namespace", ErrSocketDirUnsafe, dir)
	}
	return nil
}

// RoomSocketDir makes a fresh directory for one run's room
// (room.ServerOptions.SocketDir): on Windows the room listens on a named
// pipe, and the directory only says that it should; the caller removes it.
func RoomSocketDir() (string, error) { return os.MkdirTemp("", "pullcept-room-") }
