package attachclient

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/gofrs/flock"
	"golang.org/x/crypto/ssh"

	"github.com/pullcept/pullcept/config"
)

// ReadyFDFlag names the server's readiness pipe: the server writes "ok"
// (or why it did not start) there once its socket listens.
const ReadyFDFlag = "--ready-fd"

// ErrNoDetachedStart: a server started from here would end with this
// terminal, so none is started. On Windows: this process is in a job that
// forbids its children to leave it (Windows Terminal runs each tab's
// programs in one and ends them with the tab). main then runs the single
// process and says why (docs/serve.md "Windows").
var ErrNoDetachedStart = errors.New("this terminal keeps its programs in a job they may not leave " +
	"(Windows Terminal does), so a server started from it would end with it")

// startWait bounds how long a start waits for the server to listen (it
// opens the data directory first: logs, accounts, topics).
const startWait = 60 * time.Second

func dataDir(d string) (string, error) {
	if d != "" {
		return filepath.Abs(d)
	}
	return config.DataDir()
}

// startAndDial starts dataDir's server and signs in. Starts are ordered
// by start.lock: the one that holds it dials again first (another start
// may have won), and only then starts a server — which replaces a stale
// socket itself, under the data directory's lock.
func startAndDial(dir string, o Options) (*ssh.Client, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("data dir: %w", err)
	}
	lk := flock.New(filepath.Join(dir, config.StartLockFile))
	ctx, cancel := context.WithTimeout(context.Background(), startWait)
	defer cancel()
	ok, err := lk.TryLockContext(ctx, 50*time.Millisecond)
	if err != nil || !ok {
		return nil, fmt.Errorf("wait for another start of the server: %v", err)
	}
	defer func() { _ = lk.Unlock() }()
	if c, err := Dial(dir); err == nil || !errors.Is(err, ErrNoServer) {
		return c, err
	}
	if err := spawn(dir, o); err != nil {
		return nil, err
	}
	return Dial(dir)
}

// spawn runs `pullcept server` for dir detached from this terminal (it
// must outlive it: detach), its output to serve.log, and waits for it to
// say it listens on the readiness pipe.
func spawn(dir string, o Options) error {
	exe := o.Exe
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return err
		}
	}
	// Never through a planted link or FIFO (docs/design.md §16).
	logf, err := config.OpenRegular(logPath(dir), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("server log: %w", err)
	}
	defer logf.Close()
	pr, pw, err := os.Pipe()
	if err != nil {
		return err
	}
	defer pr.Close()
	cmd := exec.Command(exe)
	cmd.Stdout, cmd.Stderr = logf, logf
	fd, err := detach(cmd, pw)
	if err != nil {
		_ = pw.Close()
		return err
	}
	cmd.Args = append([]string{exe, "server", "--data", dir, ReadyFDFlag, fd}, o.ServerArgs...)
	err = cmd.Start()
	_ = pw.Close()
	if err != nil {
		return startFailed(cmd, err)
	}
	go func() { _ = cmd.Wait() }() // reap it should it end while we wait
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(pr).ReadString('\n')
		line <- strings.TrimSpace(s)
	}()
	select {
	case l := <-line:
		if l == "ok" {
			return nil
		}
		if l == "" {
			l = "it ended without a word; see " + logPath(dir)
		}
		return fmt.Errorf("the server did not start: %s", l)
	case <-time.After(startWait):
		return fmt.Errorf("the server did not start within %s; see %s", startWait, logPath(dir))
	}
}
