package seats

import "errors"

// ErrOwnSettings: Claude launch options carry their own --settings while
// the launch must add settings (a character, or other rooms' entries to
// disable); two --settings on one line are not merged.
var ErrOwnSettings = errors.New("launch options carry their own --settings")

// ErrOptionsConflict: launch options carry a flag the kind sets itself
// in a way that cannot be stripped (Claude's --resume/--continue).
var ErrOptionsConflict = errors.New("launch options conflict with the kind's own flags")
