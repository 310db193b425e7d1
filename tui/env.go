package tui

import (
	"time"

	"charm.land/bubbles/v2/key"
)

// env is what widgets need to render: theme, text catalog, clock, and who
// this screen is. The root model owns it; widgets only read it.
type env struct {
	th       *theme
	tr       catalog
	keys     *KeyMap
	loc      *time.Location   // times are shown in this zone
	now      func() time.Time // "today" and the time of the admin's posts
	selfName string           // this screen's admin: own posts sit on the right
	selfHue  *int             // the admin's declared hue, nil for the accent
	// attachDir is the attachments folder (Backend.AttachmentsDir): a
	// post's block of paths below it is drawn as chips; "" until known.
	attachDir string
	// hues is every configured account's colour now, by account id
	// (accountHue): a post is drawn in its account's colour, not in the
	// one its speaker had when it was said, so a renamed or recoloured
	// account's old posts stay the same person's (docs/design.md §10).
	hues map[string]int
	// mcp is every mcp account's display name now, by account id: their
	// posts fold into "name (N)" in the chat (foldGroup).
	mcp map[string]string
	// marks are the participants' marks of initials, by markAccountKey or
	// markNameKey (avatars.go); nil while the setting says names only.
	marks map[string]string
	// served: a UI of `pullcept server` (Options.Served). The clipboard
	// this process can read is then the server host's, not the human's.
	served bool
	// gen is bumped when theme, language or self change; every render key
	// holds it, so every cache redraws.
	gen int
}

// noHostPaste unbinds a text field's clipboard key (bubbles' Paste reads
// the clipboard of the machine this process runs on) in a served UI. The
// client terminal's own paste still arrives as a tea.PasteMsg.
func (e *env) noHostPaste(b *key.Binding) {
	if e.served {
		*b = key.NewBinding()
	}
}

// helpText is a help row's description: in a served UI the quit key
// detaches.
func (e *env) helpText(k msgKey) string {
	if e.served && k == mHelpQuit {
		k = mHelpQuitServed
	}
	return e.tr.t(k)
}
