package room

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
)

// Session operations (docs/design.md §15): a running seat asks the app to
// start, stop or restart its own seat or another's. The room carries the
// three requests and their answer and says who asks — the seat launch its
// token was issued to, never what a hello claims; the app (SessionOps)
// decides and executes.

// Session operation frames (protocol 12).
const (
	FrameSessionList    = "session_list"
	FrameSessionStatus  = "session_status"
	FrameSessionControl = "session_control"
	FrameSessionResult  = "session_result"
)

// Session operation actions and start modes on the wire.
const (
	ActionStart   = "start"
	ActionStop    = "stop"
	ActionRestart = "restart"
	ModeFresh     = "fresh"
	ModeResume    = "resume"
)

// SessionListFrame: sidecar→room, list_account_sessions.
type SessionListFrame struct {
	Type      string `json:"type"`
	RequestID string `json:"request_id"`
}

// SessionStatusFrame: sidecar→room, account_session_status.
type SessionStatusFrame struct {
	Type        string `json:"type"`
	RequestID   string `json:"request_id"`
	OperationID string `json:"operation_id"`
}

// SessionControlFrame: sidecar→room, control_account_session.
type SessionControlFrame struct {
	Type      string           `json:"type"`
	RequestID string           `json:"request_id"`
	Operation SessionOperation `json:"operation"`
}

// SessionOperation is one requested operation as the caller wrote it.
// OperationID is the caller's own id: the ledger's key for retries.
type SessionOperation struct {
	OperationID   string `json:"operation_id"`
	Action        string `json:"action"`
	AccountID     string `json:"account_id"`
	TopicID       string `json:"topic_id"`
	Mode          string `json:"mode,omitempty"`
	ExpectedPtyID string `json:"expected_pty_id,omitempty"`
}

// SessionResultFrame: room→sidecar, the answer to any of the three, by
// request_id: Result (a SessionList or a SessionRecord) or Error.
type SessionResultFrame struct {
	Type      string          `json:"type"`
	RequestID string          `json:"request_id"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     string          `json:"error,omitempty"`
}

// SessionList is list_account_sessions' answer: the accounts that run as
// seats, the open topics, and each seat's launch. Never commands or env.
type SessionList struct {
	// Rule is what the caller may operate: "topic" (seats of its own
	// topic) or "all" (any open topic).
	Rule     string           `json:"rule"`
	Accounts []SessionAccount `json:"accounts"`
	Topics   []SessionTopic   `json:"topics"`
	Seats    []SessionSeat    `json:"seats"`
}

// SessionAccount is one configured account that runs as a seat.
type SessionAccount struct {
	AccountID string `json:"account_id"`
	Name      string `json:"name"`
	Kind      string `json:"kind"`
}

// SessionTopic is one open topic.
type SessionTopic struct {
	TopicID string `json:"topic_id"`
	Name    string `json:"name"`
}

// SessionSeat is one seat launch: its pty id and state (starting,
// running, exited).
type SessionSeat struct {
	AccountID string `json:"account_id"`
	TopicID   string `json:"topic_id"`
	PtyID     string `json:"pty_id"`
	State     string `json:"state"`
}

// SessionRecord is one operation as the ledger keeps it, with what was
// found live when it was read (ProcessRunning, RoomConnected: the launch it
// started still runs / its sidecar sits in the room, matched by pty id).
type SessionRecord struct {
	SessionOperation
	Requester      string `json:"requester_account_id"`
	RequesterTopic string `json:"requester_topic_id"`
	RequesterPtyID string `json:"requester_pty_id,omitempty"`
	// TargetPtyID is the target's launch when the operation was accepted:
	// a stop ends that launch only, never one the human started since.
	TargetPtyID string `json:"target_pty_id,omitempty"`
	State       string `json:"state"`
	Error       string `json:"error,omitempty"`
	PtyID       string `json:"pty_id,omitempty"`
	AcceptedAt  string `json:"accepted_at"`
	UpdatedAt   string `json:"updated_at"`
	// Set only in answers, never stored.
	ProcessRunning *bool `json:"process_running,omitempty"`
	RoomConnected  *bool `json:"room_connected,omitempty"`
}

// Requester is who asks for a session operation: the seat launch its
// socket's token was issued to (SeatBinding).
type Requester SeatBinding

// SessionOps executes session operations (app/sessionops). Errors are
// refusals the caller reads as text; nothing was recorded or run.
type SessionOps interface {
	List(r Requester) (SessionList, error)
	Control(r Requester, op SessionOperation) (SessionRecord, error)
	Status(r Requester, operationID string) (SessionRecord, error)
}

// ErrNoSessionOps: the connection may not ask for session operations (not
// a seat's token) or the app runs none.
var ErrNoSessionOps = errors.New("session operations are only for seats Pullcept launched")

// sessionOpsHolder lets SetSessionOps come after NewHub (the app's
// operations need the hub for their notices).
type sessionOpsHolder struct{ v atomic.Pointer[SessionOps] }

// SetSessionOps installs the session operations the room's seats may ask
// for; until then every request is refused.
func (h *Hub) SetSessionOps(ops SessionOps) { h.ops.v.Store(&ops) }

// sessionOps returns the installed operations, or nil.
func (h *Hub) sessionOps() SessionOps {
	if p := h.ops.v.Load(); p != nil {
		return *p
	}
	return nil
}

// LaunchJoined reports whether a connection of seat launch launch (its
// token's pty id) sits in topicID's room right now: a restarted seat is
// "connected" only once its new launch's sidecar said hello, never because
// an older one of the same account is still there.
func (h *Hub) LaunchJoined(topicID, launch string) bool {
	if launch == "" {
		return false
	}
	h.mu.Lock()
	r := h.rooms[topicID]
	h.mu.Unlock()
	if r == nil {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, m := range r.members {
		if m.launch == launch {
			return true
		}
	}
	return false
}

// session answers the three session frames with session_result.
func (f *frameHandler) session(typ string, data []byte) bool {
	var head struct {
		RequestID string `json:"request_id"`
	}
	if err := json.Unmarshal(data, &head); err != nil || head.RequestID == "" {
		f.logger.Debug("room socket: ignoring malformed session frame", "type", typ, "err", err)
		return true
	}
	out := SessionResultFrame{Type: FrameSessionResult, RequestID: head.RequestID}
	v, err := f.runSession(typ, data)
	if err == nil {
		out.Result, err = json.Marshal(v)
	}
	if err != nil {
		out.Error, out.Result = err.Error(), nil
	}
	return f.reply(out)
}

// runSession decodes one session request and asks the hub's SessionOps,
// as the seat launch the socket's token belongs to.
func (f *frameHandler) runSession(typ string, data []byte) (any, error) {
	ops := f.conn.hub.sessionOps()
	b := f.conn.binding
	if ops == nil || b == nil || b.Launch == "" {
		return nil, ErrNoSessionOps
	}
	who := Requester(*b)
	switch typ {
	case FrameSessionList:
		return ops.List(who)
	case FrameSessionStatus:
		var fr SessionStatusFrame
		if err := json.Unmarshal(data, &fr); err != nil {
			return nil, fmt.Errorf("bad session_status frame: %w", err)
		}
		return ops.Status(who, fr.OperationID)
	default:
		var fr SessionControlFrame
		if err := json.Unmarshal(data, &fr); err != nil {
			return nil, fmt.Errorf("bad session_control frame: %w", err)
		}
		return ops.Control(who, fr.Operation)
	}
}
