package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"syscall"
	"text/tabwriter"
	"time"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"

	"github.com/pullcept/pullcept/app/notify"
	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats"
	"github.com/pullcept/pullcept/tui"
)

// ServeOptions are `pullcept server`'s settings (docs/serve.md).
type ServeOptions struct {
	// ExitEmpty ends the server once no client has been attached and no
	// seat has run for this long (tmux's exit-empty); 0 never.
	ExitEmpty time.Duration
	// Ready is called once the socket listens (the starter's readiness
	// pipe); err is why the server did not start.
	Ready func(err error)
	// SSH opts in to the embedded SSH listener on this address (a bare
	// port is loopback's), for hosts without an sshd; AuthorizedKeys is
	// its key list ("" the data directory's authorized_keys). It starts
	// only with at least one key (serve_ssh.go).
	SSH            string
	AuthorizedKeys string
}

// DefaultExitEmpty is how long an empty server waits before it ends: long
// enough for the client that started it to attach.
const DefaultExitEmpty = 10 * time.Second

// attachClient is one attached terminal, for `pullcept ls`.
type attachClient struct {
	id      int
	term    string
	cols    int
	rows    int
	since   time.Time
	running bool // its UI runs (false: an exec such as ls)
	peer    peerInfo
	backend *Backend // its UI's, once made (for notices)
}

// server is the running `pullcept server`: the App and the SSH server on
// its socket, one UI per attached session (docs/serve.md).
type server struct {
	a       *App
	sock    string
	logger  *slog.Logger
	started time.Time
	version string
	sshAddr string         // the embedded listener's, "" when off
	closers []func() error // the embedded listener's server

	stop     chan struct{} // closed by the first stop request
	stopOnce sync.Once
	sessions sync.WaitGroup

	mu      sync.Mutex // leaf: clients, nextID, idleAt
	clients map[int]*attachClient
	nextID  int
	idleAt  time.Time // since when nothing is attached and no seat runs
}

// Serve runs `pullcept server` for dataDir until ctx ends, a client asks
// for everything to stop (`pullcept kill-server`, or "stop everything" in
// a UI), SIGTERM/SIGINT arrive, or it stays empty for o.ExitEmpty. It then
// ends every UI, stops the seats in App.Close's order and removes its
// socket. SIGHUP is caught and dropped: the server has no terminal to
// lose (and an ignored SIGHUP would pass to the seats).
func Serve(ctx context.Context, dataDir, version string, o ServeOptions) (err error) {
	ready := o.Ready
	if ready == nil {
		ready = func(error) {}
	}
	defer func() {
		if err != nil {
			ready(err)
		}
	}()
	if err := prepareProcess(); err != nil {
		return err
	}
	ctx, stopSignals := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stopSignals()
	a, err := openServed(dataDir, version)
	if err != nil {
		return err
	}
	// The end's order: every UI, then the seats (App.Close), and only then
	// the socket and server.json go — "no server" means the seats stopped.
	closeApp := sync.OnceFunc(a.Close)
	defer closeApp()
	s := &server{a: a, logger: a.logger.With("part", "serve"), started: time.Now(), version: version,
		stop: make(chan struct{}), clients: map[int]*attachClient{}, idleAt: time.Now()}
	host, client, err := config.ServeKeys(a.dataDir)
	if err != nil {
		return fmt.Errorf("server keys: %w", err)
	}
	if s.sock, err = config.SocketPath(a.dataDir); err != nil {
		return err
	}
	ln, err := listenSocket(s.sock)
	if err != nil {
		return err
	}
	ln = newLimitListener(ln, maxSocketConns, 0)
	defer os.Remove(s.sock)
	if err := s.startSSH(o, host); err != nil {
		_ = ln.Close()
		return err
	}
	infoPath := filepath.Join(a.dataDir, config.ServerInfoFile)
	if err := s.writeInfo(infoPath, host); err != nil {
		_ = ln.Close()
		return err
	}
	defer os.Remove(infoPath)
	srv := s.sshServer(host, client)
	served := s.serveSocket(srv, ln)
	s.logger.Info("server listening", "socket", s.sock, "pid", os.Getpid())
	ready(nil)
	var why string
	select {
	case <-ctx.Done():
		why = "signal"
	case <-s.stop:
		why = "stop requested"
	case <-s.emptyFor(o.ExitEmpty):
		why = "empty"
	case err := <-served:
		why = fmt.Sprintf("listener ended: %v", err)
	}
	s.logger.Info("server stopping", "why", why)
	// The UIs end first (their sessions close, each program quits and
	// its Backend closes), then App.Close stops the seats in its order.
	// Every UI quits, whichever listener it came by, restoring its
	// client's terminal and sending its exit status; only then do the
	// connections close (closing them first left terminals in the
	// alternate screen with the mouse on).
	s.requestStop()
	s.waitSessions(uiQuitWait + time.Second)
	_ = srv.Close()
	for _, c := range s.closers {
		_ = c()
	}
	s.sessions.Wait()
	closeApp()
	return nil
}

// startSSH starts the opt-in embedded listener (o.SSH, serve_ssh.go);
// the end closes it with the socket's server.
func (s *server) startSSH(o ServeOptions, host gossh.Signer) error {
	if o.SSH == "" {
		return nil
	}
	keys := o.AuthorizedKeys
	if keys == "" {
		keys = filepath.Join(s.a.dataDir, AuthorizedKeysFile)
	}
	tcp, tln, err := s.listenSSH(o.SSH, keys, host)
	if err != nil {
		return err
	}
	s.sshAddr = tln.Addr().String()
	go s.serveSSH(tcp, tln)
	s.closers = append(s.closers, tcp.Close)
	s.logger.Info("ssh listener", "addr", s.sshAddr, "authorized_keys", keys)
	return nil
}

// serveSocket runs the socket's SSH server; the channel says why it ended.
func (s *server) serveSocket(srv *ssh.Server, ln net.Listener) <-chan error {
	served := make(chan error, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				s.logger.Error("ssh server panicked", "panic", r, "stack", string(debug.Stack()))
				served <- fmt.Errorf("ssh server: panic: %v", r)
			}
		}()
		served <- srv.Serve(ln)
	}()
	return served
}

// uiQuitWait bounds how long a stopping server waits for its UIs to quit
// on their own before it cuts them off.
const uiQuitWait = 5 * time.Second

// waitSessions waits for the session handlers to end, at most d.
func (s *server) waitSessions(d time.Duration) {
	done := make(chan struct{})
	go func() { s.sessions.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
	}
}

// openServed opens the App for a server. The seats' environment is the
// server's as it started (tmux's global environment): a copy, so nothing
// set in this process later — let alone a client's variables — can reach
// a seat's launch.
func openServed(dataDir, version string) (*App, error) {
	env := os.Environ()
	return openApp(dataDir, version, openOptions{environ: func() []string { return slices.Clone(env) }})
}

// prepareProcess readies this process to be a server: SIGHUP caught and
// dropped (not signal.Ignore: the seats would inherit an ignored SIGHUP
// and outlive their PTY's hangup), its memory closed to the seats.
func prepareProcess() error {
	holdHangup()
	if err := hardenServer(); err != nil {
		return fmt.Errorf("server: %w", err)
	}
	return nil
}

// requestStop ends the server: every UI, then every seat. Idempotent.
func (s *server) requestStop() { s.stopOnce.Do(func() { close(s.stop) }) }

// emptyFor returns a channel closed once nothing is attached and no seat
// has been live for d (checked every second); nil for d == 0: never.
func (s *server) emptyFor(d time.Duration) <-chan struct{} {
	if d <= 0 {
		return nil
	}
	out := make(chan struct{})
	go func() {
		defer func() {
			if r := recover(); r != nil {
				s.logger.Error("exit-empty check panicked", "panic", r)
			}
		}()
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-s.stop:
				return
			case <-t.C:
			}
			busy := s.liveSeats() > 0
			s.mu.Lock()
			if busy || len(s.clients) > 0 {
				s.idleAt = time.Now()
			}
			idle := time.Since(s.idleAt)
			s.mu.Unlock()
			if idle >= d {
				close(out)
				return
			}
		}
	}()
	return out
}

func (s *server) liveSeats() int {
	n := 0
	for _, si := range s.a.seats.Seats("") {
		if si.State != seats.StateExited {
			n++
		}
	}
	return n
}

// writeInfo writes server.json: pid, version, socket and the host key's
// fingerprint, so a person (and `pullcept ls`) can tell which server runs.
func (s *server) writeInfo(path string, host gossh.Signer) error {
	b, err := json.MarshalIndent(config.ServerInfo{PID: os.Getpid(), Version: s.version, Socket: s.sock,
		HostKey: gossh.FingerprintSHA256(host.PublicKey()), Started: s.started, DataDir: s.a.dataDir,
		Protocol: "ssh", SSH: s.sshAddr}, "", "  ")
	if err != nil {
		return err
	}
	// A link planted there is replaced, never written through (§16).
	return (config.AtomicFile{NoFollow: true}).Write(path, append(b, '\n'), 0o600)
}

// sshServer is the SSH server on the socket: public-key auth with the
// client key of this data directory only (no password, no keyboard
// questions, no forwarding: charm.land/ssh offers only "session" channels
// unless told otherwise), one handler per session.
func (s *server) sshServer(host, client gossh.Signer) *ssh.Server {
	want := client.PublicKey().Marshal()
	srv := &ssh.Server{
		Handler: s.handle,
		// With no auth handler at all charm.land/ssh lets everyone in
		// (NoClientAuth): this one must stay.
		PublicKeyHandler: func(_ ssh.Context, key ssh.PublicKey) bool {
			return slices.Equal(key.Marshal(), want)
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
	return srv
}

// vetPeer refuses a connection from a process that descends from this
// server (lookPeer) or is one of a seat's (Manager.OwnsProcess: on Windows
// its Job object, which a process that left its parent stays in), and
// tells every UI; any other peer is remembered in the connection's context
// for the notice and ls.
func (s *server) vetPeer(ctx ssh.Context, c net.Conn) net.Conn {
	p, fromSeat := lookPeer(c)
	fromSeat = fromSeat || s.a.seats.OwnsProcess(p.pid)
	if fromSeat {
		s.logger.Warn("a seat's process tried to attach; refused", "peer", p.String())
		s.tellUIs(0, tui.AttachRefused{Peer: p.String()})
		return nil
	}
	ctx.SetValue(peerKey, p)
	return c
}

// tellUIs hands ev to every attached UI but client except's (0: all).
func (s *server) tellUIs(except int, ev tui.Event) {
	s.mu.Lock()
	var bs []*Backend
	for _, c := range s.clients {
		if c.backend != nil && c.id != except {
			bs = append(bs, c.backend)
		}
	}
	s.mu.Unlock()
	for _, b := range bs {
		b.notes.Publish(ev)
	}
}

// handle serves one SSH session: an attached terminal (no command), or
// one of the exec commands `ls`, `kill-server`, `version`.
func (s *server) handle(sess ssh.Session) {
	s.sessions.Add(1)
	defer s.sessions.Done()
	defer func() {
		if r := recover(); r != nil {
			s.logger.Error("session panicked", "panic", r, "stack", string(debug.Stack()))
			_ = sess.Exit(1)
		}
	}()
	cmd := sess.Command()
	if len(cmd) == 0 {
		_ = sess.Exit(s.attach(sess))
		return
	}
	switch cmd[0] {
	case "ls":
		s.list(sess)
		_ = sess.Exit(0)
	case "kill-server":
		fmt.Fprintln(sess, "pullcept: stopping the seats, then the server")
		// The answer first, and the stop once the client hung up (at most
		// a second later): a server quick to stop cut the link before the
		// client had read its exit status (broken pipe). The client then
		// waits for the server's process to end.
		_ = sess.Exit(0)
		go func() {
			select {
			case <-sess.Context().Done():
			case <-time.After(time.Second):
			}
			s.requestStop()
		}()
	case "version":
		fmt.Fprintln(sess, s.version)
		_ = sess.Exit(0)
	default:
		fmt.Fprintf(sess.Stderr(), "pullcept server: unknown command %q\n", cmd[0])
		_ = sess.Exit(2)
	}
}

// clientEnv is what of an attached client's environment its UI reads:
// the terminal's type and colours, the locale and the time zone; which
// terminal it is and whether it is inside tmux, to ring it (tui
// chooseRing, docs/notifications.md); whether it is an ssh session, to
// leave this machine's desktop alone (notify.Remote). Nothing else is
// kept, and none of it reaches a seat (seats run with the server's
// environment).
var clientEnv = []string{"TERM", "COLORTERM", "NO_COLOR", "CLICOLOR_FORCE", "TERM_PROGRAM", "WT_SESSION",
	"LANG", "LC_ALL", "LC_MESSAGES", "LC_CTYPE", "TZ", config.EnvLanguage,
	"TMUX", "LC_TERMINAL", "KITTY_WINDOW_ID", "WEZTERM_PANE", "GHOSTTY_RESOURCES_DIR", "KONSOLE_VERSION", "VTE_VERSION",
	"SSH_CONNECTION", "SSH_TTY"}

// clientRemote: an attached UI's human is at another machine when the
// session came over the --ssh listener or the client's own terminal is
// an ssh session (env: the client's variables as kept).
func clientRemote(peer peerInfo, env []string) bool {
	return peer.remote != "" || notify.Remote(func(k string) string { return lastEnv(env, k) })
}

// lastEnv is the last value of key in env ("" when none).
func lastEnv(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return v
}

// maxEnvValue caps one client variable's value.
const maxEnvValue = 256

// filterEnv keeps clientEnv's variables, each value cut at maxEnvValue.
func filterEnv(env []string) []string {
	var out []string
	for _, kv := range env {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || !slices.Contains(clientEnv, k) {
			continue
		}
		if len(v) > maxEnvValue {
			continue
		}
		out = append(out, k+"="+v)
	}
	return out
}

// attach runs one UI on the session's terminal until its human detaches
// or stops everything, or the session ends; it returns the exit status.
func (s *server) attach(sess ssh.Session) int {
	pty, windows, ok := sess.Pty()
	if !ok {
		fmt.Fprintln(sess.Stderr(), "pullcept: attaching needs a terminal (ssh -t)")
		return 1
	}
	term := cleanTerm(pty.Term)
	peer, _ := sess.Context().Value(peerKey).(peerInfo)
	c, ok := s.addClient(term, pty.Window.Width, pty.Window.Height, peer)
	if !ok {
		fmt.Fprintf(sess.Stderr(), "pullcept: %d terminals are attached already, the most one server shows\n", maxAttachedUIs)
		return 1
	}
	defer s.dropClient(c)
	ctx, cancel := context.WithCancel(sess.Context())
	defer cancel()
	resize := s.watchClient(ctx, cancel, c, windows)
	opts, err := s.uiOptions(sess)
	if err != nil {
		fmt.Fprintf(sess.Stderr(), "pullcept: %v\n", err)
		return 1
	}
	env := append(filterEnv(sess.Environ()), "TERM="+term)
	b := NewBackend(s.a)
	defer b.Close()
	b.remote = clientRemote(peer, env)
	s.mu.Lock()
	c.backend = b
	s.mu.Unlock()
	// Every other UI is told, so no terminal attaches unseen.
	s.tellUIs(c.id, tui.TerminalAttached{Client: c.id, Peer: peer.String()})
	err = tui.RunOn(ctx, b, opts, tui.Terminal{In: sess, Out: uiOutput(sess), Width: pty.Window.Width, Height: pty.Window.Height,
		Resize: resize, Env: env, Quit: s.stop})
	if errors.Is(err, tui.ErrTerminalSize) {
		fmt.Fprintf(sess.Stderr(), "pullcept: a %d×%d terminal is beyond what the UI draws (4096 a side, 1 048 576 cells)\n", pty.Window.Width, pty.Window.Height)
		return 1
	}
	if err != nil {
		s.logger.Warn("attached UI ended with an error", "client", c.id, "err", err)
		return 1
	}
	return 0
}

// watchClient starts a session's two helpers: one ends a UI that did not
// quit within uiQuitWait of the server's stop (cancel), one forwards the
// terminal's size changes; both end with ctx.
func (s *server) watchClient(ctx context.Context, cancel context.CancelFunc, c *attachClient, windows <-chan ssh.Window) <-chan tui.Size {
	go func() { // the UI quits (tui.Terminal.Quit) when the server stops; this ends one that will not
		select {
		case <-s.stop:
		case <-ctx.Done():
			return
		}
		select {
		case <-time.After(uiQuitWait):
			cancel()
		case <-ctx.Done():
		}
	}()
	resize := make(chan tui.Size)
	go func() {
		defer func() { _ = recover() }()
		for {
			select {
			case <-ctx.Done():
				return
			case w, ok := <-windows:
				if !ok {
					return
				}
				s.resized(c, w.Width, w.Height)
				select {
				case resize <- tui.Size{Width: w.Width, Height: w.Height}:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return resize
}

// uiOptions are a served UI's: config.json's, reread (it may have been
// edited by hand since the server started: keys, theme, language, not the
// accounts), with the attaching terminal's own PULLCEPT_LANGUAGE winning,
// as it would over config.json for a process it started.
func (s *server) uiOptions(sess ssh.Session) (tui.Options, error) {
	if err := s.a.accounts.Reread(); err != nil {
		s.logger.Warn("config.json not reread", "err", err)
	}
	opts, err := s.a.uiOptions()
	if err != nil {
		return opts, err
	}
	if l, err := tui.ParseLang(lastEnv(sess.Environ(), config.EnvLanguage)); err == nil && l != "" {
		opts.Lang = l
	}
	opts.Served = true
	opts.StopAll = s.requestStop
	return opts, nil
}

func (s *server) addClient(term string, cols, rows int, peer peerInfo) (*attachClient, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.clients) >= maxAttachedUIs {
		return nil, false
	}
	s.nextID++
	c := &attachClient{id: s.nextID, term: term, cols: cols, rows: rows, since: time.Now(), running: true, peer: peer}
	s.clients[c.id] = c
	s.logger.Info("client attached", "client", c.id, "term", term, "size", fmt.Sprintf("%dx%d", cols, rows), "peer", peer.String())
	return c, true
}

// cleanTerm is a client's TERM as the UI and `pullcept ls` may use it: a
// terminal type's name (letters, digits, ".", "_", "+", "-"), at most 64
// bytes; anything else — escape sequences for whoever reads ls, a 250 KB
// name — is taken as xterm-256color.
func cleanTerm(t string) string {
	if t == "" || len(t) > 64 {
		return "xterm-256color"
	}
	for _, r := range t {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '+' || r == '-') {
			return "xterm-256color"
		}
	}
	return t
}

func (s *server) dropClient(c *attachClient) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.clients, c.id)
	s.idleAt = time.Now()
	s.logger.Info("client detached", "client", c.id)
}

func (s *server) resized(c *attachClient, cols, rows int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c.cols, c.rows = cols, rows
}

// list writes `pullcept ls`: the server, its clients, and the seats of
// every topic with their state. Names and states only: no token, no
// command line, no environment.
func (s *server) list(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "server\tpid %d\tversion %s\tsince %s\n", os.Getpid(), s.version, s.started.Format(time.DateTime))
	fmt.Fprintf(tw, "data\t%s\n", s.a.dataDir)
	if s.sshAddr != "" {
		fmt.Fprintf(tw, "ssh\t%s\n", s.sshAddr)
	}
	s.mu.Lock()
	cs := make([]attachClient, 0, len(s.clients))
	for _, c := range s.clients {
		cs = append(cs, *c)
	}
	s.mu.Unlock()
	slices.SortFunc(cs, func(a, b attachClient) int { return a.id - b.id })
	fmt.Fprintf(tw, "clients\t%d\n", len(cs))
	for _, c := range cs {
		fmt.Fprintf(tw, "  client %d\t%dx%d\t%s\tsince %s\t%s\n", c.id, c.cols, c.rows, c.term, c.since.Format(time.DateTime), c.peer)
	}
	names := map[string]string{}
	if ts, err := s.a.store.Topics(); err == nil {
		for _, t := range ts {
			names[t.ID] = t.Name
		}
	}
	list := s.a.seats.Seats("")
	slices.SortFunc(list, func(a, b seats.SeatInfo) int {
		return strings.Compare(a.Topic+"\x00"+a.Account, b.Topic+"\x00"+b.Account)
	})
	fmt.Fprintf(tw, "seats\t%d\n", len(list))
	for _, si := range list {
		topic := names[si.Topic]
		if topic == "" {
			topic = si.Topic
		}
		name := si.Account
		if acc, ok := s.a.accounts.Account(si.Account); ok {
			name = acc.DisplayName()
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\tpid %d\n", topic, name, stateWord(si.Shown()), si.Pid)
	}
	_ = tw.Flush()
}

// stateWord names a seat's stage for `pullcept ls`.
func stateWord(st seats.State) string {
	switch st {
	case seats.StateStarting:
		return "starting"
	case seats.StateRunning:
		return "running"
	case seats.StateExited:
		return "exited"
	}
	return "offline"
}
