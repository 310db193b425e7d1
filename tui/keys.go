package tui

import (
	"fmt"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
)

// KeyMap is every key the UI reacts to (docs/design.md §10 "every action has a
// key and a help overlay lists them"). Defaults come from DefaultKeyMap; a
// user's config.json can replace any binding's keys through Override. Key names
// are Bubble Tea v2 key strings ("ctrl+n", "alt+up", "shift+enter", "f2").
// Every key the UI acts on goes through a binding here, except text editing
// inside the input fields (the Bubbles textarea and textinput key maps) and
// the bytes a focused pane sends its seat (keyenc.go). The help overlay
// lists every binding, the keys of one mode (modalEntries) in their group.
type KeyMap struct {
	// Global (any focus but a seat pane).
	Quit               key.Binding
	Help               key.Binding
	Settings           key.Binding
	FocusNext          key.Binding
	FocusPrev          key.Binding
	FocusInput         key.Binding
	ToggleTopics       key.Binding
	ToggleParticipants key.Binding
	TogglePanes        key.Binding
	NewTopic           key.Binding
	PickTopic          key.Binding
	NextTopic          key.Binding
	PrevTopic          key.Binding
	RenameTopic        key.Binding
	DeleteTopic        key.Binding
	ReleaseBrake       key.Binding
	Messages           key.Binding
	// NeedsYou jumps to the next item that needs the human (a card, a
	// post, a pane, a topic) and NeedsYouList lists them (attention.go);
	// NeedsYou works from a focused pane too.
	NeedsYou     key.Binding
	NeedsYouList key.Binding
	NextPane     key.Binding
	PrevPane     key.Binding
	GrowPanes    key.Binding
	ShrinkPanes  key.Binding
	ScrollUp     key.Binding
	ScrollDown   key.Binding
	// JumpLatest brings the chat to its newest post from any focus; in the
	// input bar only once the caret is at the end of its line (before,
	// End moves the caret there).
	JumpLatest key.Binding

	// Input bar.
	Send    key.Binding
	Newline key.Binding
	Clear   key.Binding
	// The human's own posts of the open topic, in an empty input (or one
	// showing a recalled post): multi-line text keeps the arrows for its
	// lines until the caret is on its first (last) one.
	HistoryPrev key.Binding
	HistoryNext key.Binding
	// The @ popup moves on the arrows only: k and j type into the input.
	PopupUp   key.Binding
	PopupDown key.Binding
	// Attachments: the attach prompt (its Tab and Enter), and the last
	// chip removed.
	Attach         key.Binding
	Detach         key.Binding
	AttachComplete key.Binding
	AttachChoose   key.Binding

	// Lists (chat, topics, participants, pickers, popup).
	Up     key.Binding
	Down   key.Binding
	Top    key.Binding
	Bottom key.Binding
	Select key.Binding
	Pick   key.Binding
	Cancel key.Binding
	// A chat post's attachment chips: choose one, open it.
	OpenAttachment key.Binding
	AttachmentPrev key.Binding
	AttachmentNext key.Binding

	// Topic list, its rename prompt and the topic finder (whose filter
	// takes letters, so it moves on the arrows and ctrl+p/ctrl+n only).
	TopicNew    key.Binding
	TopicRename key.Binding
	TopicDelete key.Binding
	RenameSave  key.Binding
	PickerUp    key.Binding
	PickerDown  key.Binding
	PickerOpen  key.Binding

	// Participant panel.
	SeatStart     key.Binding
	SeatStop      key.Binding
	AccountEdit   key.Binding
	AccountNew    key.Binding
	QuickClaude   key.Binding
	QuickCodex    key.Binding
	QuickCLI      key.Binding
	SeatOpenPane  key.Binding
	ToggleFold    key.Binding
	CopySessionID key.Binding

	// Seat pane. NextPane, PrevPane and LeavePane act in a focused pane
	// too (every other key goes to its seat); ClosePane only in an exited
	// one. In scrollback Up, Down, Top and Bottom move too, digits count
	// lines for CopyLines, and SearchRun runs the search prompt's query.
	LeavePane          key.Binding
	ClosePane          key.Binding
	Scrollback         key.Binding
	ScrollbackExit     key.Binding
	ScrollbackPageUp   key.Binding
	ScrollbackPageDown key.Binding
	ScrollbackSearch   key.Binding
	SearchRun          key.Binding
	SearchNext         key.Binding
	SearchPrev         key.Binding
	CopyLines          key.Binding

	// Editor and dialogs. NextField and PrevField include the arrows,
	// which move between lines inside the env field: there only
	// NextFieldAlways and PrevFieldAlways leave it.
	Save            key.Binding
	NextField       key.Binding
	PrevField       key.Binding
	NextFieldAlways key.Binding
	PrevFieldAlways key.Binding
	ChoicePrev      key.Binding
	ChoiceNext      key.Binding
	Delete          key.Binding
	Confirm         key.Binding
	Deny            key.Binding
	SwitchAnswer    key.Binding
	ChooseAnswer    key.Binding
	// The editor's character fields and launch preview.
	CharacterStyles key.Binding
	OpenInEditor    key.Binding
	ReloadBody      key.Binding
	PreviewUp       key.Binding
	PreviewDown     key.Binding

	// The settings overlay (settings.go): Up and Down choose a row (or
	// scroll a section that only shows), SettingsLess and SettingsMore
	// change its value (ScrollUp and ScrollDown by ten for a number), the
	// section keys go to the next or previous section; Cancel or Settings
	// closes it.
	SettingsLess        key.Binding
	SettingsMore        key.Binding
	SettingsSection     key.Binding
	SettingsSectionPrev key.Binding

	// Permission cards (permission.go): Permission (global) focuses the
	// card shown; focused, the others answer it, go to its seat's pane or
	// show another card, and Cancel gives focus back. PermissionSend sends
	// a denial with the reason typed.
	Permission       key.Binding
	PermissionAllow  key.Binding
	PermissionAlways key.Binding
	PermissionDeny   key.Binding
	PermissionReason key.Binding
	PermissionSend   key.Binding
	PermissionPane   key.Binding
	PermissionPrev   key.Binding
	PermissionNext   key.Binding
}

// bindingEntry names one binding for Override and the help overlay.
type bindingEntry struct {
	name  string // config.json name, snake_case
	group msgKey // help section
	help  msgKey // help description
	b     *key.Binding
}

func nb(keys ...string) key.Binding { return key.NewBinding(key.WithKeys(keys...)) }

// DefaultKeyMap returns the default bindings. The pane leave key is ctrl+]
// (0x1d, the telnet escape): neither Claude Code nor Codex CLI uses it, and
// every terminal can send it.
func DefaultKeyMap() KeyMap {
	k := KeyMap{
		Quit:               nb("ctrl+q"),
		Help:               nb("f1"),
		Settings:           nb("f3"),
		FocusNext:          nb("tab"),
		FocusPrev:          nb("shift+tab"),
		FocusInput:         nb("esc"),
		ToggleTopics:       nb("ctrl+b"),
		ToggleParticipants: nb("ctrl+o"),
		TogglePanes:        nb("ctrl+t"),
		NewTopic:           nb("ctrl+n"),
		PickTopic:          nb("ctrl+p"),
		NextTopic:          nb("alt+down", "ctrl+pgdown"),
		PrevTopic:          nb("alt+up", "ctrl+pgup"),
		RenameTopic:        nb("f2"),
		DeleteTopic:        nb("f8"),
		ReleaseBrake:       nb("f9"),
		NextPane:           nb("f6"),
		GrowPanes:          nb("ctrl+up"),
		ShrinkPanes:        nb("ctrl+down"),
		ScrollUp:           nb("pgup"),
		ScrollDown:         nb("pgdown"),
		JumpLatest:         nb("end"),

		Send:        nb("enter"),
		Newline:     nb("shift+enter", "alt+enter", "ctrl+j"),
		Clear:       nb("ctrl+c"),
		HistoryPrev: nb("up"),
		HistoryNext: nb("down"),
		PopupUp:     nb("up"),
		PopupDown:   nb("down"),

		Up:     nb("up", "k"),
		Down:   nb("down", "j"),
		Top:    nb("home"),
		Bottom: nb("end"),
		Select: nb("enter", "space"),
		Pick:   nb("enter", "tab"),
		Cancel: nb("esc"),

		TopicNew:    nb("n"),
		TopicRename: nb("r"),
		TopicDelete: nb("d", "delete"),
		RenameSave:  nb("enter"),
		PickerUp:    nb("up", "ctrl+p"),
		PickerDown:  nb("down", "ctrl+n"),
		PickerOpen:  nb("enter"),

		SeatStart:     nb("s"),
		SeatStop:      nb("x"),
		AccountEdit:   nb("e"),
		AccountNew:    nb("a"),
		QuickClaude:   nb("1"),
		QuickCodex:    nb("2"),
		QuickCLI:      nb("3"),
		SeatOpenPane:  nb("enter"),
		ToggleFold:    nb("enter", "space"),
		CopySessionID: nb("c"),

		Save:            nb("ctrl+s"),
		NextField:       nb("tab", "down"),
		PrevField:       nb("shift+tab", "up"),
		NextFieldAlways: nb("tab"),
		PrevFieldAlways: nb("shift+tab"),
		ChoicePrev:      nb("left"),
		ChoiceNext:      nb("right", "space", "enter"),
		Delete:          nb("ctrl+d"),
		Confirm:         nb("y"),
		Deny:            nb("n"),
		SwitchAnswer:    nb("left", "right", "tab", "shift+tab"),
		ChooseAnswer:    nb("enter", "space"),
	}
	k.attachmentDefaults()
	k.noticeDefaults()
	k.editorDefaults()
	k.settingsDefaults()
	k.paneDefaults()
	k.permissionDefaults()
	return k
}

// noticeDefaults sets the keys of what the app tells the human: F5 goes to
// the next thing that needs them, Shift+F5 lists those, F12 shows every
// status message whole.
func (k *KeyMap) noticeDefaults() {
	k.NeedsYou = nb("f5")
	k.NeedsYouList = nb("shift+f5")
	k.Messages = nb("f12")
}

// permissionDefaults sets the permission cards' keys (docs/design.md §10
// "Permission cards"): F7 focuses the card; then y allows once, a allows
// and applies the CLI's suggestions, n denies, r opens a line for the
// denial's reason (Enter sends it), g goes to the seat's pane, ←/→ show
// another card. Letters act only while the card has focus: nothing typed
// elsewhere answers it.
func (k *KeyMap) permissionDefaults() {
	k.Permission = nb("f7")
	k.PermissionAllow = nb("y")
	k.PermissionAlways = nb("a")
	k.PermissionDeny = nb("n")
	k.PermissionReason = nb("r")
	k.PermissionSend = nb("enter")
	k.PermissionPane = nb("g")
	k.PermissionPrev = nb("left")
	k.PermissionNext = nb("right")
}

// editorDefaults sets the account editor's character and preview keys
// (docs/design.md §9 "Character"): ctrl+l lists the styles, ctrl+o opens
// the body in $EDITOR, ctrl+r reads it again; pgup/pgdn scroll the launch
// preview (in the body and env fields they page the field).
func (k *KeyMap) editorDefaults() {
	k.CharacterStyles = nb("ctrl+l")
	k.OpenInEditor = nb("ctrl+o")
	k.ReloadBody = nb("ctrl+r")
	k.PreviewUp = nb("pgup")
	k.PreviewDown = nb("pgdown")
}

// settingsDefaults sets the settings overlay's keys (docs/design.md §10
// "Settings"): ←/→ (or -/+, Space for the next choice) change the chosen
// row's value, Tab and Shift+Tab go through the sections.
func (k *KeyMap) settingsDefaults() {
	k.SettingsLess = nb("left", "-")
	k.SettingsMore = nb("right", "+", "space")
	k.SettingsSection = nb("tab")
	k.SettingsSectionPrev = nb("shift+tab")
}

// paneDefaults sets the keys of a seat pane (docs/design.md
// §10): Ctrl+] leaves it, Shift+PgUp reads its scrollback; F6 and Shift+F6
// go to the next and previous pane (they never reach a
// seat: no CLI we drive uses them), x closes an exited one; in scrollback /
// searches (Enter runs it), n goes to the older match and N the newer, y
// copies the selection or the last lines.
func (k *KeyMap) paneDefaults() {
	k.LeavePane = nb("ctrl+]")
	k.Scrollback = nb("shift+pgup")
	k.ScrollbackExit = nb("esc", "q")
	k.ScrollbackPageUp = nb("pgup", "shift+pgup")
	k.ScrollbackPageDown = nb("pgdown", "shift+pgdown")
	k.PrevPane = nb("shift+f6")
	k.ClosePane = nb("x")
	k.ScrollbackSearch = nb("/")
	k.SearchRun = nb("enter")
	k.SearchNext = nb("n")
	k.SearchPrev = nb("N")
	k.CopyLines = nb("y")
}

// attachmentDefaults sets the attachments' keys (docs/design.md §10): F4
// (or Alt+A) opens the attach prompt, whose Tab completes and Enter
// attaches; Ctrl+X takes the input bar's last chip; in the chat Enter (or
// o) opens the chosen chip of the selected post and ←/→ choose another.
func (k *KeyMap) attachmentDefaults() {
	k.Attach = nb("f4", "alt+a")
	k.Detach = nb("ctrl+x")
	k.AttachComplete = nb("tab")
	k.AttachChoose = nb("enter")
	k.OpenAttachment = nb("o", "enter")
	k.AttachmentPrev = nb("left")
	k.AttachmentNext = nb("right")
}

// entries names every binding: those the help overlay lists, then the
// modal ones.
func (k *KeyMap) entries() []bindingEntry {
	return append(k.helpEntries(), k.modalEntries()...)
}

// grouped is every binding for the help overlay: groups in the order
// helpEntries first shows them, each group's modal keys after its others.
func (k *KeyMap) grouped() []bindingEntry {
	all := k.entries()
	var order []msgKey
	seen := map[msgKey]bool{}
	for _, e := range all {
		if !seen[e.group] {
			seen[e.group] = true
			order = append(order, e.group)
		}
	}
	out := make([]bindingEntry, 0, len(all))
	for _, g := range order {
		for _, e := range all {
			if e.group == g {
				out = append(out, e)
			}
		}
	}
	return out
}

// helpEntries are the bindings the help overlay lists, in its order.
func (k *KeyMap) helpEntries() []bindingEntry {
	g, in, li, tp, pa, pn, ed := mGroupGlobal, mGroupInput, mGroupLists, mGroupTopics, mGroupParticipants, mGroupPane, mGroupEditor
	return []bindingEntry{
		{"quit", g, mHelpQuit, &k.Quit},
		{"help", g, mHelpHelp, &k.Help},
		{"settings", g, mHelpSettings, &k.Settings},
		{"permission", g, mHelpPermission, &k.Permission},
		{"focus_next", g, mHelpFocusNext, &k.FocusNext},
		{"focus_prev", g, mHelpFocusPrev, &k.FocusPrev},
		{"focus_input", g, mHelpFocusInput, &k.FocusInput},
		{"toggle_topics", g, mHelpToggleTopics, &k.ToggleTopics},
		{"toggle_participants", g, mHelpToggleParticipants, &k.ToggleParticipants},
		{"toggle_panes", g, mHelpTogglePanes, &k.TogglePanes},
		{"new_topic", g, mHelpNewTopic, &k.NewTopic},
		{"pick_topic", g, mHelpPickTopic, &k.PickTopic},
		{"next_topic", g, mHelpNextTopic, &k.NextTopic},
		{"prev_topic", g, mHelpPrevTopic, &k.PrevTopic},
		{"rename_topic", g, mHelpRenameTopic, &k.RenameTopic},
		{"delete_topic", g, mHelpDeleteTopic, &k.DeleteTopic},
		{"release_brake", g, mHelpReleaseBrake, &k.ReleaseBrake},
		{"messages", g, mHelpMessages, &k.Messages},
		{"needs_you", g, mHelpNeedsYou, &k.NeedsYou},
		{"needs_you_list", g, mHelpNeedsYouList, &k.NeedsYouList},
		{"next_pane", g, mHelpNextPane, &k.NextPane},
		{"prev_pane", g, mHelpPrevPane, &k.PrevPane},
		{"grow_panes", g, mHelpGrowPanes, &k.GrowPanes},
		{"shrink_panes", g, mHelpShrinkPanes, &k.ShrinkPanes},
		{"scroll_up", g, mHelpScrollUp, &k.ScrollUp},
		{"scroll_down", g, mHelpScrollDown, &k.ScrollDown},
		{"jump_latest", g, mHelpJumpLatest, &k.JumpLatest},
		{"send", in, mHelpSend, &k.Send},
		{"newline", in, mHelpNewline, &k.Newline},
		{"clear", in, mHelpClear, &k.Clear},
		{"history_prev", in, mHelpHistoryPrev, &k.HistoryPrev},
		{"history_next", in, mHelpHistoryNext, &k.HistoryNext},
		{"attach", in, mHelpAttach, &k.Attach},
		{"detach", in, mHelpDetach, &k.Detach},
		{"up", li, mHelpUp, &k.Up},
		{"down", li, mHelpDown, &k.Down},
		{"top", li, mHelpTop, &k.Top},
		{"bottom", li, mHelpBottom, &k.Bottom},
		{"select", li, mHelpSelect, &k.Select},
		{"pick", li, mHelpPick, &k.Pick},
		{"cancel", li, mHelpCancel, &k.Cancel},
		{"toggle_fold", li, mHelpToggleFold, &k.ToggleFold},
		{"open_attachment", li, mHelpOpenAttachment, &k.OpenAttachment},
		{"topic_new", tp, mHelpNewTopic, &k.TopicNew},
		{"topic_rename", tp, mHelpRenameTopic, &k.TopicRename},
		{"topic_delete", tp, mHelpDeleteTopic, &k.TopicDelete},
		{"seat_start", pa, mHelpSeatStart, &k.SeatStart},
		{"seat_stop", pa, mHelpSeatStop, &k.SeatStop},
		{"account_edit", pa, mHelpAccountEdit, &k.AccountEdit},
		{"account_new", pa, mHelpAccountNew, &k.AccountNew},
		{"quick_claude", pa, mHelpQuickClaude, &k.QuickClaude},
		{"quick_codex", pa, mHelpQuickCodex, &k.QuickCodex},
		{"quick_cli", pa, mHelpQuickCLI, &k.QuickCLI},
		{"seat_open_pane", pa, mHelpSeatOpenPane, &k.SeatOpenPane},
		{"copy_session_id", pa, mHelpCopySessionID, &k.CopySessionID},
		{"leave_pane", pn, mHelpLeavePane, &k.LeavePane},
		{"close_pane", pn, mHelpClosePane, &k.ClosePane},
		{"scrollback", pn, mHelpScrollback, &k.Scrollback},
		{"save", ed, mHelpSave, &k.Save},
		{"next_field", ed, mHelpNextField, &k.NextField},
		{"prev_field", ed, mHelpPrevField, &k.PrevField},
		{"confirm", mGroupDialogs, mHelpConfirm, &k.Confirm},
	}
}

// modalEntries are the keys of one mode: the @ popup, the rename prompt,
// the topic finder, pane scrollback, the account editor, the dialogs and
// the settings overlay. The editor's keys and the dialogs' answers are
// groups of their own (issue 35: "Editor and dialogs" interleaved them).
// Overridable by name like any other; the help overlay lists them in their
// group (grouped).
func (k *KeyMap) modalEntries() []bindingEntry {
	in, tp, pn, ed := mGroupInput, mGroupTopics, mGroupPane, mGroupEditor
	return []bindingEntry{
		{"popup_up", in, mHelpPopupUp, &k.PopupUp},
		{"popup_down", in, mHelpPopupDown, &k.PopupDown},
		{"attach_complete", in, mHelpAttachComplete, &k.AttachComplete},
		{"attach_choose", in, mHelpAttachChoose, &k.AttachChoose},
		{"attachment_prev", mGroupLists, mHelpAttachmentPrev, &k.AttachmentPrev},
		{"attachment_next", mGroupLists, mHelpAttachmentNext, &k.AttachmentNext},
		{"rename_save", tp, mHelpRenameSave, &k.RenameSave},
		{"picker_up", tp, mHelpPickerUp, &k.PickerUp},
		{"picker_down", tp, mHelpPickerDown, &k.PickerDown},
		{"picker_open", tp, mHelpPickerOpen, &k.PickerOpen},
		{"scrollback_exit", pn, mHelpScrollbackExit, &k.ScrollbackExit},
		{"scrollback_page_up", pn, mHelpScrollbackPageUp, &k.ScrollbackPageUp},
		{"scrollback_page_down", pn, mHelpScrollbackPageDown, &k.ScrollbackPageDown},
		{"scrollback_search", pn, mHelpSearch, &k.ScrollbackSearch},
		{"search_run", pn, mHelpSearchRun, &k.SearchRun},
		{"search_next", pn, mHelpSearchNext, &k.SearchNext},
		{"search_prev", pn, mHelpSearchPrev, &k.SearchPrev},
		{"copy_lines", pn, mHelpCopyLines, &k.CopyLines},
		{"next_field_always", ed, mHelpNextFieldAlways, &k.NextFieldAlways},
		{"prev_field_always", ed, mHelpPrevFieldAlways, &k.PrevFieldAlways},
		{"choice_prev", ed, mHelpChoicePrev, &k.ChoicePrev},
		{"choice_next", ed, mHelpChoiceNext, &k.ChoiceNext},
		{"character_styles", ed, mHelpCharacterStyles, &k.CharacterStyles},
		{"open_in_editor", ed, mHelpOpenInEditor, &k.OpenInEditor},
		{"reload_body", ed, mHelpReloadBody, &k.ReloadBody},
		{"preview_up", ed, mHelpPreviewUp, &k.PreviewUp},
		{"preview_down", ed, mHelpPreviewDown, &k.PreviewDown},
		{"delete", ed, mHelpDelete, &k.Delete},
		{"deny", mGroupDialogs, mHelpDeny, &k.Deny},
		{"switch_answer", mGroupDialogs, mHelpSwitchAnswer, &k.SwitchAnswer},
		{"choose_answer", mGroupDialogs, mHelpChooseAnswer, &k.ChooseAnswer},
		{"settings_less", mGroupSettings, mHelpSettingsLess, &k.SettingsLess},
		{"settings_more", mGroupSettings, mHelpSettingsMore, &k.SettingsMore},
		{"settings_section", mGroupSettings, mHelpSettingsSection, &k.SettingsSection},
		{"settings_section_prev", mGroupSettings, mHelpSettingsSectionPrev, &k.SettingsSectionPrev},
		{"permission_allow", mGroupPermission, mHelpPermAllow, &k.PermissionAllow},
		{"permission_always", mGroupPermission, mHelpPermAlways, &k.PermissionAlways},
		{"permission_deny", mGroupPermission, mHelpPermDeny, &k.PermissionDeny},
		{"permission_reason", mGroupPermission, mHelpPermReason, &k.PermissionReason},
		{"permission_send", mGroupPermission, mHelpPermSend, &k.PermissionSend},
		{"permission_pane", mGroupPermission, mHelpPermPane, &k.PermissionPane},
		{"permission_prev", mGroupPermission, mHelpPermPrev, &k.PermissionPrev},
		{"permission_next", mGroupPermission, mHelpPermNext, &k.PermissionNext},
	}
}

// Override replaces the keys of the named bindings, e.g.
// {"new_topic": ["ctrl+n", "f3"]} (names as in config.json, snake_case; see
// the help overlay). Every name is checked before anything changes: an
// unknown name or an empty key list returns an error wrapping
// ErrUnknownBinding / ErrNoKeys and leaves k untouched.
func (k *KeyMap) Override(m map[string][]string) error {
	byName := map[string]*key.Binding{}
	for _, e := range k.entries() {
		byName[e.name] = e.b
	}
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if _, ok := byName[n]; !ok {
			return fmt.Errorf("key binding %q: %w", n, ErrUnknownBinding)
		}
		keys := m[n]
		if len(keys) == 0 {
			return fmt.Errorf("key binding %q: %w", n, ErrNoKeys)
		}
		for _, s := range keys {
			if strings.TrimSpace(s) == "" {
				return fmt.Errorf("key binding %q: %w", n, ErrNoKeys)
			}
		}
	}
	for _, n := range names {
		byName[n].SetKeys(m[n]...)
	}
	return nil
}

// keysLabel is a binding's keys as the keyboard names them (hintKey).
func keysLabel(b key.Binding) string { return strings.Join(keyTexts(b), " / ") }

// keyTexts are a binding's keys as the keyboard names them (hintKey).
func keyTexts(b key.Binding) []string {
	ks := b.Keys()
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = hintKey(k)
	}
	return out
}
