package tui

import (
	"fmt"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"
)

// Options configure New and Run. Every field may be left zero.
type Options struct {
	// AdminID is the account id of this screen's human (kind admin). Its
	// name is "yourself" for @-completion and own-post alignment, and it
	// cannot be deleted from the editor.
	AdminID string
	// Lang overrides the UI language; "" picks it from LC_ALL/LC_MESSAGES/LANG.
	Lang Lang
	// Keys overrides key bindings by name (config.json "keys"), see
	// KeyMap.Override.
	Keys map[string][]string
	// Now and Location make times deterministic in tests; default time.Now
	// and time.Local.
	Now      func() time.Time
	Location *time.Location
	// Getenv reads the human's terminal's environment: the locale, and
	// which terminal it is for its ring (chooseRing); default os.Getenv.
	// A served UI's reads its client's variables (RunOn, Terminal.Env).
	Getenv func(string) string
	// StartTopic opens this topic at startup instead of a new one.
	StartTopic string
	// Reopen (without StartTopic) starts in LastTopic, the topic open when
	// the app last quit (Backend.RememberTopic), once the topic list shows
	// it is still there; else in the newest topic; a new topic only when
	// none exists. False starts in a new topic.
	Reopen    bool
	LastTopic string
	// LightBackground starts with light colours until the terminal reports
	// its background (tea.BackgroundColorMsg).
	LightBackground bool
	// Theme is config.json's "theme": ThemeLight or ThemeDark keep those
	// colours whatever the terminal's background; ThemeAuto ("") follows
	// it. Anything else is ErrUnknownTheme.
	Theme string
	// View is the layout the screen had when it last changed
	// (Backend.RememberView); nil opens with both side columns and no
	// terminals.
	View *ViewState
	// Served is set for a UI that `pullcept server` shows on an attached
	// client's terminal (RunOn, docs/serve.md): quitting detaches — the
	// seats keep running — unless the human chooses to stop everything,
	// which calls StopAll (from a command; it returns at once and the
	// server ends every UI). Nothing reads this process's clipboard then:
	// it is the server host's, not the human's.
	Served  bool
	StopAll func()
}

// Focus is what receives keys (docs/design.md §14: a typed enum plus the
// focused id).
type Focus int

// Focus targets. FocusPane carries the pane's (topic, account) alongside.
const (
	FocusInput Focus = iota
	FocusChat
	FocusTopics
	FocusParticipants
	FocusPane
	// FocusCard: the permission card shown (permission.go) takes the keys.
	FocusCard
)

// Model is the root Bubble Tea model (docs/design.md §14): it owns focus,
// layout and routing; the features below own their state and are driven
// through their methods. Update does no I/O: every Backend call runs in a
// tea.Cmd whose result comes back as a …Msg to its owner by id.
type Model struct {
	backend Backend // the domain; only commands call it
	opts    Options // as given to New, defaults filled in
	keys    KeyMap  // the bindings after config.json's overrides
	env     env     // what widgets read to render: theme, text, clock, self

	width, height int          // the terminal's size in cells
	layoutState   layoutState  // everything besides the size that moves rectangles
	layout        screenLayout // layout(width, height, layoutState) after the last message

	focus     Focus   // what receives keys
	focusPane seatKey // the pane that has them while focus is FocusPane

	overlay  overlays    // the modal layer: help, topic finder, dialog, editor
	jump     *PostHit    // the post the next openTopicCmd opens at (jumpTo)
	topics   *topicList  // the topic list, which also knows the open topic
	chat     *chat       // the open topic's conversation
	input    *inputBar   // the composer and its @ popup
	accounts accountBook // accounts, rosters and the participant panel
	seats    seatArea    // the open topic's seats and their panes
	status   statusLine  // the bottom line's latest report

	settings settingsState  // the settings in force and their saves (settings_update.go)
	cards    permCards      // the permission cards waiting (permission.go)
	attn     attentionState // what needs the human, and this terminal's rings (attention.go)
	markSrc  markSource     // what env.marks were made from (avatars.go)

	screen   screen    // what View assembles besides the widgets' lines
	quitting bool      // Quit is on its way: View draws nothing more
	held     heldInput // input waiting while a paste is read as dropped files
}

// New builds the root model. It returns ErrNoBackend for a nil backend and
// an error wrapping ErrUnknownBinding/ErrNoKeys for bad key overrides.
func New(b Backend, opts Options) (*Model, error) {
	if b == nil {
		return nil, ErrNoBackend
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Location == nil {
		opts.Location = time.Local
	}
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	lang := opts.Lang
	if lang == "" {
		lang = DetectLang(opts.Getenv)
	} else if _, err := ParseLang(string(lang)); err != nil {
		return nil, fmt.Errorf("new ui: %w", err)
	}
	keys := DefaultKeyMap()
	if err := keys.Override(opts.Keys); err != nil {
		return nil, fmt.Errorf("new ui: %w", err)
	}
	if err := checkTheme(opts.Theme); err != nil {
		return nil, fmt.Errorf("new ui: %w", err)
	}
	m := &Model{
		backend:     b,
		opts:        opts,
		keys:        keys,
		layoutState: layoutState{showTopics: true, showParticipants: true, paneShare: paneShareDefault, inputRows: 1},
		chat:        newChat(),
		accounts:    newAccountBook(),
		seats:       newSeatArea(),
		status:      statusLine{after: tickAfter},
		attn:        attentionState{after: tickAfter},
		cards:       permCards{dwell: cardDwell},
	}
	m.settings = settingsState{theme: opts.Theme, termDark: !opts.LightBackground}
	m.applyView(opts.View)
	m.env = env{
		th:       newTheme(m.settings.dark()),
		tr:       catalog{lang: lang},
		keys:     &m.keys,
		loc:      opts.Location,
		now:      opts.Now,
		selfName: "human",
		served:   opts.Served,
	}
	m.topics = newTopicList(&m.env)
	m.input = newInputBar(&m.env, &m.keys)
	m.input.setFocus(true)
	m.chat.loading = true
	return m, nil
}

// Init starts the bridge waits and the first loads.
func (m *Model) Init() tea.Cmd {
	start := m.newTopicCmd()
	switch {
	case m.opts.StartTopic != "":
		m.topics.open = m.opts.StartTopic
		start = m.openTopicCmd(m.topics.open)
	case m.opts.Reopen:
		start = nil // onTopicsLoaded picks the topic (reopen)
		m.topics.reopening = true
	}
	m.screen.title = m.windowTitle() // View may come before the first Update
	return tea.Batch(
		waitEvents(m.backend),
		waitScreens(m.backend, m.seats.screenGen),
		m.loadTopicsCmd(),
		m.loadAccountsCmd(),
		m.lookPathCmd(),
		m.attachDirCmd(),
		m.loadCardsCmd(),
		m.loadAttentionCmd(),
		m.loadSettingsCmd(false), // the ring settings (attention.go)
		start,
		tea.RequestBackgroundColor,
	)
}

// Update routes one message, then lays out and re-renders what moved
// (afterUpdate), so View only assembles.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg, tea.MouseClickMsg, tea.MouseWheelMsg:
		m.attn.input = true // the human is here (attentionSeen)
	}
	cmds := m.handle(msg)
	cmds = append(cmds, m.afterUpdate()...)
	return m, tea.Batch(cmds...)
}

// route offers a message to one owner; ok is false when it is not its.
type route func(m *Model, msg tea.Msg) (cmds []tea.Cmd, ok bool)

// routes are the owners in the order they are asked: the terminal's input
// (to the focused target), the bridge's events, then each feature's async
// results, matched by message type and applied by the owner's id.
var routes = [...]route{
	(*Model).terminalMsg,
	(*Model).bridgeMsg,
	(*Model).topicMsg,
	(*Model).chatMsg,
	(*Model).inputMsg,
	(*Model).accountMsg,
	(*Model).seatMsg,
	(*Model).attachMsg,
	(*Model).statusMsg,
	(*Model).settingsMsg,
	(*Model).permissionMsg,
	(*Model).attentionMsg,
	(*Model).quitMsg,
}

func (m *Model) handle(msg tea.Msg) []tea.Cmd {
	if m.holdInput(msg) {
		return nil
	}
	cmds := m.route(msg)
	if m.held.replay {
		m.held.replay = false
		cmds = append(cmds, m.replayHeld()...)
	}
	return cmds
}

// route hands msg to its owner.
func (m *Model) route(msg tea.Msg) []tea.Cmd {
	for _, r := range routes {
		if cmds, ok := r(m, msg); ok {
			return cmds
		}
	}
	// Cursor blinks and other widget-internal messages.
	return m.editorMsg(msg)
}

// terminalMsg handles what the terminal sends: its size, its background,
// keys, pastes and the mouse.
func (m *Model) terminalMsg(msg tea.Msg) ([]tea.Cmd, bool) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		return nil, true
	case tea.BackgroundColorMsg:
		m.settings.termDark = msg.IsDark()
		m.applyTheme()
		return nil, true
	case tea.KeyPressMsg:
		return m.handleKey(msg), true
	case tea.PasteMsg:
		return m.handlePaste(msg), true
	case tea.MouseClickMsg:
		return m.handleClick(msg.Mouse()), true
	case tea.MouseReleaseMsg:
		return m.handleRelease(msg.Mouse()), true
	case tea.MouseMotionMsg:
		return m.handleMotion(msg.Mouse()), true
	case tea.MouseWheelMsg:
		return m.handleWheel(msg.Mouse()), true
	}
	return nil, false
}

// applyTheme draws in the colours of the theme setting: the terminal's
// background when it follows the terminal (docs/design.md §10 "colours
// adapt"), else light or dark whatever the terminal says.
func (m *Model) applyTheme() {
	dark := m.settings.dark()
	if dark == m.env.th.dark {
		return
	}
	m.env.th = newTheme(dark)
	m.env.gen++ // every render key holds gen: all caches redraw
	m.input.applyTheme(&m.env)
}
