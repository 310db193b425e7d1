package claude

import "errors"

// Sentinel errors of a Claude Code line; callers compare with errors.Is.
var (
	// ErrOwnSettings: Claude launch options carry their own --settings
	// while the launch must add settings (a character, or other rooms'
	// entries to disable); two --settings on one line are not merged.
	ErrOwnSettings = errors.New("launch options carry their own --settings")
	// ErrOptionsConflict: launch options carry a flag the kind sets itself
	// in a way that cannot be stripped (--resume/--continue).
	ErrOptionsConflict = errors.New("launch options conflict with the kind's own flags")
)
