package room

import "errors"

// Sentinel errors; callers compare with errors.Is.
var (
	// ErrNoRoom: the topic has no open room, or the connection has not taken
	// a seat in one (wire: every request gets an error, docs/design.md §6).
	ErrNoRoom = errors.New("no such room")
	// ErrOnlyMentions: nothing but @mentions remained in the body (docs/design.md §3).
	ErrOnlyMentions = errors.New("post has no text besides mentions")
	// ErrTooManyReads: a seat asked for history pages faster than its
	// token's limit.
	ErrTooManyReads = errors.New("history asked too often")
	// ErrPostTooLong: the content is over MaxPostBytes.
	ErrPostTooLong = errors.New("post is too long")
	// ErrEmptyPost: the content is empty or only whitespace.
	ErrEmptyPost = errors.New("post is empty")
	// ErrClosed: the hub, room or connection is closed.
	ErrClosed = errors.New("closed")
	// ErrBadHello: a hello without name or room, or naming a different room
	// than the connection already sits in.
	ErrBadHello = errors.New("bad hello")
	// ErrNoAdmin: the UI posted before declaring its identity with
	// Hub.SetAdmin, so the room has no admin seat to stamp the post from.
	ErrNoAdmin = errors.New("no admin identity set")
	// ErrNoMessage: a history request's before names no post the room knows.
	ErrNoMessage = errors.New("no such message")
	// ErrNoSeat: a hook names a topic and account with no running seat
	// that takes hooks; it is refused and nothing of it is kept.
	ErrNoSeat = errors.New("no running seat for this hook")
	// ErrNoAccount: a usage request from a connection whose hello named no
	// account: it has no seat whose figures it could read.
	ErrNoAccount = errors.New("this connection has no account")
	// ErrBadBrake: a negative HubOptions.Brake (0 turns the brake off).
	ErrBadBrake = errors.New("brake must be 0 (off) or more AI posts")
	// ErrBadPermissionWait: a permission card's wait that is not positive
	// or is over MaxPermissionWait (HubOptions.PermissionWait,
	// Hub.SetPermissionWait).
	ErrBadPermissionWait = errors.New("a permission card's wait must be more than 0 and at most " + MaxPermissionWait.String())
	// ErrBadNotice: an MCP notice (Hub.MCPNotice) without an account or a
	// speaker, naming an account that is not of kind mcp, or speaking
	// under Pullcept's own name.
	ErrBadNotice = errors.New("bad mcp notice")
)
