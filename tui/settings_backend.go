package tui

// Settings is how the settings overlay reads and saves the app's settings
// (docs/design.md §10 "Settings", §12; spec «設定（#172）», «表示（#194）»).
// There is no "apply" step: each change is applied by the UI at once and
// saved by one call; the settings are config.json's (language, theme, the
// brake), what the screen remembers is ui-state.json's (ViewState).
type Settings interface {
	// Settings returns the settings as the file holds them now and where
	// the app keeps its data.
	Settings() (SettingsInfo, error)
	// SaveSettings saves language, theme and brake in config.json, each
	// only when it changed and in its place, keeping every key the app
	// does not know, and applies the brake to every room at once. A value
	// outside its choices is refused and nothing is saved or applied.
	SaveSettings(v SettingValues) error
	// RememberView records which panels are open and the terminals'
	// share, which the next start opens with (Options.View).
	RememberView(v ViewState) error
}

// Theme settings (config.json "theme"): ThemeAuto follows the terminal's
// background (tea.BackgroundColorMsg).
const (
	ThemeAuto  = ""
	ThemeLight = "light"
	ThemeDark  = "dark"
)

// SettingValues are the settings config.json holds: Language "en", "ja",
// or "" for the locale's; Theme ThemeLight, ThemeDark or ThemeAuto; Brake
// the AI posts in a row that brake a room (0: off; docs/design.md §2 "The
// brake").
type SettingValues struct {
	Language string
	Theme    string
	Brake    int
	// SessionOps is what seats may start, stop or restart
	// (docs/design.md §15): SessionOpsTopic, SessionOpsAll or SessionOpsOff.
	SessionOps string
	// TEMPORARY until the settings branch lands.
	Notify         string
	NotifySequence string
	NotifyDwell    int
	NotifyCooldown int
	PermissionWait int
}

// TEMPORARY until the settings branch lands.
const (
	NotifyTerminal = ""
	NotifyOff      = "off"
	NotifyDesktop  = "desktop"
)

// Session-operation rules (config.json "session_operations").
const (
	SessionOpsTopic = "topic" // seats of the asking seat's own topic
	SessionOpsAll   = "all"   // any open topic
	SessionOpsOff   = "off"
)

// DataDirSource is how the data directory was chosen (docs/design.md §12).
type DataDirSource int

// Data directory sources.
const (
	DataDirDefault DataDirSource = iota // the OS config folder + pullcept
	DataDirEnv                          // PULLCEPT_HOME
	DataDirFlag                         // the --data option
)

// SettingsInfo is what the settings overlay shows: the values (Language as
// the file has it), LanguageEnv (PULLCEPT_LANGUAGE when set: it wins over
// the file at each start), BrakeMax (the largest brake the file takes),
// and the data directory with how it was chosen and the files it holds.
type SettingsInfo struct {
	SettingValues
	LanguageEnv string
	BrakeMax    int
	DataDir     string
	DataDirFrom DataDirSource
	ConfigFile  string
	StateFile   string
}

// ViewState is what the screen remembers of its layout across restarts:
// which of the topic list, the participant panel and the seat terminals
// are open, and the terminals' share of the centre column in percent
// (20–90; 0 for the default).
type ViewState struct {
	Topics       bool
	Participants bool
	Panes        bool
	PaneShare    int
}
