package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/logstore"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats"
	"github.com/pullcept/pullcept/tui"
)

// logFileName is the app's own log in the data dir: nothing may print to the
// terminal while the UI owns it (STYLE "Logs").
const logFileName = "pullcept.log"

var _ room.Log = (*logstore.Store)(nil)

// app holds the running parts: data dir, config, topic logs, the room hub
// and its loopback server, and the seat manager.
type app struct {
	dataDir string
	logger  *slog.Logger
	logFile *os.File

	cfg     *config.Book
	store   *logstore.Store
	hub     *room.Hub
	server  *room.Server
	seats   *seats.Manager
	sub     *room.Subscription
	notices []string // start-up warnings for the status line
}

// openApp starts everything below the UI (DESIGN §1): nothing is shown yet.
func openApp(dataDir string) (*app, error) {
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
	a := &app{dataDir: dataDir}
	lf, err := os.OpenFile(filepath.Join(dataDir, logFileName), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open app log: %w", err)
	}
	a.logFile = lf
	a.logger = slog.New(slog.NewTextHandler(lf, &slog.HandlerOptions{Level: slog.LevelInfo}))

	cfg, warnings, err := config.Load(dataDir)
	if err != nil {
		a.close()
		return nil, err
	}
	a.cfg = config.NewBook(dataDir, cfg)
	a.notices = append(a.notices, warnings...)

	if a.store, err = logstore.Open(dataDir, logstore.Options{}); err != nil {
		a.close()
		return nil, err
	}
	for _, w := range a.store.TakeWarnings() {
		a.notices = append(a.notices, w.Error())
	}
	if a.seats, err = seats.NewManager(seats.ManagerOptions{
		Sessions: a.store,
		Accounts: a.cfg.Account,
		Logger:   a.logger.With("part", "seats"),
	}); err != nil {
		a.close()
		return nil, err
	}
	if a.hub, err = room.NewHub(room.HubOptions{
		Log:       a.store,
		Terminals: a.seats,
		Accounts:  a.cfg,
		Logger:    a.logger.With("part", "room"),
	}); err != nil {
		a.close()
		return nil, err
	}
	if a.server, err = room.NewServer(a.hub, room.ServerOptions{Logger: a.logger.With("part", "server")}); err != nil {
		a.close()
		return nil, err
	}
	a.seats.SetRoom(seats.RoomEndpoint{URL: a.server.URL(), HooksURL: a.server.HooksURL(), Token: a.server.Token()})
	admin, ok := cfg.Admin()
	if !ok {
		a.close()
		return nil, errors.New("config has no admin account")
	}
	a.hub.SetAdmin(room.Hello{Name: admin.DisplayName(), Hue: admin.Hue, AccountID: admin.ID})
	a.sub = a.hub.Subscribe()
	a.logger.Info("pullcept started", "version", versionString(), "room", a.server.URL())
	return a, nil
}

// close stops seats first (their sidecars leave the room), then the server,
// the hub and the logs.
func (a *app) close() {
	if a.seats != nil {
		a.seats.Close()
	}
	if a.sub != nil {
		a.sub.Close()
	}
	if a.server != nil {
		_ = a.server.Close()
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
}

// runApp starts the terminal UI on this terminal and everything below it.
func runApp(dataDir string, stdin io.Reader, stdout, stderr io.Writer) error {
	a, err := openApp(dataDir)
	if err != nil {
		return err
	}
	defer a.close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	admin, _ := a.cfg.Admin()
	opts := tui.Options{AdminID: admin.ID}
	ui, err := a.cfg.UI()
	if err != nil {
		return err
	}
	opts.Keys = ui.Keys
	if ui.Language != "" {
		if opts.Lang, err = tui.ParseLang(ui.Language); err != nil {
			return fmt.Errorf("%s language: %w", config.FileName, err)
		}
	}
	b := newBackend(a)
	defer b.close()
	return tui.Run(ctx, b, opts)
}
