package seats

import (
	"errors"

	"github.com/pullcept/pullcept/config"
)

// Sentinel errors; callers compare with errors.Is. A refused launch wraps
// one of these with the reason the UI shows (docs/design.md §9).
var (
	// ErrKindNotLaunched: admin and mcp accounts run no seat.
	ErrKindNotLaunched = errors.New("this kind of account does not launch")
	// ErrNoWorkDir: the account has no absolute working directory (no
	// fallback to the process cwd, docs/design.md §9). The same value as
	// config.ErrNoWorkDir, so either name matches.
	ErrNoWorkDir = config.ErrNoWorkDir
	// ErrNoCommand: the account has no command (= config.ErrNoCommand).
	ErrNoCommand = config.ErrNoCommand
	// ErrNoTopic: the launch names no topic (a seat is per topic and account).
	ErrNoTopic = errors.New("topic id is required")
	// ErrOwnSettings: Claude launch options carry their own --settings while
	// the launch must add settings (a character, or other rooms' entries to
	// disable); two --settings on one line are not merged.
	ErrOwnSettings = errors.New("launch options carry their own --settings")
	// ErrOptionsConflict: launch options carry a flag the kind sets itself
	// in a way that cannot be stripped (Claude's --resume/--continue).
	ErrOptionsConflict = errors.New("launch options conflict with the kind's own flags")
	// ErrStartStopped: Stop came while the start was under way; the start
	// undid itself.
	ErrStartStopped = errors.New("stopped while starting")
	// ErrCodexOption: a launch option an app-server Codex seat has no place
	// for, or one without its value (spec #299).
	ErrCodexOption = errors.New("launch option refused for an app-server Codex seat")
	// ErrNoSessionID: a resume was asked for without a recorded session id.
	ErrNoSessionID = errors.New("no session id to resume")
	// ErrNoResumeLine: a generic CLI was asked to resume without a resume line.
	ErrNoResumeLine = errors.New("no resume line")
	// ErrPlaceholder: {session_id} where no id can be given (a fresh Codex
	// seat: Codex makes its own id).
	ErrPlaceholder = errors.New("{session_id} has no id to take here")
	// ErrRoomAddress: the room or hooks URL is missing or not loopback.
	ErrRoomAddress = errors.New("bad room address")
	// ErrNoPullceptPath: the path of our own executable is missing or not
	// absolute (the CLI starts the sidecar from any directory).
	ErrNoPullceptPath = errors.New("absolute path of the pullcept executable is required")
	// ErrMCPJSON: a .mcp.json or .claude/settings.local.json that is not
	// valid JSON or has the wrong shape; the file is left untouched.
	ErrMCPJSON = errors.New("bad MCP settings file")
	// ErrNoHome: neither the CLI's config variable nor a home directory is set.
	ErrNoHome = errors.New("no home directory")
)

// Sentinel errors of the seat Manager.
var (
	// ErrUnknownAccount: no account has that id.
	ErrUnknownAccount = errors.New("unknown account")
	// ErrNotASeat: the account's kind (admin, mcp) does not run as a seat.
	ErrNotASeat = errors.New("account kind does not run as a seat")
	// ErrNoSeat: (topic, account) has no seat.
	ErrNoSeat = errors.New("no such seat")
	// ErrManagerClosed: the Manager was closed (the app is quitting).
	ErrManagerClosed = errors.New("seat manager closed")
	// ErrKilled: a seat's process was ended by a signal nobody in the app
	// sent (SeatInfo.Err wraps it with the signal number).
	ErrKilled = errors.New("killed")
)

// Sentinel errors of an account's character and working directory
// (docs/design.md §9 "Character").
var (
	// ErrWorkDirMissing: the working directory does not exist.
	ErrWorkDirMissing = errors.New("working directory does not exist")
	// ErrWorkDirNotDir: the working directory is not a directory.
	ErrWorkDirNotDir = errors.New("working directory is not a directory")
	// ErrCharacterName: a character name that cannot name its body file
	// (a separator, .., a Windows reserved name …) or breaks Codex's
	// grammar (#281).
	ErrCharacterName = errors.New("bad character name")
	// ErrCharacterOutside: the body file, followed through its links,
	// leaves the working directory.
	ErrCharacterOutside = errors.New("character file is outside the working directory")
	// ErrCharacterNotFile: the body file is a folder, FIFO, device or socket.
	ErrCharacterNotFile = errors.New("character file is not a regular file")
	// ErrCharacterTooBig: a body over MaxCharacterBytes.
	ErrCharacterTooBig = errors.New("character file is too big")
	// ErrCharacterNotUTF8: a body file that is not UTF-8.
	ErrCharacterNotUTF8 = errors.New("character file is not UTF-8")
	// ErrCharacterChanged: the body file changed since the editor read it.
	ErrCharacterChanged = errors.New("character file changed since it was opened")
	// ErrCodexStylesFolder: writing would create .codex/output-styles, which
	// switches every Codex seat in the folder to Li+'s file mode (#281); the
	// person must ask for it.
	ErrCodexStylesFolder = errors.New(".codex/output-styles does not exist")
	// ErrEnvAppOwned: an account's env sets a variable the launch sets
	// itself (LI_PLUS_OUTPUT_STYLE for a Codex seat).
	ErrEnvAppOwned = errors.New("env var is set by the character field")
)
