package room

import (
	"encoding/json"
	"errors"
	"log/slog"
)

// frameHandler answers one socket's incoming frames (docs/design.md §6). It runs in
// the socket's reader goroutine, so the frames of one connection are handled
// in order. send queues an encoded frame for the writer goroutine and reports
// false when the queue is full (the peer stopped reading).
type frameHandler struct {
	conn   *Conn
	send   func([]byte) bool
	logger *slog.Logger
	// closing is why handle returned false ("" : the peer stopped reading
	// its answers).
	closing string
}

// handle decodes and answers one frame. Malformed JSON and unknown types are
// ignored (logged at debug) without touching the room or the connection;
// requests whose correlation id could still be read get an error answer so
// the sidecar's call does not hang. It returns false only when an answer
// could not be queued.
func (f *frameHandler) handle(data []byte) bool {
	var env Envelope
	if err := json.Unmarshal(data, &env); err != nil {
		f.logger.Debug("room socket: ignoring malformed frame", "err", err, "bytes", len(data))
		return true
	}
	switch env.Type {
	case FrameHello:
		var fr HelloFrame
		if err := json.Unmarshal(data, &fr); err != nil {
			f.logger.Debug("room socket: ignoring malformed hello", "err", err)
			return true
		}
		if err := f.conn.Hello(fr.Hello); err != nil {
			if errors.Is(err, ErrWrongSeat) {
				// A seat's token used for another seat: no second chance.
				f.logger.Warn("room socket: hello for another seat; closing", "err", err)
				f.closing = ErrWrongSeat.Error()
				return false
			}
			if errors.Is(err, ErrLaunchSeated) {
				// A second sidecar of one launch (a child agent): closed with
				// the reason, which its tool calls report; it redials, and
				// gets the place if the first one is gone (place.go).
				f.closing = ErrLaunchSeated.Error()
				return false
			}
			// The protocol has no hello answer: later requests get ErrNoRoom.
			f.logger.Info("room socket: hello refused", "room", fr.Room, "name", fr.Name, "err", err)
		}
		return true
	case FramePost:
		return f.post(data)
	case FrameHistory:
		return f.history(data)
	case FrameUsage:
		return f.usage(data)
	case FrameReady:
		f.conn.Ready()
		return true
	case FrameSessionList, FrameSessionStatus, FrameSessionControl:
		return f.session(env.Type, data)
	default:
		f.logger.Debug("room socket: ignoring frame of unknown type", "type", env.Type)
		return true
	}
}

// post answers a post frame with post_result (only to this connection,
// correlated by message_id). Refusals that are not a floor judgement
// (no room, only mentions, empty) are an error, never delivered:false
// (spec «部屋プロトコル»: a bare false would read as "you missed nothing").
func (f *frameHandler) post(data []byte) bool {
	var fr PostFrame
	if err := json.Unmarshal(data, &fr); err != nil {
		if !answerable(err) || fr.MessageID == "" {
			f.logger.Debug("room socket: ignoring malformed post", "err", err)
			return true
		}
		return f.reply(postError{Type: FramePostResult, MessageID: fr.MessageID, Error: "bad post frame: " + err.Error()})
	}
	res, err := f.conn.Post(Draft{
		MessageID: fr.MessageID, Content: fr.Content, To: []string(fr.To), TS: fr.TS, LastSeen: fr.LastSeen,
	})
	out := PostResultFrame{Type: FramePostResult, MessageID: fr.MessageID}
	if err != nil {
		return f.reply(postError{Type: FramePostResult, MessageID: fr.MessageID, Error: err.Error()})
	}
	if out.MessageID == "" {
		out.MessageID = res.Post.MessageID
	}
	out.Delivered, out.Missed = res.Delivered, res.Missed
	return f.reply(out)
}

// history answers a history frame with history_result.
func (f *frameHandler) history(data []byte) bool {
	var fr HistoryFrame
	if err := json.Unmarshal(data, &fr); err != nil {
		if !answerable(err) || fr.RequestID == "" {
			f.logger.Debug("room socket: ignoring malformed history", "err", err)
			return true
		}
		return f.reply(HistoryResultFrame{Type: FrameHistoryResult, RequestID: fr.RequestID, Posts: []Post{}, Error: "bad history frame: " + err.Error()})
	}
	posts, more, err := f.conn.History(fr.Before, fr.Limit)
	out := HistoryResultFrame{Type: FrameHistoryResult, RequestID: fr.RequestID, Posts: posts, HasMore: more}
	if err != nil {
		out.Error, out.HasMore = err.Error(), false
	}
	if out.Posts == nil {
		out.Posts = []Post{} // "posts": [] rather than null
	}
	return f.reply(out)
}

// usage answers a usage frame with the connection's own seat's figures
// (docs/design.md §6, §11): each window the seat reported, its context, and
// when they arrived; a window not reported is left out (never 0 %), and a
// seat that reported nothing gets an answer with no figures. A roomless
// connection gets ErrNoRoom, one without an account ErrNoAccount.
func (f *frameHandler) usage(data []byte) bool {
	var fr UsageFrame
	if err := json.Unmarshal(data, &fr); err != nil && (!answerable(err) || fr.RequestID == "") {
		f.logger.Debug("room socket: ignoring malformed usage", "err", err)
		return true
	}
	out := UsageResultFrame{Type: FrameUsageResult, RequestID: fr.RequestID}
	u, ok, err := f.conn.Usage()
	switch {
	case err != nil:
		out.Error = err.Error()
	case ok:
		out.FiveHour, out.SevenDay = usageWindow(u.FiveHour), usageWindow(u.SevenDay)
		if u.Context != nil {
			out.Context = usageWindow(&UsageWindow{UsedPercentage: *u.Context, ReceivedAt: u.ContextAt})
		}
		if !u.ReceivedAt.IsZero() {
			out.ReceivedAt = u.ReceivedAt.UTC().Format(TimeLayout)
		}
	}
	return f.reply(out)
}

// usageWindow is one window on the wire: {"used_percentage": n,
// "resets_at": Unix seconds, "received_at": the room's time layout}, each
// time left out when not known; nil (the key left out) when not reported.
func usageWindow(w *UsageWindow) json.RawMessage {
	if w == nil {
		return nil
	}
	v := struct {
		Used       float64 `json:"used_percentage"`
		ResetsAt   int64   `json:"resets_at,omitempty"`
		ReceivedAt string  `json:"received_at,omitempty"`
	}{Used: w.UsedPercentage}
	if !w.ResetsAt.IsZero() {
		v.ResetsAt = w.ResetsAt.Unix()
	}
	if !w.ReceivedAt.IsZero() {
		v.ReceivedAt = w.ReceivedAt.UTC().Format(TimeLayout)
	}
	b, _ := json.Marshal(v)
	return b
}

// reply encodes v and queues it.
func (f *frameHandler) reply(v any) bool {
	b, err := EncodeFrame(v)
	if err != nil {
		// Only our own frame structs of strings, bools, ints and posts.
		f.logger.Error("room socket: encoding answer", "err", err)
		return true
	}
	return f.send(b)
}

// answerable reports whether a decode error still left a well-formed object
// whose other fields were read (a field of the wrong JSON type), so the
// request can be answered with an error instead of left hanging.
func answerable(err error) bool {
	var te *json.UnmarshalTypeError
	return errors.As(err, &te)
}

// postError is a post_result that refuses: an error and no "delivered" at
// all, since "delivered": false is the floor's judgement and would read as
// "you missed nothing" (docs/design.md §6).
type postError struct {
	Type      string `json:"type"`
	MessageID string `json:"message_id"`
	Error     string `json:"error"`
}
