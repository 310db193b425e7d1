package seats

import "errors"

// ErrCodexOption: a launch option an app-server Codex seat has no place
// for, or one without its value (spec #299).
var ErrCodexOption = errors.New("launch option refused for an app-server Codex seat")
