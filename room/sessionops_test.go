package room

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// fakeOps records who asked what and answers from a script.
type fakeOps struct {
	mu  sync.Mutex
	who []Requester
	ops []SessionOperation
}

func (f *fakeOps) List(r Requester) (SessionList, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.who = append(f.who, r)
	return SessionList{Rule: "topic", Seats: []SessionSeat{{AccountID: "cc", TopicID: "t", PtyID: r.Launch, State: "running"}}}, nil
}

func (f *fakeOps) Control(r Requester, op SessionOperation) (SessionRecord, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.who, f.ops = append(f.who, r), append(f.ops, op)
	if op.Action == "kill" {
		return SessionRecord{}, errBadAction
	}
	return SessionRecord{Requester: r.Account, SessionOperation: op, State: "accepted"}, nil
}

func (f *fakeOps) Status(r Requester, id string) (SessionRecord, error) {
	return SessionRecord{SessionOperation: SessionOperation{OperationID: id}, State: "stopped"}, nil
}

var errBadAction = jsonError("action must be start, stop or restart")

type jsonError string

func (e jsonError) Error() string { return string(e) }

// sessionAnswer sends a session frame and reads its session_result.
func sessionAnswer(t *testing.T, c *client, frame any) SessionResultFrame {
	t.Helper()
	c.send(frame)
	for {
		var out SessionResultFrame
		if err := json.Unmarshal(c.read(), &out); err != nil {
			t.Fatal(err)
		}
		if out.Type == FrameSessionResult {
			return out
		}
	}
}

// TestSessionFramesCarryTheTokensLaunch: the room hands a seat's session
// requests to SessionOps as the launch its token was issued to, whatever
// its hello said; a connection without a seat token is refused; the
// launch's hello makes LaunchJoined true.
func TestSessionFramesCarryTheTokensLaunch(t *testing.T) {
	h := newTestHub(t, nil, nil, testAccounts)
	mustOpen(t, h, "t")
	s := newTestServer(t, h, ServerOptions{})
	ops := &fakeOps{}
	token, _, _ := s.Grant("cc", "t", "pty-1")
	c := dialRoom(t, s, http.Header{"Authorization": {"Bearer " + token}})

	before := sessionAnswer(t, c, SessionListFrame{Type: FrameSessionList, RequestID: "r0"})
	if before.Error == "" {
		t.Fatal("a request before SetSessionOps was answered")
	}
	h.SetSessionOps(ops)
	if h.LaunchJoined("t", "pty-1") {
		t.Fatal("joined before its hello")
	}
	c.hello("Lin", "t", "cc")
	testkit.Eventually(t, "the launch joined", func() bool { return h.LaunchJoined("t", "pty-1") })
	if h.LaunchJoined("t", "pty-2") || h.LaunchJoined("u", "pty-1") || h.LaunchJoined("t", "") {
		t.Fatal("another launch or room counted as joined")
	}

	list := sessionAnswer(t, c, SessionListFrame{Type: FrameSessionList, RequestID: "r1"})
	if list.RequestID != "r1" || list.Error != "" || !strings.Contains(string(list.Result), `"pty_id":"pty-1"`) {
		t.Fatalf("list answer %+v %s", list, list.Result)
	}
	op := SessionOperation{OperationID: "op-1", Action: "restart", AccountID: "cc2", TopicID: "t", ExpectedPtyID: "pty-9"}
	ctl := sessionAnswer(t, c, SessionControlFrame{Type: FrameSessionControl, RequestID: "r2", Operation: op})
	var rec SessionRecord
	if err := json.Unmarshal(ctl.Result, &rec); err != nil || rec.SessionOperation != op || rec.State != "accepted" {
		t.Fatalf("control answer %+v %s (%v)", ctl, ctl.Result, err)
	}
	bad := sessionAnswer(t, c, SessionControlFrame{Type: FrameSessionControl, RequestID: "r3", Operation: SessionOperation{Action: "kill"}})
	if bad.Error != errBadAction.Error() || bad.Result != nil {
		t.Fatalf("refusal %+v", bad)
	}
	st := sessionAnswer(t, c, SessionStatusFrame{Type: FrameSessionStatus, RequestID: "r4", OperationID: "op-1"})
	if !strings.Contains(string(st.Result), `"state":"stopped"`) {
		t.Fatalf("status %+v", st)
	}
	for _, who := range ops.who {
		if who != (Requester{Account: "cc", Topic: "t", Launch: "pty-1"}) {
			t.Fatalf("requester %+v", who)
		}
	}

	// The run's own token (no seat binding) may not operate.
	other := dialRoom(t, s, http.Header{"Authorization": {"Bearer " + string(s.token)}})
	other.hello("Tool", "t", "")
	if r := sessionAnswer(t, other, SessionListFrame{Type: FrameSessionList, RequestID: "r5"}); !strings.Contains(r.Error, "only for seats") {
		t.Fatalf("unbound connection: %+v", r)
	}
}

// TestSeatOfADeletedAccountIsRefused: a seat token whose account is no
// longer configured (deleted while its seat started) cannot sit in the
// room under names of its own: its hello closes the socket.
func TestSeatOfADeletedAccountIsRefused(t *testing.T) {
	h, _, _, _ := identityHub(t)
	mustOpen(t, h, "a")
	s := newTestServer(t, h, ServerOptions{})
	token, _, _ := s.Grant("cc2", "a", "pty-000000000001") // a kind in Accounts, no identity
	c := dialRoom(t, s, http.Header{"Authorization": {"Bearer " + token}})
	c.hello("Claude", "a", "cc2")
	if !closedByServer(c) {
		t.Fatal("a seat of an account with no identity sat down")
	}
	if names := rosterNames(t, h, "a"); len(names) != 0 {
		t.Fatalf("roster %v", names)
	}
}
