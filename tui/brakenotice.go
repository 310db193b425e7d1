package tui

// BrakeNotice is the text of the notice the room posts when its brake
// engages after n AI posts in a row (docs/design.md §2 "The brake"), in
// the human's language, naming the release key as keys (config.json
// "keys") bind it, and saying no reply is needed: it is typed into the
// seats too, and a seat that answers it only lengthens the loop (issue
// 35: it named the config key release_brake, in English only). The app
// hands it to the room (room.HubOptions.BrakeNotice).
func BrakeNotice(lang Lang, keys map[string][]string, n int) string {
	km := DefaultKeyMap()
	if err := km.Override(keys); err != nil {
		km = DefaultKeyMap() // a bad "keys" stops the UI's start, which says why
	}
	release := hintKey(firstKey(km.ReleaseBrake))
	if release == "" {
		release = "release_brake"
	}
	return catalog{lang: lang}.tn(mBrakeNotice, n, n, release)
}
