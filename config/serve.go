package config

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"golang.org/x/crypto/ssh"
)

// The files a data directory's server keeps (docs/serve.md): both keys are
// the server's and its local client's alone — 0600 in the 0700 data
// directory, like the room token they never contain.
const (
	// HostKeyFile is the server's SSH host key; a client pins its public
	// half (a wrong host key is refused).
	HostKeyFile = "serve_host_ed25519"
	// ClientKeyFile is the key `pullcept attach` signs in with; the
	// server's socket accepts no other.
	ClientKeyFile = "serve_client_ed25519"
	// ServerInfoFile says which server runs (pid, version, socket, host
	// key fingerprint) — never the room token.
	ServerInfoFile = "server.json"
	// ServeLogFile takes the server's stderr (a UI's caught panic).
	ServeLogFile = "serve.log"
	// StartLockFile orders starts: the one that holds it may replace a
	// stale socket and start the server.
	StartLockFile = "start.lock"
)

// ServerInfo is server.json: which server runs for a data directory, so
// a person and a client find it. Never the room's token.
type ServerInfo struct {
	PID      int       `json:"pid"`
	Version  string    `json:"version"`
	Socket   string    `json:"socket"`
	HostKey  string    `json:"host_key"` // SHA256 fingerprint
	Started  time.Time `json:"started"`
	DataDir  string    `json:"data_dir"`
	Protocol string    `json:"protocol"`
	SSH      string    `json:"ssh,omitempty"` // the embedded listener's address
}

// ReadServerInfo reads dataDir's server.json (os.ErrNotExist: none).
func ReadServerInfo(dataDir string) (ServerInfo, error) {
	var in ServerInfo
	// Never through a link, never waiting on a FIFO (§16 "Planted files").
	f, err := OpenRegular(filepath.Join(dataDir, ServerInfoFile), os.O_RDONLY, 0)
	if err != nil {
		return in, err
	}
	defer f.Close()
	// A few hundred bytes when the server wrote it: anything past 64 KiB
	// is not ours (a 300 MB file cost every client 600 MB).
	b, err := io.ReadAll(io.LimitReader(f, 64<<10))
	if err != nil {
		return in, err
	}
	if err := json.Unmarshal(b, &in); err != nil {
		return in, fmt.Errorf("%s: %w", ServerInfoFile, err)
	}
	return in, nil
}

// CheckSocketDir refuses a socket directory that is not this user's
// alone (ErrSocketDirUnsafe): a client checks the one server.json names
// before it connects there. On Windows, where the pipe's ACL is the
// check, it refuses anything but this machine's pipe namespace.
func CheckSocketDir(dir string) error { return checkPrivateDir(dir) }

// ErrSocketDirUnsafe: the directory the server's socket would live in is
// not this user's alone (owner or mode); nothing is created in it.
var ErrSocketDirUnsafe = errors.New("the socket directory is not yours alone")

// SocketPath is where dataDir's server listens, one per data directory.
// On Linux and macOS it is a Unix socket in a 0700 directory of this
// user's ($XDG_RUNTIME_DIR/pullcept, else $TMPDIR/pullcept-UID), named by
// the data directory's hash so the path stays short (macOS allows 104
// bytes); the directory is created when missing and refused
// (ErrSocketDirUnsafe) unless it is this user's with no group or other
// bits — a socket another user could reach or replace is never used. On
// Windows it is a named pipe, \\.\pipe\pullcept-<hash of the user's SID
// and the data directory>, whose ACL admits only that user
// (serve_windows.go).
func SocketPath(dataDir string) (string, error) {
	abs, err := filepath.Abs(dataDir)
	if err != nil {
		return "", err
	}
	return socketPath(abs)
}

// ServeKeys returns the server's host key and its client's key for
// dataDir, creating either when missing (ed25519, 0600, written whole or
// not at all).
func ServeKeys(dataDir string) (host, client ssh.Signer, err error) {
	if host, err = loadOrCreateKey(filepath.Join(dataDir, HostKeyFile)); err != nil {
		return nil, nil, err
	}
	if client, err = loadOrCreateKey(filepath.Join(dataDir, ClientKeyFile)); err != nil {
		return nil, nil, err
	}
	return host, client, nil
}

// LoadServeKeys reads both keys without creating them: a client attaches
// only to a server that made them.
func LoadServeKeys(dataDir string) (host, client ssh.Signer, err error) {
	if host, err = loadKey(filepath.Join(dataDir, HostKeyFile)); err != nil {
		return nil, nil, err
	}
	if client, err = loadKey(filepath.Join(dataDir, ClientKeyFile)); err != nil {
		return nil, nil, err
	}
	return host, client, nil
}

func loadOrCreateKey(path string) (ssh.Signer, error) {
	s, err := loadKey(path)
	if err == nil || !errors.Is(err, os.ErrNotExist) {
		return s, err
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	block, err := ssh.MarshalPrivateKey(priv, "pullcept")
	if err != nil {
		return nil, err
	}
	if err := WriteFileAtomic(path, pem.EncodeToMemory(block), 0o600); err != nil {
		return nil, fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	return loadKey(path)
}

// maxKeyBytes bounds a read of a served-mode key: an ed25519 key in PEM
// is some 400 bytes, an RSA one a few KiB.
const maxKeyBytes = 64 << 10

func loadKey(path string) (ssh.Signer, error) {
	if err := checkPrivateFile(path); err != nil {
		return nil, err
	}
	// A FIFO (0600 passes the check above) or a huge file planted there
	// is refused at once (docs/design.md §16 "Planted files").
	b, err := ReadRegularFile(path, maxKeyBytes, true)
	if err != nil {
		return nil, err
	}
	s, err := ssh.ParsePrivateKey(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	return s, nil
}

// checkPrivateFile refuses a key file others may read (a copied or
// restored key keeps its mode): an SSH client refuses such keys too.
func checkPrivateFile(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("%s: mode %#o lets others read it; run chmod 600 %s", filepath.Base(path), fi.Mode().Perm(), path)
	}
	return nil
}
