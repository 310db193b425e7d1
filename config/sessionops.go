package config

import (
	"encoding/json"
	"fmt"
	"strings"
)

// keySessionOps is the top-level config.json key of the session operations
// seats may ask for (docs/design.md §13).
const keySessionOps = "session_operations"

// The values of "session_operations": what a running seat may start, stop
// or restart through its room tools.
const (
	// SessionOpsTopic: the seats of its own topic (itself included); the
	// default — a seat acts only where the human sees it act.
	SessionOpsTopic = "topic"
	// SessionOpsAll: seats of any open topic.
	SessionOpsAll = "all"
	// SessionOpsOff: none; the tools answer that the human turned them off.
	SessionOpsOff = "off"
)

// SessionOperations returns config.json's "session_operations": "topic"
// (absent or null), "all" or "off". Anything else is an error naming the
// key and wrapping ErrBadFile.
func (c *Config) SessionOperations() (string, error) {
	raw, ok := c.top.Get(keySessionOps)
	if !ok || strings.TrimSpace(string(raw)) == "null" {
		return SessionOpsTopic, nil
	}
	var v string
	got := jsonKind(raw)
	if err := json.Unmarshal(raw, &v); err == nil {
		switch v {
		case SessionOpsTopic, SessionOpsAll, SessionOpsOff:
			return v, nil
		}
		if len(v) <= 24 {
			got = fmt.Sprintf("%q", v)
		}
	}
	return "", fmt.Errorf("%s: %q must be %q (seats of the seat's own topic), %q (any open topic) or %q; got %s: %w",
		FileName, keySessionOps, SessionOpsTopic, SessionOpsAll, SessionOpsOff, got, ErrBadFile)
}

// SessionOperations is Config.SessionOperations on the book's current config.
func (b *Book) SessionOperations() (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.cfg.SessionOperations()
}
