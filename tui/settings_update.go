package tui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// How the root model drives the settings overlay (settings.go): its keys,
// the settings in force, their saves, and the layout the screen remembers
// (docs/design.md §10 "Settings").

// settingsState is the settings in force and their saves. It lives as long
// as the model: the overlay only shows and changes it.
type settingsState struct {
	info    SettingsInfo // as last read, with the changes made since
	loaded  bool         // info was read once
	loadErr string       // why the last read failed ("" none)

	theme    string // the theme setting in force (Options.Theme, then the overlay's)
	termDark bool   // the terminal's background is dark, as it last said

	// One SaveSettings runs at a time, with the values as they were when
	// it began: a change meanwhile saves again after it (again), so the
	// last change is the one the file keeps.
	saving, again bool

	// view is the layout last handed to RememberView; one runs at a time
	// (viewBusy), and afterUpdate hands it the layout again when it moved.
	view     ViewState
	viewBusy bool
}

// dark is whether the screen draws in dark colours now.
func (s *settingsState) dark() bool {
	switch s.theme {
	case ThemeLight:
		return false
	case ThemeDark:
		return true
	}
	return s.termDark
}

// checkTheme refuses a theme setting the UI does not know.
func checkTheme(t string) error {
	switch t {
	case ThemeAuto, ThemeLight, ThemeDark:
		return nil
	}
	return fmt.Errorf("%q: %w", t, ErrUnknownTheme)
}

// settingsLoadedMsg carries Backend.Settings' answer; apply puts its
// language and theme in force (after a failed save: the screen shows what
// the file keeps).
type settingsLoadedMsg struct {
	info  SettingsInfo
	err   error
	apply bool
}

// settingsSavedMsg carries SaveSettings' answer for the values v.
type settingsSavedMsg struct {
	v   SettingValues
	err error
}

// viewRememberedMsg carries RememberView's answer.
type viewRememberedMsg struct{ err error }

// settingsMsg routes the settings' answers.
func (m *Model) settingsMsg(msg tea.Msg) ([]tea.Cmd, bool) {
	switch msg := msg.(type) {
	case settingsLoadedMsg:
		m.onSettingsLoaded(msg)
		return nil, true
	case settingsSavedMsg:
		return m.onSettingsSaved(msg), true
	case viewRememberedMsg:
		m.settings.viewBusy = false
		if msg.err != nil {
			m.setStatus(stWarn, m.env.tr.t(mSetViewFailed, msg.err))
		}
		return nil, true
	}
	return nil, false
}

// openSettings opens the overlay and reads the settings afresh.
func (m *Model) openSettings() []tea.Cmd {
	m.overlay.open, m.overlay.settings = ovSettings, &settingsOverlay{}
	return []tea.Cmd{m.loadSettingsCmd(false)}
}

func (m *Model) loadSettingsCmd(apply bool) tea.Cmd {
	b := m.backend
	return func() tea.Msg {
		info, err := b.Settings()
		return settingsLoadedMsg{info: info, err: err, apply: apply}
	}
}

// onSettingsLoaded keeps what was read; values changed since a save began
// stay as changed (the save under way, or the next, writes them).
func (m *Model) onSettingsLoaded(msg settingsLoadedMsg) {
	s := &m.settings
	if msg.err != nil {
		s.loadErr = msg.err.Error()
		return
	}
	values := s.info.SettingValues
	s.info, s.loaded, s.loadErr = msg.info, true, ""
	if s.saving {
		s.info.SettingValues = values
	}
	if msg.apply {
		m.setLang(m.langOf(s.info.Language))
		s.theme = s.info.Theme
		m.applyTheme()
	}
}

// settingsKey handles a key while the overlay is open: close, sections,
// rows, and changes.
func (m *Model) settingsKey(k tea.KeyPressMsg) []tea.Cmd {
	km := &m.keys
	o := m.overlay.settings
	switch {
	case key.Matches(k, km.Cancel, km.Settings):
		m.closeOverlay()
	case key.Matches(k, km.SettingsSection):
		o.section(1)
	case key.Matches(k, km.SettingsSectionPrev):
		o.section(-1)
	case key.Matches(k, km.Up):
		o.move(-1)
	case key.Matches(k, km.Down):
		o.move(1)
	case key.Matches(k, km.Top):
		o.move(-1 << 20)
	case key.Matches(k, km.Bottom):
		o.move(1 << 20)
	case key.Matches(k, km.SettingsLess):
		return m.changeSetting(-1)
	case key.Matches(k, km.SettingsMore):
		return m.changeSetting(1)
	case key.Matches(k, km.ScrollUp):
		return m.pageSetting(-1)
	case key.Matches(k, km.ScrollDown):
		return m.pageSetting(1)
	}
	return nil
}

// pageSetting pages a read-only section (d 1: down), or changes a number
// by ten: PgUp (d -1) raises it, as a number goes up (a newcomer found
// PgUp lowering the brake backwards).
func (m *Model) pageSetting(d int) []tea.Cmd {
	o := m.overlay.settings
	if _, ok := o.row(); ok {
		return m.changeSetting(-10 * d)
	}
	o.move(d * max(o.page-1, 1))
	return nil
}

// changeSetting changes the chosen row by d: the next or previous choice
// (round the ends), a panel opened or closed, a number d more. The change
// is in force at once; a config.json setting is saved, the layout is
// remembered by afterUpdate.
func (m *Model) changeSetting(d int) []tea.Cmd {
	o := m.overlay.settings
	r, ok := o.row()
	if !ok {
		return nil
	}
	s, ls := &m.settings, &m.layoutState
	o.note, o.noteErr = "", false
	step := 1
	if d < 0 {
		step = -1
	}
	switch r {
	case rowTopics:
		ls.showTopics = !ls.showTopics
		return nil
	case rowParticipants:
		ls.showParticipants = !ls.showParticipants
		return nil
	case rowPanes:
		return m.togglePanes()
	case rowPaneShare:
		ls.paneShare = clampInt(ls.paneShare+step*paneShareStep, paneShareMin, paneShareMax)
		return nil
	}
	if !s.loaded {
		return nil // the file's values are not known yet
	}
	v := &s.info.SettingValues
	was := *v
	switch r {
	case rowLanguage:
		v.Language = cycle([]string{"", string(LangEnglish), string(LangJapanese)}, v.Language, step)
		m.setLang(m.langOf(v.Language))
	case rowTheme:
		v.Theme = cycle([]string{ThemeAuto, ThemeLight, ThemeDark}, v.Theme, step)
		s.theme = v.Theme
		m.applyTheme()
	case rowAvatars:
		v.Avatars = cycle(choiceValues(avatarsChoices), v.Avatars, step) // drawn by afterUpdate (refreshMarks)
	case rowBrake:
		v.Brake = clampInt(v.Brake+d, 0, max(s.info.BrakeMax, 0))
	case rowSessionOps:
		v.SessionOps = cycle([]string{SessionOpsTopic, SessionOpsAll, SessionOpsOff}, v.SessionOps, step)
	case rowNotify:
		v.Notify = cycle(choiceValues(notifyChoices), v.Notify, step)
	case rowNotifySequence:
		v.NotifySequence = cycle(choiceValues(sequenceChoices), v.NotifySequence, step)
	case rowNotifyDwell:
		v.NotifyDwell = stepTo(dwellSteps, v.NotifyDwell, d)
	case rowNotifyCooldown:
		v.NotifyCooldown = stepTo(cooldownSteps, v.NotifyCooldown, d)
	case rowPermissionWait:
		v.PermissionWait = stepTo(waitSteps(s.info.PermissionWaitMax), v.PermissionWait, d)
	}
	if *v == was {
		return nil // at an end already
	}
	return []tea.Cmd{m.saveSettingsCmd()}
}

// The steps the overlay offers for the notification rows' seconds (the
// file takes any whole number in range, written by hand): a few a person
// tells apart, not every second.
var (
	dwellSteps    = []int{0, 5, 10, 30, 60, 120, 300, 600}        // up to config.MaxNotifyDwell
	cooldownSteps = []int{0, 30, 60, 120, 300, 600, 1800, 3600}   // up to config.MaxNotifyCooldown
	cardSteps     = []int{30, 60, 120, 180, 300, 600, 1800, 3600} // from config.MinPermissionWait
)

// waitSteps are cardSteps up to the longest wait the room takes (max;
// 0, not known: all of them; the save refuses what the room does not take).
func waitSteps(max int) []int {
	if max <= 0 {
		return cardSteps
	}
	out := []int{cardSteps[0]}
	for _, n := range cardSteps[1:] {
		if n <= max {
			out = append(out, n)
		}
	}
	return out
}

// stepTo is the step after cur in steps (before it when d < 0), staying at
// the ends; a value between two steps (written by hand) goes to the next
// one in d's direction. PgUp/PgDn (d ±10) go three steps.
func stepTo(steps []int, cur, d int) int {
	n := 1
	if d > 1 || d < -1 {
		n = 3
	}
	for range n {
		cur = stepOnce(steps, cur, d)
	}
	return cur
}

func stepOnce(steps []int, cur, d int) int {
	if d > 0 {
		for _, s := range steps {
			if s > cur {
				return s
			}
		}
		return max(cur, steps[len(steps)-1])
	}
	for i := len(steps) - 1; i >= 0; i-- {
		if steps[i] < cur {
			return steps[i]
		}
	}
	return min(cur, steps[0])
}

// cycle is the choice d steps from cur in choices, round the ends (the
// first when cur is none of them).
func cycle(choices []string, cur string, d int) string {
	for i, c := range choices {
		if c == cur {
			return choices[((i+d)%len(choices)+len(choices))%len(choices)]
		}
	}
	return choices[0]
}

// langOf is the language a setting puts in force: its own, or the
// locale's for "".
func (m *Model) langOf(setting string) Lang {
	if l, err := ParseLang(setting); err == nil {
		return l
	}
	return DetectLang(m.opts.Getenv)
}

// setLang switches the screen's language at once: every cached line is
// drawn again (env.gen), and the input bar's placeholder and the welcome
// hint follow.
func (m *Model) setLang(l Lang) {
	if m.env.tr.lang == l {
		return
	}
	welcome := m.status.text != "" && m.status.text == m.env.tr.t(mStWelcome)
	m.env.tr = catalog{lang: l}
	m.env.gen++
	m.input.applyTheme(&m.env)
	if welcome {
		m.status.relabel(m.env.tr.t(mStWelcome))
	}
}

// saveSettingsCmd saves the settings in force, unless a save runs: then
// the one after it does.
func (m *Model) saveSettingsCmd() tea.Cmd {
	s := &m.settings
	if s.saving {
		s.again = true
		return nil
	}
	s.saving, s.again = true, false
	v, b := s.info.SettingValues, m.backend
	return func() tea.Msg { return settingsSavedMsg{v: v, err: b.SaveSettings(v)} }
}

// onSettingsSaved says a save's outcome in the overlay (and, for a
// failure, on the status line, which outlives it), and saves again when
// the values changed meanwhile. After a failure the settings are read
// again and put in force: the screen shows what the file keeps.
func (m *Model) onSettingsSaved(msg settingsSavedMsg) []tea.Cmd {
	s := &m.settings
	s.saving = false
	o := m.overlay.settings
	if msg.err != nil {
		s.again = false
		text := m.env.tr.t(mSetSaveFailed, msg.err)
		m.setStatus(stError, text)
		if o != nil {
			o.note, o.noteErr = text, true
		}
		return []tea.Cmd{m.loadSettingsCmd(true)}
	}
	if s.again || s.info.SettingValues != msg.v {
		return []tea.Cmd{m.saveSettingsCmd()}
	}
	if o != nil {
		o.note, o.noteErr = m.env.tr.t(mSetSaved, "config.json"), false
	}
	return nil
}

// viewState is the layout the screen remembers (ViewState).
func (m *Model) viewState() ViewState {
	ls := &m.layoutState
	return ViewState{Topics: ls.showTopics, Participants: ls.showParticipants, Panes: m.seats.shown, PaneShare: ls.paneShare}
}

// applyView opens the screen as it was (Options.View; nil: the defaults),
// a share out of range clamped (0: the default), and takes it as
// remembered.
func (m *Model) applyView(v *ViewState) {
	if v != nil {
		ls := &m.layoutState
		ls.showTopics, ls.showParticipants, m.seats.shown = v.Topics, v.Participants, v.Panes
		ls.paneShare = paneShareDefault
		if v.PaneShare != 0 {
			ls.paneShare = clampInt(v.PaneShare, paneShareMin, paneShareMax)
		}
	}
	m.settings.view = m.viewState()
}

// rememberViewCmd hands the layout to RememberView when it moved since it
// was last handed over (a key, the overlay, a pane that opened), one call
// at a time; afterUpdate asks after every message.
func (m *Model) rememberViewCmd() tea.Cmd {
	s := &m.settings
	v := m.viewState()
	if v == s.view || s.viewBusy {
		return nil
	}
	s.view, s.viewBusy = v, true
	b := m.backend
	return func() tea.Msg { return viewRememberedMsg{err: b.RememberView(v)} }
}

// settingsData is what the overlay draws besides its own state.
func (m *Model) settingsData() settingsData {
	_, ring := chooseRing(NotifySeqAuto, m.opts.Getenv, m.env.tr)
	return settingsData{st: &m.settings, view: m.viewState(), locale: DetectLang(m.opts.Getenv), ring: ring}
}
