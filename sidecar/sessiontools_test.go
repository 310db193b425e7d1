package sidecar

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// TestSessionTools: each session tool sends its frame with the caller's
// arguments as they are and renders the room's answer — a result as JSON,
// a refusal as an error — and a lost answer says the operation may have
// been recorded and how to find out.
func TestSessionTools(t *testing.T) {
	r := newFakeRoom(t)
	tune := testTuning()
	// Scaled: the fake room answers at once, and on a loaded box that
	// answer must still beat the wait; the lost answer waits it out.
	tune.answerTimeout = testkit.Slow(500 * time.Millisecond)
	h := startSidecar(t, testEnv(r.url()), tune, true)
	r.expectHello(t)
	h.listTools(t)
	r.expect(t, room.FrameReady)

	r.setResponder(func(f frameRec) any {
		var fr struct {
			RequestID string                `json:"request_id"`
			Operation room.SessionOperation `json:"operation"`
		}
		_ = json.Unmarshal(f.raw, &fr)
		out := room.SessionResultFrame{Type: room.FrameSessionResult, RequestID: fr.RequestID}
		switch {
		case f.typ == room.FrameSessionList:
			out.Result = json.RawMessage(`{"rule":"topic","accounts":[],"topics":[],"seats":[{"account_id":"lay","topic_id":"t","pty_id":"pty-1","state":"running"}]}`)
		case fr.Operation.AccountID == "nobody":
			out.Error = `no account has the id "nobody"`
		case f.typ == room.FrameSessionControl && fr.Operation.Action == "stop":
			return nil // the answer is lost
		default:
			b, _ := json.Marshal(room.SessionRecord{SessionOperation: fr.Operation, State: "accepted"})
			out.Result = b
		}
		return out
	})
	text, isErr := h.call(t, room.ToolListSessions, nil)
	r.expect(t, room.FrameSessionList)
	if isErr || !strings.Contains(text, `"pty_id": "pty-1"`) {
		t.Fatalf("list → %v %q", isErr, text)
	}
	args := map[string]any{"operation_id": "r-1", "action": "restart", "account_id": "lay", "topic_id": "t", "expected_pty_id": "pty-1"}
	text, isErr = h.call(t, room.ToolControlSession, args)
	var sent room.SessionControlFrame
	_ = json.Unmarshal(r.expect(t, room.FrameSessionControl).raw, &sent)
	want := room.SessionOperation{OperationID: "r-1", Action: "restart", AccountID: "lay", TopicID: "t", ExpectedPtyID: "pty-1"}
	if sent.Operation != want || isErr || !strings.Contains(text, `"state": "accepted"`) {
		t.Fatalf("control sent %+v → %v %q", sent.Operation, isErr, text)
	}
	args["account_id"] = "nobody"
	text, isErr = h.call(t, room.ToolControlSession, args)
	r.expect(t, room.FrameSessionControl)
	if !isErr || !strings.HasPrefix(text, `Refused: no account has the id "nobody"`) {
		t.Fatalf("refusal → %v %q", isErr, text)
	}
	args["action"], args["account_id"] = "stop", "lay"
	text, isErr = h.call(t, room.ToolControlSession, args)
	r.expect(t, room.FrameSessionControl)
	if !isErr || !strings.Contains(text, "may or may not have been recorded") || !strings.Contains(text, "same operation_id") {
		t.Fatalf("lost answer → %v %q", isErr, text)
	}
	text, isErr = h.call(t, room.ToolSessionStatus, map[string]any{"operation_id": "r-1"})
	var st room.SessionStatusFrame
	_ = json.Unmarshal(r.expect(t, room.FrameSessionStatus).raw, &st)
	if st.OperationID != "r-1" || isErr {
		t.Fatalf("status sent %+v → %v %q", st, isErr, text)
	}
}
