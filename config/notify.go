package config

import (
	"encoding/json"
	"fmt"
	"strings"
)

// How Pullcept calls the human back when something needs them, and how
// long a permission card waits for them (issue 33; docs/design.md §10
// "Settings", §12). Each is a top-level config.json key; an absent key (or
// null) is its default, and the overlay writes a key only when its value
// changes (SetSettings).
const (
	keyNotify         = "notifications"
	keyNotifySequence = "notify_sequence"
	keyNotifyDwell    = "notify_dwell"
	keyNotifyCooldown = "notify_cooldown"
	keyPermissionWait = "permission_wait"
)

// The values of "notifications".
const (
	// NotifyTerminal, the default (the key left out, or written
	// "terminal"): ring the terminal the human is attached from.
	NotifyTerminal = ""
	// NotifyOff: call nobody; what needs the human still shows on screen.
	NotifyOff = "off"
	// NotifyDesktop: a desktop notification when the human's terminal is
	// on this machine, else the terminal rung as NotifyTerminal does.
	NotifyDesktop = "desktop"
)

// The values of "notify_sequence": what is written to ring a terminal.
const (
	// SequenceAuto, the default (the key left out, or written "auto"):
	// chosen from what the terminal says it is.
	SequenceAuto   = ""
	SequenceOSC9   = "osc9"   // OSC 9: a notification with its text (iTerm2's)
	SequenceOSC777 = "osc777" // OSC 777 notify: a title and a text (rxvt's, VTE's)
	SequenceBEL    = "bel"    // the bell alone: any terminal, no text
	SequenceOSC99  = "osc99"  // OSC 99: kitty's own, with a title
)

// The numbers, in seconds.
const (
	// DefaultNotifyDwell: how long an item waits unseen before it rings.
	// Five seconds lets the human, at the screen already, see it first;
	// 0 rings at once.
	DefaultNotifyDwell = 5
	// MaxNotifyDwell: longer than ten minutes is no call at all.
	MaxNotifyDwell = 600
	// DefaultNotifyCooldown: after a ring, the same seat stays quiet this
	// long, so a seat asking again and again rings once a minute at most.
	DefaultNotifyCooldown = 60
	// MaxNotifyCooldown: an hour; longer and a seat's next need goes
	// unheard for most of a working session.
	MaxNotifyCooldown = 3600

	// DefaultPermissionWait is how long a permission card waits for the
	// human's answer (room.DefaultPermissionWait; spec #336: 180 s).
	DefaultPermissionWait = 180
	// MinPermissionWait: a card that closes sooner is gone before a human
	// called back by its ring can read it.
	MinPermissionWait = 30
	// MaxPermissionWait bounds the wait; seats/cli/claude gives Claude
	// Code's PermissionRequest hook this plus a margin as its timeout, so
	// every wait up to it applies to running seats at once. The CLIs do
	// not bound it lower:
	//   - Claude Code 2.1.328 (testdata/clis: the bun bundle inside
	//     bin/claude.exe) runs a hook for its own "timeout" seconds,
	//     `Math.min(hook.timeout*1000, 2147483647)` — capped only by
	//     setTimeout's largest delay, 24.8 days; 600 s when none is given
	//     (its executePermissionRequestHooks passes no other) — and the
	//     settings schema takes any positive number.
	//   - Codex CLI's approvals never reach a card: in app-server mode
	//     they are server requests the attached TUI answers (Pullcept
	//     reads them only as the seat's wait, seats/cli/codex/notes.go, and
	//     answers none, seats/cli/codex/rpc.go); its app-server waits on
	//     them with no timeout until answered or the turn ends.
	// So the bound is ours: an hour, past which the human has left and
	// answers in the pane, where the CLI's own dialog still waits. A held
	// request costs a goroutine, a socket and a `pullcept hook` process
	// (bounded by the room's card caps), not more for waiting longer.
	MaxPermissionWait = 3600
)

// choiceKey is a string key of a few values: def is its default (the key
// left out), word the default as a person may write it, what says what
// the key is for in an error.
type choiceKey struct {
	key, def, word string
	choices        []string
	what           string
}

// secondsKey is a number of whole seconds from min to max; def when
// absent.
type secondsKey struct {
	key           string
	def, min, max int
	what          string
}

var (
	notifyKey = choiceKey{key: keyNotify, def: NotifyTerminal, word: "terminal",
		choices: []string{NotifyOff, NotifyDesktop}, what: "how Pullcept calls you"}
	sequenceKey = choiceKey{key: keyNotifySequence, def: SequenceAuto, word: "auto",
		choices: []string{SequenceOSC9, SequenceOSC777, SequenceOSC99, SequenceBEL}, what: "what rings the terminal"}
	dwellKey = secondsKey{key: keyNotifyDwell, def: DefaultNotifyDwell, min: 0, max: MaxNotifyDwell,
		what: "how long an item waits unseen before it rings; 0: at once"}
	cooldownKey = secondsKey{key: keyNotifyCooldown, def: DefaultNotifyCooldown, min: 0, max: MaxNotifyCooldown,
		what: "how long a seat stays quiet after a ring; 0: not at all"}
	permissionWaitKey = secondsKey{key: keyPermissionWait, def: DefaultPermissionWait, min: MinPermissionWait, max: MaxPermissionWait,
		what: "how long a permission card waits for you"}
)

// read is the key's value in c: def when absent, null or written as word.
// Anything else but a choice is an error naming the key (ErrBadFile).
func (k choiceKey) read(c *Config) (string, error) {
	raw, ok := c.top.Get(k.key)
	if !ok || strings.TrimSpace(string(raw)) == "null" {
		return k.def, nil
	}
	var v string
	got := jsonKind(raw)
	if err := json.Unmarshal(raw, &v); err == nil {
		if v, ok := k.normal(v); ok {
			return v, nil
		}
		if len(v) <= 24 {
			got = fmt.Sprintf("%q", v)
		}
	}
	return "", fmt.Errorf("%s: %q (%s) must be %s; got %s: %w", FileName, k.key, k.what, k.words(), got, ErrBadFile)
}

// normal is v as Settings has it (the default word as def), and whether
// the key takes it.
func (k choiceKey) normal(v string) (string, bool) {
	if v == k.def || v == k.word {
		return k.def, true
	}
	for _, c := range k.choices {
		if v == c {
			return v, true
		}
	}
	return "", false
}

// check refuses a value the key cannot take (ErrBadSetting).
func (k choiceKey) check(v string) error {
	if _, ok := k.normal(v); ok {
		return nil
	}
	return fmt.Errorf("%q: %q is not a choice: %s: %w", k.key, v, k.words(), ErrBadSetting)
}

// words lists the choices as a person writes them.
func (k choiceKey) words() string {
	var b strings.Builder
	for _, c := range k.choices {
		fmt.Fprintf(&b, "%q, ", c)
	}
	fmt.Fprintf(&b, "or %q (the default, also the key left out)", k.word)
	return b.String()
}

// read is the key's number in c: def when absent or null; anything but a
// whole number from min to max is an error naming the key (ErrBadFile).
func (k secondsKey) read(c *Config) (int, error) {
	raw, ok := c.top.Get(k.key)
	if !ok || strings.TrimSpace(string(raw)) == "null" {
		return k.def, nil
	}
	var n int
	if err := json.Unmarshal(raw, &n); err != nil || n < k.min || n > k.max {
		got := jsonKind(raw)
		if s := strings.TrimSpace(string(raw)); got == "a number" && len(s) <= 24 {
			got = s
		}
		return 0, fmt.Errorf("%s: %q (%s) must be a whole number of seconds from %d to %d; got %s: %w",
			FileName, k.key, k.what, k.min, k.max, got, ErrBadFile)
	}
	return n, nil
}

// check refuses a number outside min–max (ErrBadSetting).
func (k secondsKey) check(n int) error {
	if n >= k.min && n <= k.max {
		return nil
	}
	return fmt.Errorf("%q: %d is not a whole number of seconds from %d to %d (%s): %w",
		k.key, n, k.min, k.max, k.what, ErrBadSetting)
}

// readNotify puts the notification keys and the card's wait into s.
func (c *Config) readNotify(s *Settings) error {
	var err error
	if s.Notify, err = notifyKey.read(c); err != nil {
		return err
	}
	if s.NotifySequence, err = sequenceKey.read(c); err != nil {
		return err
	}
	if s.NotifyDwell, err = dwellKey.read(c); err != nil {
		return err
	}
	if s.NotifyCooldown, err = cooldownKey.read(c); err != nil {
		return err
	}
	s.PermissionWait, err = permissionWaitKey.read(c)
	return err
}

// PermissionWait returns config.json's "permission_wait": the seconds a
// permission card waits for the human (DefaultPermissionWait when absent;
// MinPermissionWait–MaxPermissionWait, else an error naming the key that
// wraps ErrBadFile). The app reads it at start; the settings overlay
// changes it (SetSettings).
func (b *Book) PermissionWait() (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return permissionWaitKey.read(b.cfg)
}
