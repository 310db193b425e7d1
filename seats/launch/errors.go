package launch

import (
	"errors"

	"github.com/pullcept/pullcept/config"
)

// ErrKindNotLaunched: admin and mcp accounts run no seat.
var ErrKindNotLaunched = errors.New("this kind of account does not launch")

// ErrNoWorkDir: the account has no absolute working directory (no
// fallback to the process cwd, docs/design.md §9). The same value as
// config.ErrNoWorkDir, so either name matches.
var ErrNoWorkDir = config.ErrNoWorkDir

// ErrNoCommand: the account has no command (= config.ErrNoCommand).
var ErrNoCommand = config.ErrNoCommand

// ErrNoTopic: the launch names no topic (a seat is per topic and account).
var ErrNoTopic = errors.New("topic id is required")

// ErrNoSessionID: a resume was asked for without a recorded session id.
var ErrNoSessionID = errors.New("no session id to resume")

// ErrNoResumeLine: a generic CLI was asked to resume without a resume line.
var ErrNoResumeLine = errors.New("no resume line")

// ErrPlaceholder: {session_id} where no id can be given (a fresh Codex
// seat: Codex makes its own id).
var ErrPlaceholder = errors.New("{session_id} has no id to take here")

// ErrRoomAddress: the room or hooks URL is missing or not loopback.
var ErrRoomAddress = errors.New("bad room address")

// ErrNoPullceptPath: the path of our own executable is missing or not
// absolute (the CLI starts the sidecar from any directory).
var ErrNoPullceptPath = errors.New("absolute path of the pullcept executable is required")

// ErrMCPJSON: a .mcp.json or .claude/settings.local.json that is not
// valid JSON or has the wrong shape; the file is left untouched.
var ErrMCPJSON = errors.New("bad MCP settings file")
