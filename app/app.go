package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/pullcept/pullcept/app/attention"
	"github.com/pullcept/pullcept/app/localmcp"
	"github.com/pullcept/pullcept/app/sessionops"
	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/logstore"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats"
	"github.com/pullcept/pullcept/tui"
)

// logFileName is the app's own log in the data dir: nothing may print to the
// terminal while the UI owns it (docs/design.md §14).
const logFileName = "pullcept.log"

var _ room.Log = (*logstore.Store)(nil)

// App holds the running parts below the UI: data dir, account book, topic
// logs, the room hub and its loopback server, and the seat manager.
type App struct {
	dataDir string
	version string
	lock    *config.DataDirLock // one Pullcept per data directory
	logger  *slog.Logger
	logFile *os.File

	accounts *config.Book
	store    *logstore.Store
	hub      *room.Hub
	server   *room.Server
	sockDir  string // the room socket's directory ("" without one), removed at Close
	seats    *seats.Manager
	mcpFile  *config.MCPServers   // mcp-servers.json (mcpservers.go)
	mcp      *localmcp.Supervisor // Pullcept's own local MCP servers
	ops      *sessionops.Ops      // the seats' session operations (nil: off)
	notices  []string             // start-up warnings for the status line

	stateMu sync.Mutex // orders ui-state.json's writes (uistate.go)

	// What the UIs of a served App share (shared.go).
	rooms roomHolds
	sizes seatSizes

	// running-seats.json: the seats running now and those a crash left
	// (resumable.go), kept by the recorder goroutine until marksStop.
	marks     *seatMarks
	marksStop chan struct{}
	marksDone chan struct{}

	// What needs the human (attention.go): the list every UI reads, kept
	// by the watchers until attentionStop.
	attention     *attention.List
	attentionStop context.CancelFunc
	attentionWait sync.WaitGroup

	// brakeWords are the language Pullcept's own notices are worded in
	// (uiLang) and the keys the brake notice names (brakeNotice): kept
	// here, set before the hub opens and at each settings save, because
	// the room words the notice under its lock, where the account book is
	// never read (docs/architecture.md "Lock order").
	brakeWords atomic.Pointer[noticeWords]

	opts openOptions // the tests' changes (openApp); zero from Open
}

// noticeWords are what the brake notice is worded with.
type noticeWords struct {
	lang tui.Lang
	keys map[string][]string
}

// openOptions are what a test of this package changes in what Open wires
// (openApp); the zero value is Open's. Nothing outside the tests sets
// them.
type openOptions struct {
	// pullceptPath is the seats' sidecar and status-line executable
	// (seats.ManagerOptions.PullceptPath; "": this executable, which in a
	// test is the test binary).
	pullceptPath string
	// environ is the seats' base environment (seats.ManagerOptions.Environ;
	// nil: this process's), so a test's Claude seat talks to a fake API
	// from an isolated home without changing the test process's env.
	environ func() []string
	// signatureWait caps get_event per notice of the local MCP servers
	// (localmcp.Options.SignatureWait; 0: its default, 5 s).
	signatureWait time.Duration
	// noticeEvery is the notice brake's rate after its burst
	// (localmcp.Options.NoticeEvery; 0: its default, one per 3 s).
	noticeEvery time.Duration
	// beforeSessionOp holds each session operation before it runs
	// (sessionops.Options.BeforeRun).
	beforeSessionOp func(room.SessionRecord)
	// permissionWait is how long a permission card waits for the human
	// (room.HubOptions.PermissionWait; 0: config.json's
	// "permission_wait"). A settings save sets the file's again.
	permissionWait time.Duration
}

// Open starts everything below the UI (docs/design.md §1): nothing is shown
// yet. dataDir "" is the default data directory (config.DataDir); version
// goes to the app log.
func Open(dataDir, version string) (*App, error) {
	return openApp(dataDir, version, openOptions{})
}

// openApp is Open with a test's options.
func openApp(dataDir, version string, opts openOptions) (*App, error) {
	if dataDir == "" {
		d, err := config.DataDir()
		if err != nil {
			return nil, err
		}
		dataDir = d
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("data dir: %w", err)
	}
	a := &App{dataDir: dataDir, version: version, opts: opts}
	if err := a.open(); err != nil {
		a.Close()
		return nil, err
	}
	a.logger.Info("pullcept started", "version", version, "room", a.server.URL())
	return a, nil
}

// open opens the parts in order; Open closes what was opened on an error.
// The data directory's lock comes first: a second Pullcept on it must not
// touch its log, config or topic logs (docs/design.md §12).
func (a *App) open() error {
	lock, err := config.LockDataDir(a.dataDir)
	if err != nil {
		return err
	}
	a.lock = lock
	// Never through a planted link or FIFO (docs/design.md §16).
	lf, err := config.OpenRegular(filepath.Join(a.dataDir, logFileName), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("open app log: %w", err)
	}
	a.logFile = lf
	a.logger = slog.New(slog.NewTextHandler(lf, &slog.HandlerOptions{Level: slog.LevelInfo}))

	cfg, warnings, err := config.Load(a.dataDir)
	if err != nil {
		return err
	}
	a.accounts = config.NewBook(a.dataDir, cfg, config.SystemVault())
	a.notices = append(a.notices, warnings...)
	admin, ok := a.accounts.Admin()
	if !ok {
		return errors.New("config has no admin account")
	}

	if a.store, err = logstore.Open(a.dataDir, logstore.Options{}); err != nil {
		return err
	}
	for _, w := range a.store.TakeWarnings() {
		a.notices = append(a.notices, w.Error())
	}
	if a.seats, err = seats.NewManager(seats.ManagerOptions{
		Sessions:     a.store,
		Accounts:     a.accounts.Account,
		OpenEnv:      a.accounts.OpenEnv,
		PullceptPath: a.opts.pullceptPath,
		Environ:      a.opts.environ,
		// A Claude seat reads an attachment's path without asking.
		AttachmentsDir: a.store.TopicAttachmentsDir,
		Logger:         a.logger.With("part", "seats"),
		// The usage-limit notices (seats/limitseat.go). The hub exists only
		// after the Manager (it types into the seats); seats post nothing
		// before they start, which is after this function returned.
		AppNotice: func(topicID, text string, skip ...string) (room.Post, error) {
			return a.hub.AppNotice(topicID, text, skip...)
		},
		// A permission request answered in the pane closes its card in
		// the room (room/permission.go); the same lazy reference.
		AskClosed: func(topicID, accountID string, ask uint64) { a.hub.AskClosed(topicID, accountID, ask) },
	}); err != nil {
		return err
	}
	a.openSeatMarks()
	brake, wait, err := a.hubSettings()
	if err != nil {
		return err
	}
	if a.hub, err = room.NewHub(room.HubOptions{
		Log:         a.store,
		Terminals:   a.seats,
		Accounts:    a.accounts,
		Identities:  a.accounts,
		Logger:      a.logger.With("part", "room"),
		Brake:       brake,
		BrakeNotice: a.brakeNotice, // the human's language and key
		// A PermissionRequest is held this long for the human's answer on
		// its card (room/permission.go); the settings change it
		// (Backend.SaveSettings → Hub.SetPermissionWait).
		PermissionWait: wait,
	}); err != nil {
		return err
	}
	if err := a.openServer(); err != nil {
		return err
	}
	a.hub.SetAdmin(room.Hello{Name: admin.DisplayName(), Hue: admin.Hue, AccountID: admin.ID})
	a.attention = attention.New(nil)
	a.openMCPServers()
	a.openSessionOps()
	a.openAttention()
	return nil
}

// hubSettings are config.json's settings the hub starts with: the brake
// (and its notice's words, keepBrakeWords) and how long a permission card
// waits (a test's own wait, if it set one). A bad value stops the start
// naming its key.
func (a *App) hubSettings() (brake int, wait time.Duration, err error) {
	a.keepBrakeWords()
	if brake, err = a.accounts.Brake(); err != nil {
		return 0, 0, err
	}
	if a.opts.permissionWait > 0 {
		return brake, a.opts.permissionWait, nil
	}
	n, err := a.accounts.PermissionWait()
	return brake, time.Duration(n) * time.Second, err
}

// brakeNotice words the room's brake notice after n AI posts in a row in
// the human's language, naming the release key as config.json binds it
// (tui.BrakeNotice). The room calls it under its lock: it reads only
// brakeWords.
func (a *App) brakeNotice(n int) string {
	w := a.brakeWords.Load()
	if w == nil {
		return tui.BrakeNotice(tui.LangEnglish, nil, n)
	}
	return tui.BrakeNotice(w.lang, w.keys, n)
}

// keepBrakeWords reads the notices' language and the brake notice's keys
// from the config at the start: the language the UI starts in
// (PULLCEPT_LANGUAGE, else config.json, else the locale).
func (a *App) keepBrakeWords() {
	ui, _ := a.accounts.UI() // an unreadable "keys" leaves the defaults
	a.brakeWords.Store(&noticeWords{lang: a.configLang(), keys: ui.Keys})
}

// switchLanguage keeps the notices' language after a settings save: the
// language the human chose when the save changed config.json's (the
// locale's for "from the locale"), else the one in effect. The
// environment's language wins only at the start: after a switch in the
// settings the screen shows the chosen one, and so must the room (issue
// 35: started with PULLCEPT_LANGUAGE=ja and switched to English, the
// brake notice stayed Japanese).
func (a *App) switchLanguage(changed bool, setting string) {
	ui, _ := a.accounts.UI()
	lang := a.uiLang()
	if changed {
		lang = tui.DetectLang(os.Getenv)
		if l, err := tui.ParseLang(setting); err == nil {
			lang = l
		}
	}
	a.brakeWords.Store(&noticeWords{lang: lang, keys: ui.Keys})
}

// openServer starts the room server. Seats reach it over its Unix socket,
// where the kernel names their process (docs/design.md §6 "Seat
// identity"). The server exists only after the hub, which needs the
// Manager as its Terminals: the Manager learns the address afterwards.
func (a *App) openServer() error {
	var err error
	if a.sockDir, err = config.RoomSocketDir(); err != nil {
		return fmt.Errorf("room socket: %w", err)
	}
	if a.server, err = room.NewServer(a.hub, room.ServerOptions{Logger: a.logger.With("part", "server"), SocketDir: a.sockDir}); err != nil {
		return err
	}
	ep := seats.RoomEndpoint{URL: a.server.URL(), HooksURL: a.server.HooksURL(), Grant: a.server.Grant,
		Socket: a.server.SocketPath(), Bind: a.server.BindTree}
	if runtime.GOOS != "windows" {
		// The user's socket directory: this room's, its gates', the
		// server's. A seat connects there but cannot replace a socket.
		ep.Protect = []string{filepath.Dir(a.sockDir)}
		// No seat can take the lock and refuse the next start.
		ep.Hide = []string{config.LockPath(a.dataDir)}
	}
	a.seats.SetRoom(ep)
	return nil
}

// Close stops seats first (their sidecars leave the room), then the server,
// the hub and the logs. Safe on a partly opened App.
func (a *App) Close() {
	a.closeMCPServers() // no notice after the rooms close
	a.closeAttention()
	if a.ops != nil {
		a.ops.Close() // unfinished operations become interrupted, none starts
	}
	if a.seats != nil {
		a.seats.Close()
	}
	if a.marksStop != nil {
		close(a.marksStop)
		<-a.marksDone
		// The Manager stopped every seat: none is left running in the file,
		// whatever state a seat's last event had reached (on Windows an
		// exit may be reported after Close returned).
		if err := a.marks.sync(nil); err != nil {
			a.logger.Warn("running seats not recorded", "err", err)
		}
		a.marksStop = nil
	}
	if a.ops != nil {
		a.ops.Wait() // the one it ran ended with the seats
	}
	if a.server != nil {
		_ = a.server.Close()
	}
	if a.sockDir != "" {
		_ = os.RemoveAll(a.sockDir)
	}
	if a.hub != nil {
		a.hub.Close()
	}
	if a.store != nil {
		_ = a.store.Close()
	}
	if a.logFile != nil {
		_ = a.logFile.Close()
	}
	_ = a.lock.Unlock() // last: everything below has let go of the directory
}

// Run starts the terminal UI on this terminal and everything below it
// (`pullcept --no-server`), and returns when the UI quits, ctx ends, or the
// process gets SIGINT, SIGTERM or SIGHUP (the terminal closed: its window,
// or the SSH link). Each runs the orderly end: the seats stop in order,
// their .mcp.json entries go, the logs close (App.Close). SIGINT and
// SIGTERM are caught only while the UI runs; a SIGHUP during the end is
// ignored, since the terminal it is about is already gone. notices are
// shown at start, after Open's.
func Run(ctx context.Context, dataDir, version string, notices ...string) error {
	a, err := Open(dataDir, version)
	if err != nil {
		return err
	}
	defer a.Close()
	a.notices = append(a.notices, notices...)
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	// Deferred last, so it runs first: once the UI ended no hangup may cut
	// the seats' stop short. Caught and dropped, not ignored: an ignored
	// signal stays ignored in every child, and a seat started meanwhile
	// would outlive its PTY's hangup.
	defer holdHangup()
	opts, err := a.uiOptions()
	if err != nil {
		return err
	}
	b := NewBackend(a)
	defer b.Close()
	return tui.Run(ctx, b, opts)
}

// uiOptions are the UI's settings from config.json (keys, language,
// theme) and what it remembers from its last run (ui-state.json: the open
// topic, the panels).
func (a *App) uiOptions() (tui.Options, error) {
	admin, _ := a.accounts.Admin()
	opts := tui.Options{AdminID: admin.ID, Reopen: true, LastTopic: a.lastTopic(), View: a.lastView()}
	ui, err := a.accounts.UI()
	if err != nil {
		return opts, err
	}
	opts.Keys, opts.Theme = ui.Keys, ui.Theme
	if ui.Language != "" {
		if opts.Lang, err = tui.ParseLang(ui.Language); err != nil {
			return opts, fmt.Errorf("%s language: %w", config.FileName, err)
		}
	}
	return opts, nil
}

// holdHangup catches SIGHUP, and nothing reads it (signal.Notify never
// blocks: one waits in the buffer, later ones are dropped), until the
// process ends. Unlike signal.Ignore, a caught signal is reset to its
// default in a child at exec, so a seat still ends with its PTY's hangup.
func holdHangup() {
	signal.Notify(make(chan os.Signal, 1), syscall.SIGHUP)
}
