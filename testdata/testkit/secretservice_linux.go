package testkit

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// SecretPassword unlocks the login keyring of every SecretService.
const SecretPassword = "pullcept-test-keyring"

// D-Bus names of the Secret Service and of gnome-keyring's own unlock call.
const (
	secretsName      = "org.freedesktop.secrets"
	secretsPath      = dbus.ObjectPath("/org/freedesktop/secrets")
	loginCollection  = dbus.ObjectPath("/org/freedesktop/secrets/collection/login")
	secretsInterface = "org.freedesktop.Secret.Service"
	gnomeInterface   = "org.gnome.keyring.InternalUnsupportedGuiltRiddenInterface"
)

// SecretService is a private Secret Service for one test: its own D-Bus
// session bus (dbus-daemon) and gnome-keyring-daemon, with HOME and the
// keyrings in a temporary directory, so a test never touches the keyring
// of the person running it. The test process's DBUS_SESSION_BUS_ADDRESS
// points at it (t.Setenv: such a test cannot run in parallel) and godbus's
// shared session connection is closed at start and stop, so the next
// keyring call dials this bus (or, after Stop, finds nothing).
type SecretService struct {
	Addr string // the bus address
	dir  string
	bus  *exec.Cmd
	ring *exec.Cmd
}

// StartSecretService starts one for t and stops it at t's end. unlocked:
// the login keyring is made and unlocked with SecretPassword, as a desktop
// login does; else the daemon runs with no login keyring, so every
// request needs an unlock prompt, and a headless machine has no prompter:
// the keyring refuses. Without dbus-daemon or gnome-keyring-daemon it
// fails t when CI is set (.ci/run installs them) and skips t otherwise,
// saying what to install.
func StartSecretService(t *testing.T, unlocked bool) *SecretService {
	t.Helper()
	for _, tool := range []string{"dbus-daemon", "gnome-keyring-daemon"} {
		if _, err := exec.LookPath(tool); err != nil {
			msg := fmt.Sprintf("%s is missing: apt-get install dbus-daemon gnome-keyring (.ci/run does)", tool)
			if os.Getenv("CI") != "" {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
	}
	// A short directory: a unix socket path holds at most 107 bytes.
	dir, err := os.MkdirTemp("", "pks")
	if err != nil {
		t.Fatal(err)
	}
	s := &SecretService{dir: dir}
	t.Cleanup(func() {
		s.Stop()
		_ = os.RemoveAll(dir)
	})
	if err := s.startBus(); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", s.Addr)
	t.Cleanup(s.Stop) // before the variable is restored: Stop closes the connection to s.Addr
	closeSharedBus(s.Addr)
	if err := s.startKeyring(unlocked); err != nil {
		t.Fatal(err)
	}
	Eventually(t, "gnome-keyring-daemon on the private bus", func() bool { return s.ready(unlocked) })
	return s
}

// startBus starts dbus-daemon on a socket in s.dir and reads its address.
func (s *SecretService) startBus() error {
	conf := filepath.Join(s.dir, "bus.conf")
	sock := filepath.Join(s.dir, "bus")
	err := os.WriteFile(conf, []byte(`<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:path=`+sock+`</listen>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>`), 0o600)
	if err != nil {
		return err
	}
	s.bus = exec.Command("dbus-daemon", "--config-file="+conf, "--nofork", "--nopidfile", "--print-address=1")
	out, err := s.bus.StdoutPipe()
	if err != nil {
		return err
	}
	s.bus.Stderr = nil
	if err := s.bus.Start(); err != nil {
		return fmt.Errorf("start dbus-daemon: %w", err)
	}
	line := make(chan string, 1)
	go func() { // ends with the daemon's stdout; the test's own helper goroutine
		defer func() { _ = recover() }()
		l, _ := bufio.NewReader(out).ReadString('\n')
		line <- strings.TrimSpace(l)
	}()
	select {
	case s.Addr = <-line:
	case <-time.After(Wait):
	}
	if s.Addr == "" {
		return errors.New("dbus-daemon printed no address")
	}
	return nil
}

// startKeyring starts gnome-keyring-daemon (its Secret Service only) on the
// bus, in the foreground so the test owns it.
func (s *SecretService) startKeyring(unlocked bool) error {
	args := []string{"--foreground", "--components=secrets"}
	if unlocked {
		args = append(args, "--unlock")
	}
	s.ring = exec.Command("gnome-keyring-daemon", args...)
	s.ring.Env = append(os.Environ(), "HOME="+s.dir, "XDG_DATA_HOME="+filepath.Join(s.dir, "data"),
		"XDG_RUNTIME_DIR="+s.dir, "XDG_CACHE_HOME="+filepath.Join(s.dir, "cache"),
		"XDG_CONFIG_HOME="+filepath.Join(s.dir, "config"), "DBUS_SESSION_BUS_ADDRESS="+s.Addr)
	if unlocked {
		s.ring.Stdin = strings.NewReader(SecretPassword)
	}
	if err := s.ring.Start(); err != nil {
		return fmt.Errorf("start gnome-keyring-daemon: %w", err)
	}
	return nil
}

// ready reports whether the keyring serves the bus (and, unlocked, holds
// its login collection).
func (s *SecretService) ready(unlocked bool) bool {
	conn, err := dbus.Connect(s.Addr)
	if err != nil {
		return false
	}
	defer conn.Close()
	var owned bool
	if conn.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, secretsName).Store(&owned) != nil || !owned {
		return false
	}
	if !unlocked {
		return true
	}
	v, err := conn.Object(secretsName, secretsPath).GetProperty(secretsInterface + ".Collections")
	if err != nil {
		return false
	}
	paths, _ := v.Value().([]dbus.ObjectPath)
	for _, p := range paths {
		if p == loginCollection {
			return true
		}
	}
	return false
}

// call runs one Secret Service method on a connection of its own.
func (s *SecretService) call(t *testing.T, method string, args ...any) *dbus.Call {
	t.Helper()
	conn, err := dbus.Connect(s.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	return conn.Object(secretsName, secretsPath).Call(method, 0, args...)
}

// Lock locks the login keyring: every request then needs an unlock prompt,
// which a headless machine cannot show, so the keyring refuses.
func (s *SecretService) Lock(t *testing.T) {
	t.Helper()
	if c := s.call(t, secretsInterface+".Lock", []dbus.ObjectPath{loginCollection}); c.Err != nil {
		t.Fatalf("lock the login keyring: %v", c.Err)
	}
}

// Unlock unlocks the login keyring again with SecretPassword, as a
// desktop's unlock dialog would (gnome-keyring's UnlockWithMasterPassword).
func (s *SecretService) Unlock(t *testing.T) {
	t.Helper()
	conn, err := dbus.Connect(s.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	svc := conn.Object(secretsName, secretsPath)
	var out dbus.Variant
	var session dbus.ObjectPath
	if err := svc.Call(secretsInterface+".OpenSession", 0, "plain", dbus.MakeVariant("")).Store(&out, &session); err != nil {
		t.Fatalf("open a session: %v", err)
	}
	secret := struct {
		Session     dbus.ObjectPath
		Parameters  []byte
		Value       []byte
		ContentType string
	}{session, []byte{}, []byte(SecretPassword), "text/plain"}
	if c := svc.Call(gnomeInterface+".UnlockWithMasterPassword", 0, loginCollection, secret); c.Err != nil {
		t.Fatalf("unlock the login keyring: %v", c.Err)
	}
}

// Stop ends the keyring and the bus (each waited for): afterwards nothing
// answers on Addr. Safe to call twice.
func (s *SecretService) Stop() {
	for _, c := range []*exec.Cmd{s.ring, s.bus} {
		if c != nil && c.Process != nil && c.ProcessState == nil {
			_ = c.Process.Kill()
			_ = c.Wait()
		}
	}
	closeSharedBus(s.Addr)
}

// closeSharedBus closes godbus's shared session connection, which every
// go-keyring call uses, so the next call dials DBUS_SESSION_BUS_ADDRESS
// anew. Only while that variable is addr: asking for the shared
// connection otherwise could dial (or autolaunch) the person's own bus.
func closeSharedBus(addr string) {
	if os.Getenv("DBUS_SESSION_BUS_ADDRESS") != addr {
		return
	}
	if conn, err := dbus.SessionBus(); err == nil {
		_ = conn.Close()
	}
}
