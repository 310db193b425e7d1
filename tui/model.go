package tui

import (
	"fmt"
	"os"
	"strings"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/pullcept/pullcept/room"
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

// overlay is a modal layer over the screen; it takes every key.
type overlay int

const (
	ovNone overlay = iota
	ovHelp
	ovPicker
	ovDialog
	ovEditor
)

// statusLevel colours the status line.
type statusLevel int

const (
	stInfo statusLevel = iota
	stWarn
	stError
)

// seatOp is one ordered write to a seat: key bytes or a resize. Ops run in
// order in a single command at a time so keystrokes never overtake each
// other (Bubble Tea runs commands concurrently).
type seatOp struct {
	key        paneKey
	input      []byte
	resize     bool
	cols, rows int
}

// Model is the root Bubble Tea model (STYLE §2): it owns focus, layout,
// routing and every widget. Update does no I/O; every Backend call runs in
// a tea.Cmd whose result comes back as a …Msg to its owner by id.
type Model struct {
	b    Backend
	opts Options
	keys KeyMap
	e    env

	screenGen uint64 // the last screen generation the bridge reported

	w, h int
	ls   layoutState
	lay  screenLayout

	focus     Focus
	focusPane paneKey

	ov     overlay
	picker *topicPicker
	dialog *confirmDialog
	editor *accountEditor

	topic  string
	chat   *chat
	input  *inputBar
	topics *topicList
	parts  *participants

	accounts []AccountInfo
	found    map[string]string
	home     string
	roster   map[string][]room.Member
	seats    map[string]SeatInfo // open topic's seats by account
	starting map[paneKey]bool
	failed   map[paneKey]string

	panes     map[paneKey]*pane
	showPanes bool

	statusText  string
	statusLevel statusLevel

	spin     spinner.Model
	spinning bool

	snapBusy, snapDirty     bool
	seatsBusy, seatsDirty   bool
	topicsBusy, topicsDirty bool
	ops                     []seatOp
	opsBusy                 bool
	quitting                bool
	helpOff                 int
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
		b:        b,
		opts:     opts,
		keys:     keys,
		ls:       layoutState{showTopics: true, showParticipants: true, paneShare: paneShareDefault, inputRows: 1},
		chat:     newChat(),
		topics:   newTopicList(),
		parts:    &participants{dirty: true},
		found:    map[string]string{},
		roster:   map[string][]room.Member{},
		seats:    map[string]SeatInfo{},
		starting: map[paneKey]bool{},
		failed:   map[paneKey]string{},
		panes:    map[paneKey]*pane{},
		spin:     spinner.New(spinner.WithSpinner(spinner.MiniDot)),
	}
	m.e = env{
		th:       newTheme(!opts.LightBackground),
		tr:       catalog{lang: lang},
		keys:     &m.keys,
		loc:      opts.Location,
		now:      opts.Now,
		selfName: "human",
	}
	m.input = newInputBar(&m.e, &m.keys)
	m.input.setFocus(true)
	m.chat.loading = true
	return m, nil
}

// Init starts the bridge waits and the first loads.
func (m *Model) Init() tea.Cmd {
	start := m.newTopicCmd()
	if m.opts.StartTopic != "" {
		m.topic = m.opts.StartTopic
		m.topics.open = m.topic
		start = m.openTopicCmd(m.topic)
	}
	return tea.Batch(
		waitEvents(m.b),
		waitScreens(m.b, m.screenGen),
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

func (m *Model) setStatus(level statusLevel, text string) {
	m.statusText, m.statusLevel = text, level
}

// clearWelcome drops the new-topic hint once it no longer applies (another
// topic opened, or the first post named this one); every other status stays
// until a newer one replaces it.
func (m *Model) clearWelcome() {
	if m.statusText == m.e.tr.t(mStWelcome) {
		m.statusText = ""
	}
}

func (m *Model) handle(msg tea.Msg) []tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		return nil
	case tea.BackgroundColorMsg:
		if msg.IsDark() != m.e.th.dark {
			m.e.th = newTheme(msg.IsDark())
			m.e.gen++
			m.input.applyTheme(&m.e)
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
		if !m.anyStarting() {
			m.spinning = false
			return nil
		}
		var cmd tea.Cmd
		m.spin, cmd = m.spin.Update(msg)
		m.parts.dirty = true
		return []tea.Cmd{cmd}

	case eventsMsg:
		cmds := []tea.Cmd{waitEvents(m.b)}
		for _, ev := range msg.evs {
			cmds = append(cmds, m.onEvent(ev)...)
		}
		return cmds
	case eventsClosedMsg:
		m.setStatus(stError, m.e.tr.t(mStRoomClosed))
		return nil
	case screenChangedMsg:
		m.screenGen = msg.gen
		return []tea.Cmd{waitScreens(m.b, m.screenGen), m.snapshotCmd()}
	}
	return m.handleDone(msg)
}

// invalidate drops every render cache (theme, language or self changed).
func (m *Model) invalidate() {
	m.chat.dirty = true
	m.input.dirty = true
	m.topics.dirty = true
	m.parts.dirty = true
}

// onEvent applies one event; room events for other topics only touch the
// topic list (unread marker, order), and the status line says what happened
// to seats (never silent).
func (m *Model) onEvent(ev Event) []tea.Cmd {
	tr := m.e.tr
	switch ev := ev.(type) {
	case PostDelivered:
		if ev.Topic == m.topic {
			m.clearWelcome()
		}
		at, ok := postTime(ev.Post, m.e.loc)
		if !ok {
			at = m.e.now()
		}
		var cmds []tea.Cmd
		if !m.topics.touch(ev.Topic, at) {
			cmds = append(cmds, m.loadTopicsCmd())
		}
		if ev.Topic == m.topic {
			m.chat.add(&m.e, ev.Post)
		} else {
			m.topics.unread[ev.Topic] = true
			m.topics.dirty = true
		}
		return cmds
	case LogFailed:
		m.setStatus(stError, tr.t(mStLogFailed, m.topics.nameOf(&m.e, ev.Topic), ev.Err))
	case RosterChanged:
		m.roster[ev.Topic] = ev.Roster
		if ev.Topic == m.topic {
			m.input.refreshCompletion(ev.Roster, m.e.selfName)
			m.input.dirty = true
			m.parts.dirty = true
		}
	case SeatReported:
		if ev.Topic == m.topic {
			return []tea.Cmd{m.seatsCmd()}
		}
	case SeatChanged:
		return m.onSeatChanged(ev)
	case LinesSkipped:
		m.setStatus(stWarn, tr.t(mStSkipped, ev.Count, m.topics.nameOf(&m.e, ev.Topic)))
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
	m.setStatus(stWarn, m.e.tr.t(mStResynced))
	m.chat = newChat()
	m.chat.loading = true
	m.chat.focused = m.focus == FocusChat
	return []tea.Cmd{m.loadTopicsCmd(), m.loadAccountsCmd(), m.openTopicCmd(m.topic)}
}

// onSeatChanged applies a seat's state change.
func (m *Model) onSeatChanged(ev SeatChanged) []tea.Cmd {
	tr := m.e.tr
	name := m.accountName(ev.Account)
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
	if ev.Topic == m.topic {
		if ev.State == SeatExited && !ev.Requested {
			// Its last output says why it fell (spec «診断面»).
			m.showPanes = true
		}
		cmds = append(cmds, m.seatsCmd())
	}
	return cmds
}

func (m *Model) accountName(id string) string {
	for _, a := range m.accounts {
		if a.ID == id {
			return displayAccountName(a)
		}
	}
	return id
}

func (m *Model) account(id string) (AccountInfo, bool) {
	for _, a := range m.accounts {
		if a.ID == id {
			return a, true
		}
	}
	return AccountInfo{}, false
}

// setAccounts stores the account list and who "self" is.
func (m *Model) setAccounts(accs []AccountInfo) {
	m.accounts = accs
	self, hue := "human", (*int)(nil)
	if a, ok := m.account(m.opts.AdminID); ok {
		self, hue = displayAccountName(a), a.Hue
	}
	if self != m.e.selfName || !sameHue(hue, m.e.selfHue) {
		m.e.selfName, m.e.selfHue = self, hue
		m.e.gen++
		m.invalidate()
	}
	for k, p := range m.panes {
		if a, ok := m.account(k.account); ok {
			p.name = displayAccountName(a)
			p.hue = speakerHue(a.Hue, p.name, "", nil)
		}
	}
	m.parts.dirty = true
}

func sameHue(a, b *int) bool {
	return (a == nil && b == nil) || (a != nil && b != nil && *a == *b)
}

// partData gathers what the participant panel draws for the open topic.
func (m *Model) partData() *partData {
	d := &partData{
		accounts: m.accounts,
		roster:   m.roster[m.topic],
		seats:    m.seats,
		starting: map[string]bool{},
		failed:   map[string]string{},
		adminID:  m.opts.AdminID,
		found:    m.found,
	}
	for k := range m.starting {
		if k.topic == m.topic {
			d.starting[k.account] = true
		}
	}
	for k, v := range m.failed {
		if k.topic == m.topic {
			d.failed[k.account] = v
		}
	}
	return d
}

func (m *Model) anyStarting() bool {
	return len(m.starting) > 0
}

// visiblePanes lists the open topic's panes in participant order when the
// pane area is shown.
func (m *Model) visiblePanes() []paneKey {
	if !m.showPanes {
		return nil
	}
	return m.topicPanes()
}

func (m *Model) topicPanes() []paneKey {
	var out []paneKey
	for _, r := range m.partData().rows() {
		if r.account == nil {
			continue
		}
		k := paneKey{m.topic, r.account.ID}
		if _, ok := m.panes[k]; ok {
			out = append(out, k)
		}
	}
	for k := range m.panes {
		if k.topic == m.topic {
			if _, known := m.account(k.account); !known {
				out = append(out, k)
			}
		}
	}
	return out
}

// syncPanes keeps one pane per seat of the open topic (starting, running or
// exited with output to read).
func (m *Model) syncPanes() {
	live := map[paneKey]bool{}
	for acc, s := range m.seats {
		if s.State == SeatOffline || s.State == SeatFailed {
			continue
		}
		k := paneKey{m.topic, acc}
		live[k] = true
		p, ok := m.panes[k]
		if !ok {
			name := m.accountName(acc)
			hue := nameHue(name)
			if a, ok := m.account(acc); ok {
				hue = speakerHue(a.Hue, name, "", nil)
			}
			p = &pane{key: k, name: name, hue: hue}
			m.panes[k] = p
		}
		p.state, p.exit = s.State, s.ExitCode
	}
	for k := range m.panes {
		if k.topic == m.topic && !live[k] {
			delete(m.panes, k)
		}
	}
	if m.focus == FocusPane {
		if _, ok := m.panes[m.focusPane]; !ok || !m.showPanes {
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
	m.parts.focused = f == FocusParticipants
	m.parts.dirty = true
	if f == FocusChat && m.chat.sel < 0 {
		m.chat.sel = len(m.chat.items) - 1
	}
	return m.input.setFocus(f == FocusInput)
}

// focusOrder is the Tab cycle: input, chat, topics, accounts, then each
// visible pane.
func (m *Model) focusOrder() []struct {
	f Focus
	k paneKey
} {
	type fk = struct {
		f Focus
		k paneKey
	}
	out := []fk{{FocusInput, paneKey{}}, {FocusChat, paneKey{}}}
	if !m.lay.Topics.empty() {
		out = append(out, fk{FocusTopics, paneKey{}})
	}
	if !m.lay.Participants.empty() {
		out = append(out, fk{FocusParticipants, paneKey{}})
	}
	if len(m.lay.Panes) > 0 {
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
	m.ls.panes = len(vis)
	m.lay = layout(m.w, m.h, m.ls)
	m.input.setWidth(m.lay.Input.W)
	if r := m.input.rows(); r != m.ls.inputRows {
		m.ls.inputRows = r
		m.lay = layout(m.w, m.h, m.ls)
	}
	m.chat.setSize(m.lay.Chat.W, m.lay.Chat.H)
	if m.topics.w != m.lay.Topics.W || m.topics.h != m.lay.Topics.H {
		m.topics.w, m.topics.h, m.topics.dirty = m.lay.Topics.W, m.lay.Topics.H, true
	}
	if m.parts.w != m.lay.Participants.W || m.parts.h != m.lay.Participants.H {
		m.parts.w, m.parts.h, m.parts.dirty = m.lay.Participants.W, m.lay.Participants.H, true
	}
	if m.focus == FocusTopics && m.lay.Topics.empty() || m.focus == FocusParticipants && m.lay.Participants.empty() ||
		m.focus == FocusPane && len(m.lay.Panes) == 0 {
		cmds = append(cmds, m.setFocus(FocusInput))
	}
	for i, k := range vis {
		if i >= len(m.lay.Panes) {
			break
		}
		p := m.panes[k]
		cols, rows := innerSize(m.lay.Panes[i])
		if (p.cols != cols || p.rows != rows) && p.state != SeatExited {
			p.cols, p.rows = cols, rows
			m.ops = append(m.ops, seatOp{key: k, resize: true, cols: cols, rows: rows})
		}
	}
	cmds = append(cmds, m.flushOps())
	if m.anyStarting() && !m.spinning {
		m.spinning = true
		cmds = append(cmds, m.spin.Tick)
	}
	frame := ""
	if m.spinning && m.anyStarting() {
		frame = m.spin.View() + " "
	}
	if frame != m.parts.frame {
		m.parts.frame, m.parts.dirty = frame, true
	}

	for i, k := range vis {
		if i < len(m.lay.Panes) {
			m.panes[k].render(&m.e, m.lay.Panes[i], m.focus == FocusPane && m.focusPane == k)
		}
	}
	m.chat.render(&m.e)
	m.input.render(&m.e, m.lay.Input.H)
	m.topics.render(&m.e)
	m.parts.render(&m.e, m.partData())
	return cmds
}

// prospectiveSize is the PTY size a new seat of the open topic gets: the
// size its pane will have once shown (spec «診断面»: the PTY starts at the
// pane's size even while the area is folded).
func (m *Model) prospectiveSize() (cols, rows int) {
	s := m.ls
	s.panes = len(m.topicPanes()) + 1
	l := layout(m.w, m.h, s)
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
	v.WindowTitle = "Pullcept — " + m.topics.nameOf(&m.e, m.topic)
	if m.w <= 0 || m.h <= 0 || m.quitting {
		return v
	}
	blocks := make([]placed, 0, 8)
	add := func(r rect, lines []string) {
		if !r.empty() && len(lines) == r.H {
			blocks = append(blocks, placed{r, lines})
		}
	}
	add(m.lay.Topics, m.topics.view)
	add(m.lay.Chat, m.chat.view)
	add(m.lay.Participants, m.parts.view)
	add(m.lay.Input, m.input.view)
	vis := m.visiblePanes()
	for i, k := range vis {
		if i < len(m.lay.Panes) {
			add(m.lay.Panes[i], m.panes[k].view)
		}
	}
	add(m.lay.Status, []string{m.statusView()})
	content := compose(m.w, m.h, blocks)

	var layers []*lipgloss.Layer
	switch m.ov {
	case ovHelp:
		layers = append(layers, centred(helpView(&m.e, m.w, m.h, m.helpOff), m.w, m.h))
	case ovPicker:
		layers = append(layers, centred(m.picker.view(&m.e, min(m.w, 72), min(m.h, 20)), m.w, m.h))
	case ovDialog:
		layers = append(layers, centred(m.dialog.view(&m.e, m.w), m.w, m.h))
	case ovEditor:
		layers = append(layers, centred(m.editor.view(&m.e, m.w, m.h), m.w, m.h))
	}
	if m.ov == ovNone && m.focus == FocusInput {
		if box, atX := m.input.popupView(&m.e); box != "" {
			bh := lipgloss.Height(box)
			x := clampInt(m.lay.Input.X+atX, 0, max(m.w-lipgloss.Width(box), 0))
			y := max(m.lay.Input.Y-bh+1, 0)
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
	if m.ov != ovNone {
		return nil
	}
	switch m.focus {
	case FocusInput:
		if x, y, ok := m.input.caret(); ok {
			c := tea.NewCursor(m.lay.Input.X+x, m.lay.Input.Y+y)
			c.Blink = false
			return c
		}
	case FocusPane:
		for i, k := range m.visiblePanes() {
			if k == m.focusPane && i < len(m.lay.Panes) {
				if x, y, ok := m.panes[k].cursor(m.lay.Panes[i]); ok {
					c := tea.NewCursor(x, y)
					c.Blink = false
					return c
				}
			}
		}
	}
	return nil
}

// statusView is the bottom line: the latest status on the left, the open
// topic, how many sit in its room, and the help key on the right.
func (m *Model) statusView() string {
	th := m.e.th
	right := m.topics.nameOf(&m.e, m.topic)
	if n := len(m.roster[m.topic]); n > 0 {
		right += " · " + fmt.Sprint(n)
	}
	right += " · " + m.e.tr.t(mStHelpHint) + " "
	rw := ansi.StringWidth(right)
	leftW := max(m.w-rw-1, 0)
	st := th.text
	switch m.statusLevel {
	case stWarn:
		st = th.accentS
	case stError:
		st = th.dangerS
	}
	left := " " + strings.ReplaceAll(m.statusText, "\n", " ")
	if leftW < 8 {
		return fit(st.Render(left), m.w)
	}
	return fit(st.Render(fit(left, leftW)), leftW) + " " + th.dim.Render(right)
}
