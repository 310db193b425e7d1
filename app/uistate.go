package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/tui"
)

// uiStateFileName holds what the UI remembers between runs that is not a
// setting (config.json) nor a topic's (the index): the topic open last,
// and which panels are open and how tall the terminals are (the view).
// The view is here rather than in config.json although the settings
// overlay shows it: the keys change it all the time (Ctrl+B, Ctrl+O,
// Ctrl+T, Ctrl+↑/↓), and config.json is the person's file, rewritten whole
// with the accounts at each save; the spec keeps the screen's sizes in the
// webview's storage for the same reason (spec «表示（#194）»: "画面の設定で
// あって参加者の属性ではない").
const uiStateFileName = "ui-state.json"

// Keys of ui-state.json. Other keys (a later version's) are kept as they
// are by every write.
const (
	uiKeyLastTopic = "last_topic"
	uiKeyView      = "view"
)

// uiState is ui-state.json as this version reads it.
type uiState struct {
	LastTopic string  `json:"last_topic,omitempty"`
	View      *uiView `json:"view,omitempty"`
}

// uiView is the layout the screen had when it last changed
// (tui.ViewState).
type uiView struct {
	Topics       bool `json:"topics"`
	Participants bool `json:"participants"`
	Panes        bool `json:"panes"`
	PaneShare    int  `json:"pane_share"`
}

// rememberTopic writes topicID as the topic open last.
func (a *App) rememberTopic(topicID string) error {
	if err := a.writeUIState(uiKeyLastTopic, topicID); err != nil {
		return fmt.Errorf("remember the open topic: %w", err)
	}
	return nil
}

// rememberView writes the screen's layout for the next start.
func (a *App) rememberView(v tui.ViewState) error {
	err := a.writeUIState(uiKeyView, uiView{Topics: v.Topics, Participants: v.Participants, Panes: v.Panes, PaneShare: v.PaneShare})
	if err != nil {
		return fmt.Errorf("remember the panels: %w", err)
	}
	return nil
}

// writeUIState sets key to v in ui-state.json, keeping its other keys: the
// file as it is is read again (a file that cannot be read is started
// afresh), changed and written atomically. Writes are serialised: the UI's
// commands run concurrently.
func (a *App) writeUIState(key string, v any) error {
	a.stateMu.Lock()
	defer a.stateMu.Unlock()
	var o config.Object
	if b, err := a.readUIStateFile(); err == nil {
		if err := json.Unmarshal(b, &o); err != nil {
			o = config.Object{}
		}
	}
	if err := o.SetValue(key, v); err != nil {
		return err
	}
	b, err := json.Marshal(o)
	if err != nil {
		return err
	}
	path := filepath.Join(a.dataDir, uiStateFileName)
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		// Read without following links, so written without either: a link
		// planted there must not make us overwrite its target (breaker
		// review).
		return fmt.Errorf("%s is a symbolic link: not written (remove it to let Pullcept keep its screen state)", path)
	}
	return config.WriteFileAtomic(path, append(b, '\n'), 0o600)
}

// uiStateMax bounds ui-state.json: a topic id and a few flags in a small
// object.
const uiStateMax = 64 << 10

// readUIStateFile reads ui-state.json: small, regular, no link followed (a
// FIFO or /dev/zero planted there must not hang or fill the start).
func (a *App) readUIStateFile() ([]byte, error) {
	return config.ReadRegularFile(filepath.Join(a.dataDir, uiStateFileName), uiStateMax, false)
}

// uiState reads ui-state.json. A missing file is the zero state; one that
// does not parse is no reason not to start: it is logged and ignored.
func (a *App) uiState() uiState {
	b, err := a.readUIStateFile()
	if errors.Is(err, fs.ErrNotExist) {
		return uiState{}
	}
	var st uiState
	if err == nil {
		err = json.Unmarshal(b, &st)
	}
	if err != nil {
		a.logger.Warn("ui state unreadable", "err", err)
		return uiState{}
	}
	return st
}

// lastTopic is the topic open when the app last quit ("" none).
func (a *App) lastTopic() string { return a.uiState().LastTopic }

// lastView is the layout the screen last had (nil: none remembered, the
// UI's defaults).
func (a *App) lastView() *tui.ViewState {
	v := a.uiState().View
	if v == nil {
		return nil
	}
	return &tui.ViewState{Topics: v.Topics, Participants: v.Participants, Panes: v.Panes, PaneShare: v.PaneShare}
}
