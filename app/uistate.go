package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/pullcept/pullcept/config"
)

// uiStateFileName holds what the UI remembers between runs that is not a
// setting (config.json) nor a topic's (the index): the topic open last.
const uiStateFileName = "ui-state.json"

// uiState is ui-state.json.
type uiState struct {
	LastTopic string `json:"last_topic,omitempty"`
}

// rememberTopic writes topicID as the topic open last. Writes are
// serialised: the UI's commands run concurrently.
func (a *App) rememberTopic(topicID string) error {
	a.stateMu.Lock()
	defer a.stateMu.Unlock()
	b, err := json.Marshal(uiState{LastTopic: topicID})
	if err != nil {
		return err
	}
	if err := config.WriteFileAtomic(filepath.Join(a.dataDir, uiStateFileName), append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("remember the open topic: %w", err)
	}
	return nil
}

// uiStateMax bounds ui-state.json: one topic id in a small object.
const uiStateMax = 64 << 10

// lastTopic is the topic open when the app last quit ("" none). A file
// that does not parse is no reason not to start: it is logged and ignored.
func (a *App) lastTopic() string {
	// Small, regular, no link followed: a FIFO or /dev/zero planted there
	// must not hang or fill the start.
	b, err := config.ReadRegularFile(filepath.Join(a.dataDir, uiStateFileName), uiStateMax, false)
	if errors.Is(err, fs.ErrNotExist) {
		return ""
	}
	var st uiState
	if err == nil {
		err = json.Unmarshal(b, &st)
	}
	if err != nil {
		a.logger.Warn("ui state unreadable", "err", err)
		return ""
	}
	return st.LastTopic
}
