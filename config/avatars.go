package config

// How the chat and the participant panel say who is who (docs/design.md
// §10 "Avatars"; spec «会話面の見た目（#225）», #236, #253): the top-level
// config.json key "avatars". Absent (or null, or "names") is the default.
const keyAvatars = "avatars"

// The values of "avatars".
const (
	// AvatarsNames, the default (the key left out, or written "names"):
	// names only.
	AvatarsNames = ""
	// AvatarsInitials: each name has a mark of its initials before it, in
	// its colour, unique among the participants shown.
	AvatarsInitials = "initials"
)

var avatarsKey = choiceKey{key: keyAvatars, def: AvatarsNames, word: "names",
	choices: []string{AvatarsInitials}, what: "how the chat and the panel mark who is who"}

// readDisplay puts the display keys the settings overlay changes beside
// the language and the theme into s.
func (c *Config) readDisplay(s *Settings) error {
	var err error
	s.Avatars, err = avatarsKey.read(c)
	return err
}
