package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// recordedScene is scene after a restart: no seat runs, Lay's session in
// the open topic is recorded (Seats lists it offline with its id), Ada
// has none.
func recordedScene() *fakeBackend {
	f := scene()
	f.accounts = append(f.accounts, AccountInfo{ID: "ada", Kind: KindClaudeCode, Name: "Ada", Dir: "/home/u/work", Command: "claude"})
	f.seats["t-main"] = []SeatInfo{{Topic: "t-main", Account: "lay", State: SeatOffline, SessionID: "0199a3f4-7b2c-7d10-9e8f-5a6b7c8d9e0f"}}
	return f
}

// TestRecordedSessionInDetails: with no seat in the topic (after a
// restart), an account's details still show the session its topic records
// and c copies it (spec «参加者パネル» #144); an account with no record says
// "none"; a seat still starting says "—" (not known yet, #139). Before,
// an account without a seat had no details at all.
func TestRecordedSessionInDetails(t *testing.T) {
	t.Parallel()
	const id = "0199a3f4-7b2c-7d10-9e8f-5a6b7c8d9e0f"
	m := sceneModel(t, recordedScene(), 120, 40, LangEnglish)
	toParticipants(t, m, "lay")
	if v := plain(m); !strings.Contains(v, "Details · Lay") || !strings.Contains(v, id[:20]) || !strings.Contains(v, "c copies it") {
		t.Fatalf("Lay's details lack the recorded id:\n%s", v)
	}
	_, cmd := m.Update(press("c"))
	if got := collectMsgs(cmd); !containsMsg(got, tea.SetClipboard(id)()) {
		t.Fatalf("c did not copy the recorded id: %#v", got)
	}
	drive(t, m, nil)
	toParticipants(t, m, "ada")
	v := plain(m)
	if !strings.Contains(v, "Details · Ada") || !strings.Contains(v, "session none") {
		t.Fatalf("an account without a record:\n%s", v)
	}
	send(t, m, seatsLoadedMsg{topic: "t-main", seats: []SeatInfo{{Topic: "t-main", Account: "ada", State: SeatStarting}}})
	if v := plain(m); !strings.Contains(v, "session —") {
		t.Fatalf("a starting seat without an id:\n%s", v)
	}
}
