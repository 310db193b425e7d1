package tui

import "time"

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
	// gen is bumped when theme, language or self change; every render key
	// holds it, so every cache redraws.
	gen int
}
