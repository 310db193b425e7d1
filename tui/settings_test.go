package tui

import (
	"encoding/json"
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// settingsScene is scene with the settings file of a fresh data folder.
func settingsScene() *fakeBackend {
	f := scene()
	f.set.info = SettingsInfo{
		SettingValues:     freshValues(),
		BrakeMax:          1000,
		PermissionWaitMax: 3600,
		DataDir:           "/home/u/.config/pullcept",
		ConfigFile:        "/home/u/.config/pullcept/config.json",
		StateFile:         "/home/u/.config/pullcept/ui-state.json",
	}
	return f
}

// freshValues are the settings of a config.json that sets none.
func freshValues() SettingValues {
	return SettingValues{Brake: 12, SessionOps: SessionOpsTopic, NotifyDwell: 5, NotifyCooldown: 60, PermissionWait: 180}
}

// with is v changed by set.
func with(v SettingValues, set func(*SettingValues)) SettingValues {
	set(&v)
	return v
}

// shown is the screen as text.
func shown(m *Model) string { return ansi.Strip(m.View().Content) }

// TestSettingsKeyOpensAndCloses: F3 opens the overlay on a fresh read of
// the settings; Esc or F3 again closes it; it is listed in help.
func TestSettingsKeyOpensAndCloses(t *testing.T) {
	t.Parallel()
	f := settingsScene()
	m := sceneModel(t, f, 120, 40, LangEnglish)
	before := f.set.reads // the start reads them once (the ring settings)
	send(t, m, press("f3"))
	if m.overlay.open != ovSettings || f.set.reads != before+1 {
		t.Fatalf("overlay %v after f3, %d reads after %d", m.overlay.open, f.set.reads, before)
	}
	for _, want := range []string{"Settings", "Language", "from the locale (English)", "Terminal height", "55 % of the centre"} {
		if !strings.Contains(shown(m), want) {
			t.Fatalf("overlay lacks %q:\n%s", want, shown(m))
		}
	}
	send(t, m, press("esc"))
	if m.overlay.open != ovNone {
		t.Fatal("esc left the settings open")
	}
	send(t, m, press("f3"))
	send(t, m, press("f3"))
	if m.overlay.open != ovNone || f.set.reads != before+2 {
		t.Fatalf("f3 twice: overlay %v, %d reads", m.overlay.open, f.set.reads)
	}
	send(t, m, press("f1"))
	if !strings.Contains(shown(m), "F3") || !strings.Contains(shown(m), "settings") {
		t.Fatal("help does not list the settings key")
	}
}

// TestSettingsLanguageSwitchesAtOnce: the language row cycles through the
// locale's, English and Japanese; the screen speaks the chosen one at once
// and each choice is saved.
func TestSettingsLanguageSwitchesAtOnce(t *testing.T) {
	t.Parallel()
	f := settingsScene()
	m := sceneModel(t, f, 120, 40, LangEnglish)
	send(t, m, press("f3"))
	send(t, m, press("right"))
	send(t, m, press("right"))
	if m.env.tr.lang != LangJapanese {
		t.Fatalf("language %q after choosing Japanese", m.env.tr.lang)
	}
	s := shown(m)
	for _, want := range []string{"設定", "言語", "日本語", "F1 ヘルプ", "config.json に保存しました。"} {
		if !strings.Contains(s, want) {
			t.Fatalf("screen lacks %q after the switch:\n%s", want, s)
		}
	}
	if got := m.input.ta.Placeholder; got != m.env.tr.t(mInputPlaceholder) || !strings.ContainsFunc(got, func(r rune) bool { return r > 0x3000 }) {
		t.Fatalf("input placeholder %q not in Japanese", got)
	}
	want := []SettingValues{with(freshValues(), func(v *SettingValues) { v.Language = "en" }),
		with(freshValues(), func(v *SettingValues) { v.Language = "ja" })}
	if !slices.Equal(f.set.saves, want) {
		t.Fatalf("saves %+v, want %+v", f.set.saves, want)
	}
	// Back round to the locale's (English here), from the left too.
	send(t, m, press("left"))
	send(t, m, press("left"))
	if m.env.tr.lang != LangEnglish || f.set.saves[len(f.set.saves)-1].Language != "" {
		t.Fatalf("language %q, last save %+v", m.env.tr.lang, f.set.saves[len(f.set.saves)-1])
	}
}

// TestSettingsThemeOverridesTheTerminal: light or dark stays whatever the
// terminal reports; "from the terminal" follows it again.
func TestSettingsThemeOverridesTheTerminal(t *testing.T) {
	t.Parallel()
	f := settingsScene()
	m := sceneModel(t, f, 120, 40, LangEnglish)
	send(t, m, press("f3"))
	send(t, m, press("down"))
	send(t, m, press("space")) // light
	if m.env.th.dark || m.settings.theme != ThemeLight {
		t.Fatalf("dark %v theme %q after choosing light", m.env.th.dark, m.settings.theme)
	}
	send(t, m, tea.BackgroundColorMsg{Color: blackColor{}})
	if m.env.th.dark {
		t.Fatal("a dark terminal overrode the light theme")
	}
	send(t, m, press("right")) // dark
	send(t, m, press("right")) // from the terminal: dark, as it said
	if !m.env.th.dark || m.settings.theme != ThemeAuto {
		t.Fatalf("dark %v theme %q back on the terminal's", m.env.th.dark, m.settings.theme)
	}
	if last := f.set.saves[len(f.set.saves)-1]; last.Theme != ThemeAuto || len(f.set.saves) != 3 {
		t.Fatalf("saves %+v", f.set.saves)
	}
	if !strings.Contains(shown(m), "from the terminal (dark)") {
		t.Fatalf("theme row:\n%s", shown(m))
	}
}

// blackColor is a terminal background that reads as dark.
type blackColor struct{}

func (blackColor) RGBA() (r, g, b, a uint32) { return 0, 0, 0, 0xffff }

// TestSettingsBrake: the room's section changes the brake by one or ten,
// between 0 (off) and the largest the file takes, each change saved.
func TestSettingsBrake(t *testing.T) {
	t.Parallel()
	f := settingsScene()
	f.set.info.Brake = 2
	f.set.info.BrakeMax = 15
	m := sceneModel(t, f, 80, 24, LangEnglish)
	send(t, m, press("f3"))
	send(t, m, press("tab"))
	for _, k := range []string{"left", "left", "left"} {
		send(t, m, press(k))
	}
	if !strings.Contains(shown(m), "‹ off ›") {
		t.Fatalf("brake row at 0:\n%s", shown(m))
	}
	send(t, m, press("pgdown")) // at 0 already: a number goes down with PgDn
	send(t, m, press("pgup"))
	send(t, m, press("pgup"))
	send(t, m, press("+"))
	got := make([]int, 0, len(f.set.saves))
	for _, s := range f.set.saves {
		got = append(got, s.Brake)
	}
	if want := []int{1, 0, 10, 15}; !slices.Equal(got, want) {
		t.Fatalf("brakes saved %v, want %v (clamped to 0 and the file's largest)", got, want)
	}
	if !strings.Contains(shown(m), "after 15 AI posts in a row") {
		t.Fatalf("brake row:\n%s", shown(m))
	}
}

// TestSettingsSessionOperations: the Room section's second row cycles
// what seats may start and stop (own topic, any topic, off), each saved.
func TestSettingsSessionOperations(t *testing.T) {
	t.Parallel()
	f := settingsScene()
	m := sceneModel(t, f, 200, 60, LangEnglish)
	send(t, m, press("f3"))
	send(t, m, press("tab"))
	send(t, m, press("down"))
	if !strings.Contains(shown(m), "‹ in their own topic ›") || !strings.Contains(shown(m), `"session_operations"`) {
		t.Fatalf("session operations row:\n%s", shown(m))
	}
	send(t, m, press("right"))
	send(t, m, settingsSavedMsg{v: f.set.saves[0]})
	send(t, m, press("right"))
	got := make([]string, 0, len(f.set.saves))
	for _, s := range f.set.saves {
		got = append(got, s.SessionOps)
	}
	if want := []string{SessionOpsAll, SessionOpsOff}; !slices.Equal(got, want) {
		t.Fatalf("saved %v, want %v", got, want)
	}
	if !strings.Contains(shown(m), "‹ off ›") {
		t.Fatalf("after two steps:\n%s", shown(m))
	}
}

// TestSettingsSavesOneAtATime: changes made while a save runs are saved
// after it, once, with the last values.
func TestSettingsSavesOneAtATime(t *testing.T) {
	t.Parallel()
	f := settingsScene()
	m := sceneModel(t, f, 120, 40, LangEnglish)
	send(t, m, press("f3"))
	send(t, m, press("tab"))
	m.Update(press("right")) // its save is not run: it is "under way"
	if !m.settings.saving {
		t.Fatal("no save under way")
	}
	m.Update(press("right"))
	m.Update(press("right"))
	send(t, m, settingsSavedMsg{v: SettingValues{Brake: 13}})
	if want := []SettingValues{with(freshValues(), func(v *SettingValues) { v.Brake = 15 })}; !slices.Equal(f.set.saves, want) {
		t.Fatalf("saves %+v, want %+v", f.set.saves, want)
	}
	if m.settings.saving || m.settings.again {
		t.Fatal("a save is still marked under way")
	}
}

// TestSettingsFailedSave: a save that fails says why in the overlay and
// on the status line, and the screen goes back to what the file keeps.
func TestSettingsFailedSave(t *testing.T) {
	t.Parallel()
	f := settingsScene()
	f.set.saveErr = errors.New("disk full")
	m := sceneModel(t, f, 120, 40, LangEnglish)
	send(t, m, press("f3"))
	send(t, m, press("right"))
	send(t, m, press("right"))
	if m.env.tr.lang != LangEnglish {
		t.Fatalf("language %q kept after the save failed", m.env.tr.lang)
	}
	s := shown(m)
	if !strings.Contains(s, "Settings not saved: disk full") || !strings.Contains(m.status.text, "disk full") {
		t.Fatalf("no word of the failure:\n%s", s)
	}
	if !strings.Contains(s, "from the locale (English)") {
		t.Fatalf("the row does not show what the file keeps:\n%s", s)
	}
}

// TestSettingsUnreadable: settings that cannot be read say so; the file's
// values cannot be changed, the layout still can.
func TestSettingsUnreadable(t *testing.T) {
	t.Parallel()
	f := settingsScene()
	f.set.readErr = errors.New("permission denied")
	m := sceneModel(t, f, 120, 40, LangEnglish)
	send(t, m, press("f3"))
	send(t, m, press("right"))
	if len(f.set.saves) != 0 || !strings.Contains(shown(m), "Cannot read the settings: permission denied") {
		t.Fatalf("saves %+v:\n%s", f.set.saves, shown(m))
	}
	for range 3 { // language, theme, avatars
		send(t, m, press("down"))
	}
	send(t, m, press("right"))
	if m.layoutState.showTopics {
		t.Fatal("the topic list row did not close it")
	}
}

// TestSettingsPanelsAreRemembered: the panels and the terminals' share,
// changed in the overlay or by their keys, are handed to RememberView as
// they change, once per change; a new model opens with them.
func TestSettingsPanelsAreRemembered(t *testing.T) {
	t.Parallel()
	f := settingsScene()
	m := sceneModel(t, f, 120, 40, LangEnglish)
	if len(f.set.views) != 0 {
		t.Fatalf("views remembered at start: %+v", f.set.views)
	}
	send(t, m, press("ctrl+b"))
	send(t, m, press("f3"))
	for range 4 {
		send(t, m, press("down"))
	}
	send(t, m, press("space")) // accounts panel hidden
	send(t, m, press("down"))
	send(t, m, press("space")) // terminals shown
	send(t, m, press("down"))
	send(t, m, press("left")) // 50 %
	send(t, m, press("esc"))
	send(t, m, press("ctrl+up")) // 55 %
	want := []ViewState{
		{Topics: false, Participants: true, PaneShare: 55},
		{Topics: false, Participants: false, PaneShare: 55},
		{Panes: true, PaneShare: 55},
		{Panes: true, PaneShare: 50},
		{Panes: true, PaneShare: 55},
	}
	if !slices.Equal(f.set.views, want) {
		t.Fatalf("views %+v, want %+v", f.set.views, want)
	}

	opts := testOptions()
	opts.StartTopic = "t-main"
	opts.View = &ViewState{Topics: false, Participants: true, Panes: true, PaneShare: 300}
	m2 := newTestModel(t, settingsScene(), opts, 120, 40)
	ls := m2.layoutState
	if ls.showTopics || !ls.showParticipants || !m2.seats.shown || ls.paneShare != paneShareMax {
		t.Fatalf("opened with %+v shown %v", ls, m2.seats.shown)
	}
}

// TestSettingsReadOnlySections: the key map lists each binding's
// config.json name with its keys and says where to change them; the data
// section shows the folder and how to move it; both scroll.
func TestSettingsReadOnlySections(t *testing.T) {
	t.Parallel()
	f := settingsScene()
	f.set.info.DataDirFrom = DataDirEnv
	m := sceneModel(t, f, 80, 24, LangEnglish)
	send(t, m, press("f3"))
	for range 3 {
		send(t, m, press("tab"))
	}
	s := shown(m)
	for _, want := range []string{`"keys"`, "/home/u/.config/pullcept/config.json", "settings               f3"} {
		if !strings.Contains(s, want) {
			t.Fatalf("key map lacks %q:\n%s", want, s)
		}
	}
	send(t, m, press("end"))
	if s := shown(m); !strings.Contains(s, "settings_section_prev") {
		t.Fatalf("the end of the key map:\n%s", s)
	}
	send(t, m, press("home"))
	send(t, m, press("pgdown"))
	if m.overlay.settings.off == 0 {
		t.Fatal("pgdown did not page the key map")
	}
	for range 4 { // round the first section to the last
		send(t, m, press("shift+tab"))
	}
	s = shown(m)
	for _, want := range []string{"/home/u/.config/pullcept", "PULLCEPT_HOME chose it.", "--data DIR"} {
		if !strings.Contains(s, want) {
			t.Fatalf("data section lacks %q:\n%s", want, s)
		}
	}
}

// TestSettingsLanguageEnvNamed: PULLCEPT_LANGUAGE, which wins over the
// file at each start, is named under the language row.
func TestSettingsLanguageEnvNamed(t *testing.T) {
	t.Parallel()
	f := settingsScene()
	f.set.info.LanguageEnv = "ja"
	m := sceneModel(t, f, 120, 40, LangEnglish)
	send(t, m, press("f3"))
	if s := shown(m); !strings.Contains(s, "PULLCEPT_LANGUAGE=ja is set") {
		t.Fatalf("no word of PULLCEPT_LANGUAGE:\n%s", s)
	}
}

// TestThemeOption: Options.Theme draws light or dark from the start and
// refuses an unknown theme.
func TestThemeOption(t *testing.T) {
	t.Parallel()
	opts := testOptions()
	opts.Theme = ThemeLight
	m, err := New(newFake(), opts)
	if err != nil || m.env.th.dark {
		t.Fatalf("light theme: dark %v, %v", m != nil && m.env.th.dark, err)
	}
	opts.Theme = "blue"
	if _, err := New(newFake(), opts); !errors.Is(err, ErrUnknownTheme) {
		t.Fatalf("err = %v, want ErrUnknownTheme", err)
	}
}

// TestSettingsNotifications: the Notifications section (after Room) shows
// the defaults of a file that sets none and changes each row with ←/→ —
// the choices round their ends, the seconds go through the overlay's
// steps and stay at theirs — each change saved at once.
func TestSettingsNotifications(t *testing.T) {
	t.Parallel()
	f := settingsScene()
	m := sceneModel(t, f, 200, 60, LangEnglish)
	send(t, m, press("f3"))
	send(t, m, press("tab"))
	send(t, m, press("tab"))
	s := shown(m)
	for _, want := range []string{"Notifications", "‹ in the terminal ›", "Terminal signal", "from the terminal",
		"Ring after", "5 s unseen", "Quiet after a ring", "1 min", "Permission card waits", "3 min", `"notifications"`} {
		if !strings.Contains(s, want) {
			t.Fatalf("notifications section lacks %q:\n%s", want, s)
		}
	}
	last := func() SettingValues { return f.set.saves[len(f.set.saves)-1] }
	keys := func(ks ...string) {
		for _, k := range ks {
			send(t, m, press(k))
		}
	}
	keys("right")
	if last().Notify != NotifyDesktop || !strings.Contains(shown(m), "‹ on the desktop ›") {
		t.Fatalf("after →: %+v\n%s", last(), shown(m))
	}
	keys("right") // round the end
	if last().Notify != NotifyOff {
		t.Fatalf("after → twice: %+v", last())
	}
	keys("down", "left")
	if last().NotifySequence != NotifySeqBEL || !strings.Contains(shown(m), `"notify_sequence"`) {
		t.Fatalf("sequence after ←: %+v", last())
	}
	keys("down", "left", "left")
	if last().NotifyDwell != 0 || !strings.Contains(shown(m), "‹ at once ›") {
		t.Fatalf("dwell after ← twice: %+v\n%s", last(), shown(m))
	}
	n := len(f.set.saves)
	keys("left") // at 0 already: nothing to save
	if len(f.set.saves) != n {
		t.Fatalf("a change below 0 was saved: %+v", last())
	}
	keys("pgup") // three steps up: 5, 10, 30
	if last().NotifyDwell != 30 {
		t.Fatalf("dwell after PgUp: %+v", last())
	}
	keys("down", "right")
	if last().NotifyCooldown != 120 || !strings.Contains(shown(m), "‹ 2 min ›") {
		t.Fatalf("cooldown after →: %+v", last())
	}
	keys("down", "right")
	if last().PermissionWait != 300 || !strings.Contains(shown(m), "‹ 5 min ›") || !strings.Contains(shown(m), "1 h at most") {
		t.Fatalf("card wait after →: %+v\n%s", last(), shown(m))
	}
	keys("pgup", "pgup", "right")
	if last().PermissionWait != 3600 {
		t.Fatalf("card wait at the top: %+v", last())
	}
	want := with(freshValues(), func(v *SettingValues) {
		v.Notify, v.NotifySequence, v.NotifyDwell, v.NotifyCooldown, v.PermissionWait = NotifyOff, NotifySeqBEL, 30, 120, 3600
	})
	if last() != want {
		t.Fatalf("last save %+v, want %+v", last(), want)
	}
}

// TestSettingsCardWaitSteps: the card wait offers its steps up to the
// longest wait the room takes, and a number written by hand between two
// steps goes to the next one either way.
func TestSettingsCardWaitSteps(t *testing.T) {
	t.Parallel()
	f := settingsScene()
	f.set.info.PermissionWaitMax = 600
	f.set.info.PermissionWait = 45
	f.set.info.NotifyDwell = 7
	m := sceneModel(t, f, 80, 24, LangJapanese)
	send(t, m, press("f3"))
	send(t, m, press("tab"))
	send(t, m, press("tab"))
	for range 2 {
		send(t, m, press("down"))
	}
	send(t, m, press("left"))
	if got := f.set.saves[len(f.set.saves)-1].NotifyDwell; got != 5 {
		t.Fatalf("dwell 7 after ←: %d, want 5", got)
	}
	send(t, m, press("down"))
	send(t, m, press("down"))
	if !strings.Contains(shown(m), "‹ 45 秒 ›") || !strings.Contains(shown(m), "最長 10 分") {
		t.Fatalf("card wait row in Japanese:\n%s", shown(m))
	}
	send(t, m, press("right"))
	if got := f.set.saves[len(f.set.saves)-1].PermissionWait; got != 60 {
		t.Fatalf("45 after →: %d, want 60", got)
	}
	for range 5 {
		send(t, m, press("right"))
	}
	if got := f.set.saves[len(f.set.saves)-1].PermissionWait; got != 600 {
		t.Fatalf("at the room's longest: %d, want 600", got)
	}
	for range 8 {
		send(t, m, press("left"))
	}
	if got := f.set.saves[len(f.set.saves)-1].PermissionWait; got != 30 {
		t.Fatalf("at the shortest: %d, want 30", got)
	}
}

// TestSettingsReadOnlyPages (issue 35, a newcomer): the Keys page's
// example adds a key no binding has (it gave new_topic F12, the messages
// key), in both languages; the pages to read only (Keys, Data folder) do
// not say that changes apply at once, nor offer a key to change a value.
func TestSettingsReadOnlyPages(t *testing.T) {
	t.Parallel()
	for _, lang := range []Lang{LangEnglish, LangJapanese} {
		e := testEnv(lang)
		ex := regexp.MustCompile(`\{"[a-z_]+": \[[^\]]*\]\}`).FindString(e.tr.t(mSetKeysNote))
		var example map[string][]string
		if err := json.Unmarshal([]byte(ex), &example); err != nil || len(example) != 1 {
			t.Fatalf("%s: no example in %q: %v", lang, e.tr.t(mSetKeysNote), err)
		}
		own := map[string][]string{}
		for _, en := range e.keys.grouped() {
			own[en.name] = en.b.Keys()
		}
		for name, keys := range example {
			for _, en := range e.keys.grouped() {
				for _, k := range keys {
					if en.name != name && !slices.Contains(own[name], k) && slices.Contains(en.b.Keys(), k) {
						t.Errorf("%s: the example gives %s %q, which %s has", lang, name, k, en.name)
					}
				}
			}
		}

		m := sceneModel(t, settingsScene(), 80, 24, lang)
		send(t, m, press("f3"))
		if !strings.Contains(plain(m), e.tr.t(mSetApplied)) {
			t.Fatalf("%s: Display does not say changes apply:\n%s", lang, plain(m))
		}
		change := hintKey(firstKey(e.keys.SettingsLess)) + "/" + hintKey(firstKey(e.keys.SettingsMore))
		for range 2 {
			send(t, m, press("shift+tab")) // Data folder, then Keys
			if v := plain(m); strings.Contains(v, e.tr.t(mSetApplied)) || !strings.Contains(v, e.tr.t(mSetReadOnly)) ||
				strings.Contains(v, change) {
				t.Errorf("%s: a page to read only says changes apply or offers to change:\n%s", lang, v)
			}
		}
	}
}
