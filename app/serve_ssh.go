package app

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"time"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"

	"github.com/pullcept/pullcept/config"
)

// AuthorizedKeysFile is the embedded listener's default list of the keys
// it lets in (`pullcept server --ssh ADDR`), in the data directory, in
// OpenSSH's authorized_keys format.
const AuthorizedKeysFile = "authorized_keys"

// maxSSHConns bounds the embedded listener's open connections (signed in
// or not): a stranger's connections cannot grow the server without bound;
// maxConnsPerIP keeps one address from taking them all (the review held
// 300 silent connections and kept the key's holder out).
const (
	maxSSHConns   = 32
	maxConnsPerIP = 4
)

var refusedKey = &ctxKey{"refused"}

// ErrNoAuthorizedKeys: the embedded listener was asked for with no key to
// let in; it would accept nobody, so it does not start.
var ErrNoAuthorizedKeys = errors.New("no authorized key for the SSH listener")

// sshAddr is where the embedded listener listens: a bare port (":2222",
// "2222") is loopback's; an address with a host is taken as given.
func sshAddr(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		host, port = "", addr
	}
	if port == "" {
		return "", fmt.Errorf("--ssh %q: want PORT or HOST:PORT", addr)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), nil
}

// maxAuthorizedKeys bounds a read of an authorized_keys file (a few
// hundred bytes a key).
const maxAuthorizedKeys = 1 << 20

// readAuthorizedKeys parses an authorized_keys file. Any line it cannot
// read refuses the whole file (a half-read list is not what its owner
// meant); comments and blank lines are skipped. Options (from=, command=)
// are not honoured, so a line carrying any is refused too.
func readAuthorizedKeys(path string) ([][]byte, error) {
	b, err := config.ReadRegularFile(path, maxAuthorizedKeys, true)
	if err != nil {
		return nil, err
	}
	var keys [][]byte
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		k, _, opts, _, err := gossh.ParseAuthorizedKey(line)
		if err != nil {
			return nil, fmt.Errorf("%s line %d: %w", filepath.Base(path), n, err)
		}
		if len(opts) > 0 {
			return nil, fmt.Errorf("%s line %d: options (%s) are not supported", filepath.Base(path), n, opts[0])
		}
		keys = append(keys, k.Marshal())
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return keys, nil
}

// listenSSH starts the opt-in embedded SSH listener for hosts without an
// sshd (docs/serve.md "Remote"): public keys from keysPath only (read again
// at every attempt, so a removed key stops working at once), no password,
// no keyboard questions, no forwarding (charm.land/ssh opens only session
// channels), a terminal required for every session.
func (s *server) listenSSH(addr, keysPath string, host gossh.Signer) (*ssh.Server, net.Listener, error) {
	addr, err := sshAddr(addr)
	if err != nil {
		return nil, nil, err
	}
	keys, err := readAuthorizedKeys(keysPath)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil, fmt.Errorf("%w: %s does not exist; put the public keys allowed in, one a line", ErrNoAuthorizedKeys, keysPath)
		}
		return nil, nil, fmt.Errorf("%w: %v", ErrNoAuthorizedKeys, err)
	}
	if len(keys) == 0 {
		return nil, nil, fmt.Errorf("%w: %s lists none", ErrNoAuthorizedKeys, keysPath)
	}
	srv := &ssh.Server{
		Handler: func(sess ssh.Session) {
			if _, _, ok := sess.Pty(); !ok {
				fmt.Fprintln(sess.Stderr(), "pullcept: a terminal is needed (ssh -t)")
				_ = sess.Exit(1)
				return
			}
			s.handle(sess)
		},
		PublicKeyHandler: func(ctx ssh.Context, key ssh.PublicKey) bool {
			keys, err := readAuthorizedKeys(keysPath)
			if err != nil {
				s.logger.Warn("ssh listener: authorized keys unreadable; nobody gets in", "err", err)
				return false
			}
			want := key.Marshal()
			for _, k := range keys {
				if bytes.Equal(k, want) {
					return true
				}
			}
			// One line a connection, however many keys it offers: strangers
			// must not fill the log (the review: 1 MB/s from 8 clients).
			if ctx.Value(refusedKey) == nil {
				ctx.SetValue(refusedKey, true)
				s.logger.Info("ssh listener: unknown key refused", "remote", ctx.RemoteAddr().String(),
					"key", gossh.FingerprintSHA256(key))
			}
			return false
		},
		HandshakeTimeout: 10 * time.Second,
		Version:          "Pullcept",
		ChannelHandlers:  map[string]ssh.ChannelHandler{"session": limitedSessions},
		ServerConfigCallback: func(ssh.Context) *gossh.ServerConfig {
			return &gossh.ServerConfig{MaxAuthTries: 3}
		},
		ConnCallback: s.vetPeer,
	}
	srv.AddHostKey(host)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, fmt.Errorf("ssh listener: %w", err)
	}
	return srv, newLimitListener(ln, maxSSHConns, maxConnsPerIP), nil
}

// serveSSH runs srv on ln until it is closed.
func (s *server) serveSSH(srv *ssh.Server, ln net.Listener) {
	defer func() {
		if r := recover(); r != nil {
			s.logger.Error("ssh listener panicked", "panic", r, "stack", string(debug.Stack()))
		}
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, ssh.ErrServerClosed) {
		s.logger.Warn("ssh listener ended", "err", err)
	}
}

// limitListener holds at most cap(slots) connections open (more wait in
// the kernel's backlog) and, when perIP > 0, at most perIP from one
// address (more are closed at once).
type limitListener struct {
	net.Listener
	slots  chan struct{}
	closed chan struct{}
	once   sync.Once
	perIP  int

	mu   sync.Mutex // leaf
	byIP map[string]int
}

func newLimitListener(ln net.Listener, n, perIP int) *limitListener {
	return &limitListener{Listener: ln, slots: make(chan struct{}, n), closed: make(chan struct{}), perIP: perIP,
		byIP: map[string]int{}}
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		select {
		case l.slots <- struct{}{}:
		case <-l.closed:
			return nil, net.ErrClosed
		}
		c, err := l.Listener.Accept()
		if err != nil {
			<-l.slots
			return nil, err
		}
		ip := remoteIP(c)
		if !l.take(ip) {
			_ = c.Close()
			<-l.slots
			continue
		}
		sc := &slotConn{Conn: c}
		sc.free = func() { l.give(ip); <-l.slots }
		return sc, nil
	}
}

// take counts a connection from ip; false when ip has perIP already.
func (l *limitListener) take(ip string) bool {
	if l.perIP <= 0 || ip == "" {
		return true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.byIP[ip] >= l.perIP {
		return false
	}
	l.byIP[ip]++
	return true
}

func (l *limitListener) give(ip string) {
	if l.perIP <= 0 || ip == "" {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.byIP[ip]--; l.byIP[ip] <= 0 {
		delete(l.byIP, ip)
	}
}

// remoteIP is c's peer address without its port ("" for a Unix socket).
func remoteIP(c net.Conn) string {
	a, ok := c.RemoteAddr().(*net.TCPAddr)
	if !ok {
		return ""
	}
	return a.IP.String()
}

func (l *limitListener) Close() error {
	l.once.Do(func() { close(l.closed) })
	return l.Listener.Close()
}

// slotConn gives its slot back once, however often it is closed.
type slotConn struct {
	net.Conn
	free func()
	once sync.Once
}

func (c *slotConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.free)
	return err
}
