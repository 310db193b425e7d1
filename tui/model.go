package tui

import (
	"fmt"
	"os"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
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
	// Getenv reads the locale variables; default os.Getenv.
	Getenv func(string) string
	// StartTopic opens this topic at startup instead of a new one.
	StartTopic string
	// LightBackground starts with light colours until the terminal reports
	// its background (tea.BackgroundColorMsg).
	LightBackground bool
}

// Focus is what receives keys (STYLE §2: a typed enum plus the focused id).
type Focus int

// Focus targets. FocusPane carries the pane's (topic, account) alongside.
const (
	FocusInput Focus = iota
	FocusChat
	FocusTopics
	FocusParticipants
	FocusPane
)

// Model is the root Bubble Tea model (docs/design.md §14): it owns focus,
// layout and routing; the features below own their state and are driven
// through their methods. Update does no I/O: every Backend call runs in a
// tea.Cmd whose result comes back as a …Msg to its owner by id.
type Model struct {
	backend Backend // the domain; only commands call it
	opts    Options
	keys    KeyMap
	env     env // what widgets read to render: theme, text, clock, self

	width, height int          // the terminal's size in cells
	layoutState   layoutState  // everything besides the size that moves rectangles
	layout        screenLayout // layout(width, height, layoutState) after the last message

	focus     Focus   // what receives keys
	focusPane seatKey // the pane that has them while focus is FocusPane

	overlay  overlays    // the modal layer: help, topic finder, dialog, editor
	topics   *topicList  // the topic list, which also knows the open topic
	chat     *chat       // the open topic's conversation
	input    *inputBar   // the composer and its @ popup
	accounts accountBook // accounts, rosters and the participant panel
	seats    seatArea    // the open topic's seats and their panes
	status   statusLine  // the bottom line's latest report

	quitting bool // Quit is on its way: View draws nothing more
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
	m := &Model{
		backend:     b,
		opts:        opts,
		keys:        keys,
		layoutState: layoutState{showTopics: true, showParticipants: true, paneShare: paneShareDefault, inputRows: 1},
		chat:        newChat(),
		topics:      newTopicList(),
		accounts:    newAccountBook(),
		seats:       newSeatArea(),
	}
	m.env = env{
		th:       newTheme(!opts.LightBackground),
		tr:       catalog{lang: lang},
		keys:     &m.keys,
		loc:      opts.Location,
		now:      opts.Now,
		selfName: "human",
	}
	m.input = newInputBar(&m.env, &m.keys)
	m.input.setFocus(true)
	m.chat.loading = true
	return m, nil
}

// Init starts the bridge waits and the first loads.
func (m *Model) Init() tea.Cmd {
	start := m.newTopicCmd()
	if m.opts.StartTopic != "" {
		m.topics.open = m.opts.StartTopic
		start = m.openTopicCmd(m.topics.open)
	}
	return tea.Batch(
		waitEvents(m.backend),
		waitScreens(m.backend, m.seats.screenGen),
		m.loadTopicsCmd(),
		m.loadAccountsCmd(),
		m.lookPathCmd(),
		start,
		tea.RequestBackgroundColor,
	)
}

// Update routes one message; see the package doc for the rules.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmds := m.handle(msg)
	cmds = append(cmds, m.afterUpdate()...)
	return m, tea.Batch(cmds...)
}

func (m *Model) handle(msg tea.Msg) []tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		return nil
	case tea.BackgroundColorMsg:
		if msg.IsDark() != m.env.th.dark {
			m.env.th = newTheme(msg.IsDark())
			m.env.gen++
			m.input.applyTheme(&m.env)
			m.invalidate()
		}
		return nil
	case tea.KeyPressMsg:
		return m.handleKey(msg)
	case tea.PasteMsg:
		return m.handlePaste(msg)
	case tea.MouseClickMsg:
		return m.handleClick(msg.Mouse())
	case tea.MouseWheelMsg:
		return m.handleWheel(msg.Mouse())
	case spinner.TickMsg:
		if !m.seats.anyStarting() {
			m.seats.spinning = false
			return nil
		}
		var cmd tea.Cmd
		m.seats.spin, cmd = m.seats.spin.Update(msg)
		m.accounts.panel.dirty = true
		return []tea.Cmd{cmd}

	case eventsMsg:
		cmds := []tea.Cmd{waitEvents(m.backend)}
		for _, ev := range msg.evs {
			cmds = append(cmds, m.onEvent(ev)...)
		}
		return cmds
	case eventsClosedMsg:
		m.setStatus(stError, m.env.tr.t(mStRoomClosed))
		return nil
	case screenChangedMsg:
		m.seats.screenGen = msg.gen
		return []tea.Cmd{waitScreens(m.backend, m.seats.screenGen), m.snapshotCmd()}
	}
	return m.handleDone(msg)
}

// invalidate drops every render cache (theme, language or self changed).
func (m *Model) invalidate() {
	m.chat.dirty = true
	m.input.dirty = true
	m.topics.dirty = true
	m.accounts.panel.dirty = true
}

// onEvent applies one event; room events for other topics only touch the
// topic list (unread marker, order), and the status line says what happened
// to seats (never silent).
func (m *Model) onEvent(ev Event) []tea.Cmd {
	tr := m.env.tr
	switch ev := ev.(type) {
	case PostDelivered:
		if ev.Topic == m.topics.open {
			m.clearWelcome()
		}
		at, ok := postTime(ev.Post, m.env.loc)
		if !ok {
			at = m.env.now()
		}
		var cmds []tea.Cmd
		if !m.topics.touch(ev.Topic, at) {
			cmds = append(cmds, m.loadTopicsCmd())
		}
		if ev.Topic == m.topics.open {
			m.chat.add(&m.env, ev.Post)
		} else {
			m.topics.unread[ev.Topic] = true
			m.topics.dirty = true
		}
		return cmds
	case LogFailed:
		m.setStatus(stError, tr.t(mStLogFailed, m.topics.nameOf(&m.env, ev.Topic), ev.Err))
	case RosterChanged:
		m.accounts.rosters[ev.Topic] = ev.Roster
		if ev.Topic == m.topics.open {
			m.input.refreshCompletion(ev.Roster, m.env.selfName)
			m.input.dirty = true
			m.accounts.panel.dirty = true
		}
	case SeatReported:
		if ev.Topic == m.topics.open {
			return []tea.Cmd{m.seatsCmd()}
		}
	case SeatChanged:
		return m.onSeatChanged(ev)
	case LinesSkipped:
		m.setStatus(stWarn, tr.t(mStSkipped, ev.Count, m.topics.nameOf(&m.env, ev.Topic)))
	case Notice:
		lvl := stInfo
		if ev.Error {
			lvl = stError
		}
		m.setStatus(lvl, sanitize(ev.Text))
	case Resynced:
		return m.resync()
	}
	return nil
}

// resync reloads everything the UI derived from the event stream after
// events were lost (Resynced): the lists, the open topic and its seats.
func (m *Model) resync() []tea.Cmd {
	m.setStatus(stWarn, m.env.tr.t(mStResynced))
	m.chat = newChat()
	m.chat.loading = true
	m.chat.focused = m.focus == FocusChat
	return []tea.Cmd{m.loadTopicsCmd(), m.loadAccountsCmd(), m.openTopicCmd(m.topics.open)}
}

// onSeatChanged applies a seat's state change.
func (m *Model) onSeatChanged(ev SeatChanged) []tea.Cmd {
	tr := m.env.tr
	name := m.accounts.name(ev.Account)
	if ev.State == SeatStarting || ev.State == SeatRunning {
		m.topics.setRunning(ev.Topic, true)
	}
	// A seat's first start indexes a topic that had no post yet (lazy
	// creation, DESIGN §8): reload so it is listed and reachable.
	cmds := []tea.Cmd{m.loadTopicsCmd()}
	switch {
	case ev.State == SeatExited && ev.Requested:
		m.setStatus(stInfo, tr.t(mStStopped, name))
	case ev.State == SeatExited && ev.Err != "":
		m.setStatus(stError, tr.t(mStExitedErr, name, ev.Err))
	case ev.State == SeatExited:
		m.setStatus(stError, tr.t(mStExited, name, ev.ExitCode))
	case ev.State == SeatFailed:
		m.setStatus(stError, tr.t(mStFailed, name, ev.Err))
	}
	if ev.Topic == m.topics.open {
		if ev.State == SeatExited && !ev.Requested {
			// Its last output says why it fell (spec «診断面»).
			m.seats.shown = true
		}
		cmds = append(cmds, m.seatsCmd())
	}
	return cmds
}

// setAccounts stores the account list and who "self" is.
func (m *Model) setAccounts(accs []AccountInfo) {
	m.accounts.list = accs
	self, hue := "human", (*int)(nil)
	if a, ok := m.accounts.find(m.opts.AdminID); ok {
		self, hue = displayAccountName(a), a.Hue
	}
	if self != m.env.selfName || !sameHue(hue, m.env.selfHue) {
		m.env.selfName, m.env.selfHue = self, hue
		m.env.gen++
		m.invalidate()
	}
	for k, p := range m.seats.panes {
		if a, ok := m.accounts.find(k.account); ok {
			p.name = displayAccountName(a)
			p.hue = speakerHue(a.Hue, p.name, "", nil)
		}
	}
	m.accounts.panel.dirty = true
}

func sameHue(a, b *int) bool {
	return (a == nil && b == nil) || (a != nil && b != nil && *a == *b)
}

// partData gathers what the participant panel draws for the open topic.
func (m *Model) partData() *partData {
	d := &partData{
		accounts: m.accounts.list,
		roster:   m.accounts.rosters[m.topics.open],
		seats:    m.seats.infos,
		starting: map[string]bool{},
		failed:   map[string]string{},
		adminID:  m.opts.AdminID,
		found:    m.accounts.found,
	}
	for k := range m.seats.starting {
		if k.topic == m.topics.open {
			d.starting[k.account] = true
		}
	}
	for k, v := range m.seats.failed {
		if k.topic == m.topics.open {
			d.failed[k.account] = v
		}
	}
	return d
}

// visiblePanes lists the open topic's panes in participant order when the
// pane area is shown.
func (m *Model) visiblePanes() []seatKey {
	if !m.seats.shown {
		return nil
	}
	return m.topicPanes()
}

func (m *Model) topicPanes() []seatKey {
	var out []seatKey
	for _, r := range m.partData().rows() {
		if r.account == nil {
			continue
		}
		k := seatKey{m.topics.open, r.account.ID}
		if _, ok := m.seats.panes[k]; ok {
			out = append(out, k)
		}
	}
	for k := range m.seats.panes {
		if k.topic == m.topics.open {
			if _, known := m.accounts.find(k.account); !known {
				out = append(out, k)
			}
		}
	}
	return out
}

// syncPanes keeps one pane per seat of the open topic (starting, running or
// exited with output to read).
func (m *Model) syncPanes() {
	live := map[seatKey]bool{}
	for acc, s := range m.seats.infos {
		if s.State == SeatOffline || s.State == SeatFailed {
			continue
		}
		k := seatKey{m.topics.open, acc}
		live[k] = true
		p, ok := m.seats.panes[k]
		if !ok {
			name := m.accounts.name(acc)
			hue := nameHue(name)
			if a, ok := m.accounts.find(acc); ok {
				hue = speakerHue(a.Hue, name, "", nil)
			}
			p = &pane{key: k, name: name, hue: hue}
			m.seats.panes[k] = p
		}
		p.state, p.exit = s.State, s.ExitCode
	}
	for k := range m.seats.panes {
		if k.topic == m.topics.open && !live[k] {
			delete(m.seats.panes, k)
		}
	}
	if m.focus == FocusPane {
		if _, ok := m.seats.panes[m.focusPane]; !ok || !m.seats.shown {
			m.setFocus(FocusInput)
		}
	}
}

// setFocus moves keyboard focus; the input bar's textarea follows.
func (m *Model) setFocus(f Focus) tea.Cmd {
	m.focus = f
	m.chat.focused = f == FocusChat
	m.chat.dirty = true
	m.topics.focused = f == FocusTopics
	m.topics.dirty = true
	m.accounts.panel.focused = f == FocusParticipants
	m.accounts.panel.dirty = true
	if f == FocusChat && m.chat.sel < 0 {
		m.chat.sel = len(m.chat.items) - 1
	}
	return m.input.setFocus(f == FocusInput)
}

// focusOrder is the Tab cycle: input, chat, topics, accounts, then each
// visible pane.
func (m *Model) focusOrder() []struct {
	f Focus
	k seatKey
} {
	type fk = struct {
		f Focus
		k seatKey
	}
	out := []fk{{FocusInput, seatKey{}}, {FocusChat, seatKey{}}}
	if !m.layout.Topics.empty() {
		out = append(out, fk{FocusTopics, seatKey{}})
	}
	if !m.layout.Participants.empty() {
		out = append(out, fk{FocusParticipants, seatKey{}})
	}
	if len(m.layout.Panes) > 0 {
		for _, k := range m.visiblePanes() {
			out = append(out, fk{FocusPane, k})
		}
	}
	return out
}

func (m *Model) cycleFocus(delta int) tea.Cmd {
	order := m.focusOrder()
	i := 0
	for j, o := range order {
		if o.f == m.focus && (o.f != FocusPane || o.k == m.focusPane) {
			i = j
		}
	}
	next := order[(i+delta+len(order))%len(order)]
	m.focusPane = next.k
	return m.setFocus(next.f)
}

// afterUpdate lays the screen out, asks seats to follow pane sizes, and
// re-renders dirty widgets into their caches so View only assembles.
func (m *Model) afterUpdate() []tea.Cmd {
	var cmds []tea.Cmd
	vis := m.visiblePanes()
	m.layoutState.panes = len(vis)
	m.layout = layout(m.width, m.height, m.layoutState)
	m.input.setWidth(m.layout.Input.W)
	if r := m.input.rows(); r != m.layoutState.inputRows {
		m.layoutState.inputRows = r
		m.layout = layout(m.width, m.height, m.layoutState)
	}
	m.chat.setSize(m.layout.Chat.W, m.layout.Chat.H)
	if m.topics.w != m.layout.Topics.W || m.topics.h != m.layout.Topics.H {
		m.topics.w, m.topics.h, m.topics.dirty = m.layout.Topics.W, m.layout.Topics.H, true
	}
	if m.accounts.panel.w != m.layout.Participants.W || m.accounts.panel.h != m.layout.Participants.H {
		m.accounts.panel.w, m.accounts.panel.h, m.accounts.panel.dirty = m.layout.Participants.W, m.layout.Participants.H, true
	}
	if m.focus == FocusTopics && m.layout.Topics.empty() || m.focus == FocusParticipants && m.layout.Participants.empty() ||
		m.focus == FocusPane && len(m.layout.Panes) == 0 {
		cmds = append(cmds, m.setFocus(FocusInput))
	}
	for i, k := range vis {
		if i >= len(m.layout.Panes) {
			break
		}
		p := m.seats.panes[k]
		cols, rows := innerSize(m.layout.Panes[i])
		if (p.cols != cols || p.rows != rows) && p.state != SeatExited {
			p.cols, p.rows = cols, rows
			m.seats.writes = append(m.seats.writes, seatOp{seat: k, resize: true, cols: cols, rows: rows})
		}
	}
	cmds = append(cmds, m.flushOps())
	if m.seats.anyStarting() && !m.seats.spinning {
		m.seats.spinning = true
		cmds = append(cmds, m.seats.spin.Tick)
	}
	frame := ""
	if m.seats.spinning && m.seats.anyStarting() {
		frame = m.seats.spin.View() + " "
	}
	if frame != m.accounts.panel.frame {
		m.accounts.panel.frame, m.accounts.panel.dirty = frame, true
	}

	for i, k := range vis {
		if i < len(m.layout.Panes) {
			m.seats.panes[k].render(&m.env, m.layout.Panes[i], m.focus == FocusPane && m.focusPane == k)
		}
	}
	m.chat.render(&m.env)
	m.input.render(&m.env, m.layout.Input.H)
	m.topics.render(&m.env)
	m.accounts.panel.render(&m.env, m.partData())
	return cmds
}

// prospectiveSize is the PTY size a new seat of the open topic gets: the
// size its pane will have once shown (spec «診断面»: the PTY starts at the
// pane's size even while the area is folded).
func (m *Model) prospectiveSize() (cols, rows int) {
	s := m.layoutState
	s.panes = len(m.topicPanes()) + 1
	l := layout(m.width, m.height, s)
	if len(l.Panes) == 0 {
		return 80, 24
	}
	return innerSize(l.Panes[len(l.Panes)-1])
}

// View assembles the cached widget strings into the screen; overlays are
// composited with the Lip Gloss compositor. It never renders widgets.
func (m *Model) View() tea.View {
	var v tea.View
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "Pullcept — " + m.topics.nameOf(&m.env, m.topics.open)
	if m.width <= 0 || m.height <= 0 || m.quitting {
		return v
	}
	blocks := make([]placed, 0, 8)
	add := func(r rect, lines []string) {
		if !r.empty() && len(lines) == r.H {
			blocks = append(blocks, placed{r, lines})
		}
	}
	add(m.layout.Topics, m.topics.view)
	add(m.layout.Chat, m.chat.view)
	add(m.layout.Participants, m.accounts.panel.view)
	add(m.layout.Input, m.input.view)
	vis := m.visiblePanes()
	for i, k := range vis {
		if i < len(m.layout.Panes) {
			add(m.layout.Panes[i], m.seats.panes[k].view)
		}
	}
	add(m.layout.Status, []string{m.statusView()})
	content := compose(m.width, m.height, blocks)

	var layers []*lipgloss.Layer
	switch m.overlay.open {
	case ovHelp:
		layers = append(layers, centred(helpView(&m.env, m.width, m.height, m.overlay.helpOff), m.width, m.height))
	case ovPicker:
		layers = append(layers, centred(m.overlay.picker.view(&m.env, min(m.width, 72), min(m.height, 20)), m.width, m.height))
	case ovDialog:
		layers = append(layers, centred(m.overlay.dialog.view(&m.env, m.width), m.width, m.height))
	case ovEditor:
		layers = append(layers, centred(m.overlay.editor.view(&m.env, m.width, m.height), m.width, m.height))
	}
	if m.overlay.open == ovNone && m.focus == FocusInput {
		if box, atX := m.input.popupView(&m.env); box != "" {
			bh := lipgloss.Height(box)
			x := clampInt(m.layout.Input.X+atX, 0, max(m.width-lipgloss.Width(box), 0))
			y := max(m.layout.Input.Y-bh+1, 0)
			layers = append(layers, lipgloss.NewLayer(box).X(x).Y(y).Z(1))
		}
	}
	if len(layers) > 0 {
		base := lipgloss.NewLayer(content)
		content = lipgloss.NewCompositor(append([]*lipgloss.Layer{base}, layers...)...).Render()
	}
	v.SetContent(content)
	v.Cursor = m.cursor()
	return v
}

func centred(box string, w, h int) *lipgloss.Layer {
	bw, bh := lipgloss.Size(box)
	return lipgloss.NewLayer(box).X(max((w-bw)/2, 0)).Y(max((h-bh)/2, 0)).Z(2)
}

// cursor places the real terminal cursor: at the input caret (so an IME
// candidate window follows it) or at the focused seat's cursor.
func (m *Model) cursor() *tea.Cursor {
	if m.overlay.open != ovNone {
		return nil
	}
	switch m.focus {
	case FocusInput:
		if x, y, ok := m.input.caret(); ok {
			c := tea.NewCursor(m.layout.Input.X+x, m.layout.Input.Y+y)
			c.Blink = false
			return c
		}
	case FocusPane:
		for i, k := range m.visiblePanes() {
			if k == m.focusPane && i < len(m.layout.Panes) {
				if x, y, ok := m.seats.panes[k].cursor(m.layout.Panes[i]); ok {
					c := tea.NewCursor(x, y)
					c.Blink = false
					return c
				}
			}
		}
	}
	return nil
}
