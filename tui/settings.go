package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"
)

// The settings overlay (docs/design.md §10 "Settings"; spec «設定（#172）»,
// «表示（#194）»): the spec's dialog with its sections listed on the left
// and the chosen one on the right, in cells. Every change applies at once
// and is saved; there is no OK and no Cancel, only close.

// settingsSection is one section of the overlay.
type settingsSection int

const (
	secDisplay settingsSection = iota // language, theme, panels, terminals' height
	secRoom                           // the brake, what seats may start
	secNotify                         // how the human is called back, the cards' wait
	secKeys                           // the key map, to read
	secData                           // the data folder, to read
	secCount
)

// sectionTitles are the sections' names, in their order.
var sectionTitles = [secCount]msgKey{mSetSecDisplay, mSetSecRoom, mSetSecNotify, mSetSecKeys, mSetSecData}

// settingRow is one setting the overlay changes.
type settingRow int

const (
	rowLanguage settingRow = iota
	rowTheme
	rowAvatars
	rowTopics
	rowParticipants
	rowPanes
	rowPaneShare
	rowBrake
	rowSessionOps
	rowNotify
	rowNotifySequence
	rowNotifyDwell
	rowNotifyCooldown
	rowPermissionWait
)

// sectionRows are the rows of a section that change something; the
// read-only sections (keys, data) have none and scroll instead.
func sectionRows(s settingsSection) []settingRow {
	switch s {
	case secDisplay:
		return []settingRow{rowLanguage, rowTheme, rowAvatars, rowTopics, rowParticipants, rowPanes, rowPaneShare}
	case secRoom:
		return []settingRow{rowBrake, rowSessionOps}
	case secNotify:
		return []settingRow{rowNotify, rowNotifySequence, rowNotifyDwell, rowNotifyCooldown, rowPermissionWait}
	}
	return nil
}

// rowLabels name the rows.
var rowLabels = map[settingRow]msgKey{
	rowLanguage: mSetLanguage, rowTheme: mSetTheme, rowAvatars: mSetAvatars, rowTopics: mSetTopics, rowParticipants: mSetParticipants,
	rowPanes: mSetPanes, rowPaneShare: mSetPaneShare, rowBrake: mSetBrake, rowSessionOps: mSetSessionOps,
	rowNotify: mSetNotify, rowNotifySequence: mSetNotifySeq, rowNotifyDwell: mSetNotifyDwell,
	rowNotifyCooldown: mSetNotifyCooldown, rowPermissionWait: mSetPermissionWait,
}

// fileRow reports a row whose value is config.json's: it shows "…" and
// cannot change until the file was read.
func fileRow(r settingRow) bool {
	switch r {
	case rowTopics, rowParticipants, rowPanes, rowPaneShare:
		return false
	}
	return true
}

// settingsOverlay is the overlay's own state: which section and row are
// chosen, a read-only section's scroll, and its message line.
type settingsOverlay struct {
	sec  settingsSection
	sel  [secCount]int // the chosen row of each section
	off  int           // a read-only section's first row shown
	page int           // its rows shown at once, as last drawn
	// note is the message line: what the last change did, or why it was
	// not saved (noteErr); "" says that changes apply at once.
	note    string
	noteErr bool
}

// row is the chosen setting; ok is false in a read-only section.
func (o *settingsOverlay) row() (settingRow, bool) {
	rows := sectionRows(o.sec)
	if len(rows) == 0 {
		return 0, false
	}
	return rows[clampInt(o.sel[o.sec], 0, len(rows)-1)], true
}

// section goes d sections on, round the ends.
func (o *settingsOverlay) section(d int) {
	o.sec = settingsSection((int(o.sec) + d + int(secCount)) % int(secCount))
	o.off = 0
}

// move goes d rows down (up when negative): the chosen row, or a
// read-only section's scroll.
func (o *settingsOverlay) move(d int) {
	if rows := sectionRows(o.sec); len(rows) > 0 {
		o.sel[o.sec] = clampInt(o.sel[o.sec]+d, 0, len(rows)-1)
		return
	}
	o.off = max(o.off+d, 0) // the view clamps it to the rows there are
}

// settingsData is what the overlay draws besides its own state: the
// settings in force and where the screen's own values come from.
type settingsData struct {
	st     *settingsState
	view   ViewState
	locale Lang   // what "from the locale" picks
	ring   string // what "from the terminal" picks for this terminal, and why
}

// settingsMaxH bounds the overlay's inner height: a dialog, not a screen
// (the key map scrolls).
const settingsMaxH = 26

// settingsBox is the overlay laid out for a screen: its inner width, the
// left column's, the right one's, and the body's rows.
type settingsBox struct {
	w, lw, rw, bodyH int
}

func layoutSettings(e *env, maxW, maxH int) settingsBox {
	lw := 0
	for _, k := range sectionTitles {
		lw = max(lw, ansi.StringWidth(e.tr.t(k)))
	}
	lw += 2 // the marker
	w := clampInt(maxW-4, 40, 104)
	h := clampInt(maxH-2, 8, settingsMaxH)
	return settingsBox{w: w, lw: lw, rw: max(w-lw-3, 10), bodyH: h - 6}
}

// view draws the overlay for a maxW×maxH screen: the title, the sections
// beside the chosen one's rows, the message line and the keys. It keeps a
// read-only section's scroll within its rows.
func (o *settingsOverlay) view(e *env, d settingsData, maxW, maxH int) string {
	bx := layoutSettings(e, maxW, maxH)
	right := o.rightLines(e, d, bx.rw)
	title := e.tr.t(mSetTitle)
	if sectionRows(o.sec) == nil {
		o.page = bx.bodyH
		o.off = clampInt(o.off, 0, max(len(right)-bx.bodyH, 0))
		if len(right) > bx.bodyH {
			title += fmt.Sprintf("  %d–%d / %d", o.off+1, min(o.off+bx.bodyH, len(right)), len(right))
		}
		right = right[o.off:]
	}
	sep := e.th.border.Render(" │ ")
	lines := make([]string, 0, bx.bodyH+6)
	lines = append(lines, e.th.title.Render(title), "")
	for i := range bx.bodyH {
		left := ""
		if i < int(secCount) {
			left = o.sectionLabel(e, settingsSection(i), bx.lw)
		}
		r := ""
		if i < len(right) {
			r = right[i]
		}
		lines = append(lines, fit(left, bx.lw)+sep+fit(r, bx.rw))
	}
	lines = append(lines, "", o.messageLine(e, d, bx.w), e.th.dim.Render(settingsFooter(e, sectionRows(o.sec) == nil)))
	return modalBox(e, strings.Join(lines, "\n"), bx.w)
}

// sectionLabel is a section's name on the left, the open one marked.
func (o *settingsOverlay) sectionLabel(e *env, s settingsSection, w int) string {
	name := e.tr.t(sectionTitles[s])
	if s == o.sec {
		return e.th.sel.Render(fit("▸ "+name, w))
	}
	return e.th.text.Render("  " + name)
}

// messageLine says what the last change did, why it was not saved, or
// that changes apply at once — on a page with something to change (issue
// 35: Keys and Data folder, to read only, said so too).
func (o *settingsOverlay) messageLine(e *env, d settingsData, w int) string {
	switch {
	case o.note != "" && o.noteErr:
		return e.th.dangerS.Render(fit(o.note, w))
	case o.note != "":
		return e.th.okS.Render(fit(o.note, w))
	case d.st.loadErr != "":
		return e.th.dangerS.Render(fit(e.tr.t(mSetLoadFailed, d.st.loadErr), w))
	}
	if sectionRows(o.sec) == nil {
		return e.th.dim.Render(fit(e.tr.t(mSetReadOnly), w))
	}
	return e.th.dim.Render(fit(e.tr.t(mSetApplied), w))
}

// settingsFooter names the overlay's keys as they are bound: on a page to
// read only, no key to change a value.
func settingsFooter(e *env, readOnly bool) string {
	k := e.keys
	if readOnly {
		return e.tr.t(mSetFooterRead, hintKey(firstKey(k.Up))+"/"+hintKey(firstKey(k.Down)),
			hintKey(firstKey(k.SettingsSection)), hintKey(firstKey(k.Cancel)))
	}
	return e.tr.t(mSetFooter, hintKey(firstKey(k.Up))+"/"+hintKey(firstKey(k.Down)),
		hintKey(firstKey(k.SettingsLess))+"/"+hintKey(firstKey(k.SettingsMore)),
		hintKey(firstKey(k.SettingsSection)), hintKey(firstKey(k.Cancel)))
}

// rightLines are the open section's lines, w cells wide at most.
func (o *settingsOverlay) rightLines(e *env, d settingsData, w int) []string {
	switch o.sec {
	case secKeys:
		return keyMapLines(e, d, w)
	case secData:
		return dataLines(e, d, w)
	}
	rows := sectionRows(o.sec)
	labW := 0
	for _, r := range rows {
		labW = max(labW, ansi.StringWidth(e.tr.t(rowLabels[r])))
	}
	chosen, _ := o.row()
	var out []string
	for _, r := range rows {
		label, value := e.tr.t(rowLabels[r]), settingValue(e, d, r)
		if r == chosen {
			// The chosen value whole, brackets and all: where the row is
			// too wide (a long value at 80 columns) its label's padding
			// goes first, then the label.
			pad := labW
			if over := 2 + labW + 4 + ansi.StringWidth(value) + 2 - w; over > 0 {
				pad = max(labW-over, min(ansi.StringWidth(label), labW), 1)
			}
			out = append(out, e.th.sel.Render(fit("▸ "+fit(label, pad)+"  ‹ "+value+" ›", w)))
			continue
		}
		out = append(out, e.th.text.Render("  "+fit(label, labW)+"    ")+e.th.accentS.Render(value))
	}
	out = append(out, "")
	for _, l := range wrapWords(settingNote(e, d, chosen), w) {
		out = append(out, e.th.dim.Render(l))
	}
	return out
}

// settingValue is how a row says its value now.
func settingValue(e *env, d settingsData, r settingRow) string {
	tr, st := e.tr, d.st
	shown := func(b bool) string {
		if b {
			return tr.t(mSetShown)
		}
		return tr.t(mSetHidden)
	}
	if !st.loaded && fileRow(r) {
		return "…"
	}
	switch r {
	case rowLanguage:
		chosen := d.locale
		if l, err := ParseLang(st.info.Language); err == nil {
			chosen = l
		}
		if chosen != tr.lang {
			// The screen is in another language than config.json picks:
			// the environment's, which wins at the start (issue 35: the
			// row said "from the locale (English)" on a Japanese screen).
			return tr.t(mSetLangEnvWins, langName(tr, tr.lang), envLanguage)
		}
		if st.info.Language == "" {
			return tr.t(mSetLangLocale, langName(tr, d.locale))
		}
		return langName(tr, Lang(st.info.Language))
	case rowTheme:
		return themeName(tr, st.info.Theme, st.termDark)
	case rowAvatars:
		return tr.t(choiceLabel(avatarsChoices, st.info.Avatars))
	case rowTopics:
		return shown(d.view.Topics)
	case rowParticipants:
		return shown(d.view.Participants)
	case rowPanes:
		return shown(d.view.Panes)
	case rowPaneShare:
		return tr.t(mSetShare, d.view.PaneShare)
	case rowBrake:
		if st.info.Brake == 0 {
			return tr.t(mSetBrakeOff)
		}
		return tr.tn(mSetBrakeN, st.info.Brake, st.info.Brake)
	case rowSessionOps:
		switch st.info.SessionOps {
		case SessionOpsAll:
			return tr.t(mSetSessionOpsAll)
		case SessionOpsOff:
			return tr.t(mSetSessionOpsOff)
		}
		return tr.t(mSetSessionOpsTopic)
	}
	if r == rowNotifySequence && st.info.NotifySequence == NotifySeqAuto && d.ring != "" {
		// Which one "from the terminal" picks here, and why (notify_term.go).
		return tr.t(mSetSeqAuto) + " · " + d.ring
	}
	return notifyValue(tr, &st.info.SettingValues, r)
}

// notifyValue is how a row of the notifications section says its value.
func notifyValue(tr catalog, v *SettingValues, r settingRow) string {
	switch r {
	case rowNotify:
		return tr.t(choiceLabel(notifyChoices, v.Notify))
	case rowNotifySequence:
		return tr.t(choiceLabel(sequenceChoices, v.NotifySequence))
	case rowNotifyDwell:
		if v.NotifyDwell == 0 {
			return tr.t(mSetAtOnce)
		}
		return tr.t(mSetDwellN, seconds(tr, v.NotifyDwell))
	case rowNotifyCooldown:
		if v.NotifyCooldown == 0 {
			return tr.t(mSetCooldownNone)
		}
		return seconds(tr, v.NotifyCooldown)
	case rowPermissionWait:
		return seconds(tr, v.PermissionWait)
	}
	return ""
}

// choice is one value of a setting of a few, and how the overlay says it.
type choice struct {
	v     string
	label msgKey
}

// The choices of the rows of a few values, in the order ←/→ go through
// them.
var (
	avatarsChoices = []choice{{AvatarsNames, mSetAvatarsNames}, {AvatarsInitials, mSetAvatarsInitials}}
	notifyChoices  = []choice{{NotifyOff, mSetNotifyOff}, {NotifyTerminal, mSetNotifyTerminal}, {NotifyDesktop, mSetNotifyDesktop}}
	// sequenceChoices' labels are the sequences' own names, the same in
	// every language but "auto".
	sequenceChoices = []choice{{NotifySeqAuto, mSetSeqAuto}, {NotifySeqOSC9, mSetSeqOSC9},
		{NotifySeqOSC777, mSetSeqOSC777}, {NotifySeqOSC99, mSetSeqOSC99}, {NotifySeqBEL, mSetSeqBEL}}
)

// choiceLabel is v's label among choices (the first's when v is none;
// the file's values are checked before they reach the overlay).
func choiceLabel(choices []choice, v string) msgKey {
	for _, c := range choices {
		if c.v == v {
			return c.label
		}
	}
	return choices[0].label
}

// choiceValues are the values of choices, in order.
func choiceValues(choices []choice) []string {
	out := make([]string, len(choices))
	for i, c := range choices {
		out[i] = c.v
	}
	return out
}

// seconds says a number of seconds as a person reads it: whole hours as
// hours, whole minutes as minutes, the rest as seconds.
func seconds(tr catalog, n int) string {
	switch {
	case n >= 3600 && n%3600 == 0:
		return tr.t(mSetHours, n/3600)
	case n >= 60 && n%60 == 0:
		return tr.t(mSetMinutes, n/60)
	}
	return tr.t(mSetSeconds, n)
}

// langName is a language's own name.
func langName(tr catalog, l Lang) string {
	if l == LangJapanese {
		return tr.t(mSetLangJapanese)
	}
	return tr.t(mSetLangEnglish)
}

// themeName says a theme setting; following the terminal, with what its
// background gives now.
func themeName(tr catalog, theme string, termDark bool) string {
	switch theme {
	case ThemeLight:
		return tr.t(mSetThemeLight)
	case ThemeDark:
		return tr.t(mSetThemeDark)
	}
	now := tr.t(mSetThemeLight)
	if termDark {
		now = tr.t(mSetThemeDark)
	}
	return tr.t(mSetThemeAuto, now)
}

// settingNote explains the chosen row: what it does, where it is kept,
// and the keys that change it elsewhere.
func settingNote(e *env, d settingsData, r settingRow) string {
	tr, k := e.tr, e.keys
	hk := func(b key.Binding) string { return hintKey(firstKey(b)) }
	switch r {
	case rowLanguage:
		if env := d.st.info.LanguageEnv; env != "" {
			return tr.t(mSetLanguageNote) + " " + tr.t(mSetLanguageEnv, envLanguage, env)
		}
		return tr.t(mSetLanguageNote)
	case rowTheme:
		return tr.t(mSetThemeNote)
	case rowAvatars:
		return tr.t(mSetAvatarsNote)
	case rowTopics:
		return tr.t(mSetPanelNote, hk(k.ToggleTopics))
	case rowParticipants:
		return tr.t(mSetPanelNote, hk(k.ToggleParticipants))
	case rowPanes:
		return tr.t(mSetPanelNote, hk(k.TogglePanes))
	case rowPaneShare:
		return tr.t(mSetShareNote, paneShareMin, paneShareMax, hk(k.GrowPanes), hk(k.ShrinkPanes))
	case rowBrake:
		return tr.t(mSetBrakeNote, hk(k.ReleaseBrake)) + " " +
			tr.t(mSetBrakeKeys, hintKey(firstKey(k.SettingsLess)), hintKey(firstKey(k.SettingsMore)),
				hintKey(firstKey(k.ScrollDown)), hintKey(firstKey(k.ScrollUp)))
	case rowSessionOps:
		return tr.t(mSetSessionOpsNote)
	case rowNotify:
		return tr.t(mSetNotifyNote)
	case rowNotifySequence:
		return tr.t(mSetNotifySeqNote)
	case rowNotifyDwell:
		return tr.t(mSetNotifyDwellNote)
	case rowNotifyCooldown:
		return tr.t(mSetNotifyCooldownNote)
	case rowPermissionWait:
		return tr.t(mSetPermissionWaitNote, seconds(tr, d.st.info.PermissionWaitMax))
	}
	return ""
}

// envLanguage is the variable that overrides config.json's language at
// each start (config.EnvLanguage; the UI names it, the app reads it).
const envLanguage = "PULLCEPT_LANGUAGE"

// keyMapLines lists every binding with its config.json name, its keys and
// what it does, by help group, under how to change them.
func keyMapLines(e *env, d settingsData, w int) []string {
	var out []string
	for _, l := range wrapWords(e.tr.t(mSetKeysNote), w) {
		out = append(out, e.th.dim.Render(l))
	}
	if d.st.info.ConfigFile != "" {
		for _, l := range wrapWords(e.tr.t(mSetFile, d.st.info.ConfigFile), w) {
			out = append(out, e.th.dim.Render(l))
		}
	}
	entries := e.keys.grouped()
	nw, kw := 0, 0
	for _, en := range entries {
		nw = max(nw, len(en.name))
		kw = max(kw, ansi.StringWidth(strings.Join(en.b.Keys(), " / "))) // as config.json spells them
	}
	nw = min(nw, w/2) // whole: it is what config.json takes
	kw = clampInt(kw, 8, max((w-nw-4)*2/5, 8))
	dw := max(w-nw-kw-4, 8)
	out = append(out, "", e.th.dim.Render(fit(e.tr.t(mSetColName), nw)+"  "+fit(e.tr.t(mSetColKeys), kw)+"  "+e.tr.t(mSetColWhat)))
	var group msgKey = -1
	for _, en := range entries {
		if en.group != group {
			group = en.group
			out = append(out, e.th.accentS.Render(e.tr.t(group)))
		}
		keys := wrapKeys(en.b.Keys(), kw)
		desc := wrapWords(e.helpText(en.help), dw)
		for i := range max(len(keys), len(desc)) {
			name, k, ds := "", "", ""
			if i == 0 {
				name = en.name
			}
			if i < len(keys) {
				k = keys[i]
			}
			if i < len(desc) {
				ds = desc[i]
			}
			out = append(out, e.th.text.Render(fit(name, nw)+"  "+fit(k, kw))+"  "+e.th.dim.Render(ds))
		}
	}
	return out
}

// dataLines show the data folder, how it was chosen, what it holds and
// how to move it.
func dataLines(e *env, d settingsData, w int) []string {
	tr, info := e.tr, d.st.info
	var out []string
	add := func(s string, st func(...string) string) {
		for _, l := range wrapWords(s, w) {
			out = append(out, st(l))
		}
	}
	text, dim, acc := e.th.text.Render, e.th.dim.Render, e.th.accentS.Render
	add(tr.t(mSetDataIntro), text)
	dir := info.DataDir
	if !d.st.loaded {
		dir = "…"
	}
	for _, l := range wrapWords(dir, max(w-2, 1)) {
		out = append(out, "  "+acc(l))
	}
	switch info.DataDirFrom {
	case DataDirEnv:
		add(tr.t(mSetDataEnv, envHome), dim)
	case DataDirFlag:
		add(tr.t(mSetDataFlag), dim)
	default:
		add(tr.t(mSetDataDefault), dim)
	}
	out = append(out, "")
	add(tr.t(mSetDataHolds), text)
	out = append(out, "")
	add(tr.t(mSetDataMove, envHome), text)
	return out
}

// envHome is the variable that chooses the data folder (config.EnvHome).
const envHome = "PULLCEPT_HOME"
