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
	// SaveSettings saves the settings in config.json, each only when it
	// changed and in its place, keeping every key the app does not know,
	// and applies the brake to every room and the permission cards' wait
	// to the cards opened from then on. A value outside its choices is
	// refused and nothing is saved or applied.
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
	// Avatars is how the chat and the panel mark who is who (config.json
	// "avatars"): AvatarsNames (the default) or AvatarsInitials.
	Avatars string
	Brake   int
	// SessionOps is what seats may start, stop or restart
	// (docs/design.md §15): SessionOpsTopic, SessionOpsAll or SessionOpsOff.
	SessionOps string

	// Notify is how the human is called back when something needs them
	// (config.json "notifications"): NotifyTerminal (the default),
	// NotifyOff or NotifyDesktop.
	Notify string
	// NotifySequence is what rings a terminal (config.json
	// "notify_sequence"): NotifySeqAuto (the default: from the terminal),
	// NotifySeqOSC9, NotifySeqOSC777, NotifySeqOSC99 or NotifySeqBEL.
	NotifySequence string
	// NotifyDwell is how many seconds an item waits unseen before it rings
	// (config.json "notify_dwell"; 5 by default, 0 at once, up to 600).
	NotifyDwell int
	// NotifyCooldown is how many seconds the same seat stays quiet after a
	// ring (config.json "notify_cooldown"; 60 by default, 0–3600).
	NotifyCooldown int
	// PermissionWait is how many seconds a permission card waits for the
	// human before the seat's own dialog decides alone (config.json
	// "permission_wait"; 180 by default, up to SettingsInfo's
	// PermissionWaitMax). New cards follow a change at once.
	PermissionWait int
}

// Notification settings (config.json "notifications").
const (
	// NotifyTerminal rings the terminal the human is attached from.
	NotifyTerminal = ""
	// NotifyOff calls nobody.
	NotifyOff = "off"
	// NotifyDesktop shows a desktop notification when the human's
	// terminal is on this machine, else rings the terminal.
	NotifyDesktop = "desktop"
)

// What rings a terminal (config.json "notify_sequence").
const (
	NotifySeqAuto   = ""       // chosen from what the terminal says it is
	NotifySeqOSC9   = "osc9"   // OSC 9: a notification with its text
	NotifySeqOSC777 = "osc777" // OSC 777 notify: a title and a text
	NotifySeqBEL    = "bel"    // the bell alone
	NotifySeqOSC99  = "osc99"  // OSC 99: kitty's own, a title and a text
)

// How the chat and the panel mark who is who (config.json "avatars";
// docs/design.md §10 "Avatars").
const (
	AvatarsNames    = ""         // names only
	AvatarsInitials = "initials" // a unique mark of initials before each name
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
// PermissionWaitMax (the longest card wait, in seconds: the room's
// bound), and the data directory with how it was chosen and the files it
// holds.
type SettingsInfo struct {
	SettingValues
	LanguageEnv       string
	BrakeMax          int
	PermissionWaitMax int
	DataDir           string
	DataDirFrom       DataDirSource
	ConfigFile        string
	StateFile         string
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
