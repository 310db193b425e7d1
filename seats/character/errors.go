package character

import "errors"

// Sentinel errors of an account's character and working directory
// (docs/design.md §9 "Character").
var (
	// ErrWorkDirMissing: the working directory does not exist.
	ErrWorkDirMissing = errors.New("working directory does not exist")
	// ErrWorkDirNotDir: the working directory is not a directory.
	ErrWorkDirNotDir = errors.New("working directory is not a directory")
	// ErrName: a character name that cannot name its body file
	// (a separator, .., a Windows reserved name …) or breaks Codex's
	// grammar (#281).
	ErrName = errors.New("bad character name")
	// ErrOutside: the body file, followed through its links,
	// leaves the working directory.
	ErrOutside = errors.New("character file is outside the working directory")
	// ErrNotFile: the body file is a folder, FIFO, device or socket.
	ErrNotFile = errors.New("character file is not a regular file")
	// ErrTooBig: a body over MaxBytes.
	ErrTooBig = errors.New("character file is too big")
	// ErrNotUTF8: a body file that is not UTF-8.
	ErrNotUTF8 = errors.New("character file is not UTF-8")
	// ErrChanged: the body file changed since the editor read it.
	ErrChanged = errors.New("character file changed since it was opened")
	// ErrCodexStylesFolder: writing would create .codex/output-styles, which
	// switches every Codex seat in the folder to Li+'s file mode (#281); the
	// person must ask for it.
	ErrCodexStylesFolder = errors.New(".codex/output-styles does not exist")
	// ErrEnvAppOwned: an account's env sets a variable the launch sets
	// itself (LI_PLUS_OUTPUT_STYLE for a Codex seat).
	ErrEnvAppOwned = errors.New("env var is set by the character field")
	// ErrInline: the user's developer_instructions cannot select the
	// account's inline character (#276): a bad or repeated heading, an
	// empty block, no heading of that name.
	ErrInline = errors.New("inline character selection refused")
	// ErrInlineHookMode: an inline character needs app-server mode (a hook
	// mode seat would need its effective developer_instructions rewritten on
	// its command line, which this build does not do).
	ErrInlineHookMode = errors.New("inline character selection needs app-server mode")
)
