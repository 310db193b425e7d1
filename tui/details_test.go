package tui

import (
	"strings"
	"testing"
)

// linkScene is scene with Lin running in its PTY at 120×40 and Lay, an
// app-server Codex seat, reached through its gate.
func linkScene() *fakeBackend {
	f := scene()
	f.seats["t-main"][0].Cols, f.seats["t-main"][0].Rows = 120, 40
	f.seats["t-main"] = append(f.seats["t-main"], SeatInfo{Topic: "t-main", Account: "lay", State: SeatRunning,
		Cols: 98, Rows: 30, Remote: "unix:///run/user/1000/pullcept-7f3a/codex-lay.sock", SessionID: "0199a3f4-7b2c-7d10-9e8f-5a6b7c8d9e0f"})
	return f
}

// downScene is linkScene whose room socket no longer answers.
func downScene() *fakeBackend {
	f := linkScene()
	f.socket.Err = "dial unix /run/user/1000/pullcept-7f3a/room.sock: connect: no such file or directory"
	return f
}

// TestDetailsSayRoomLinkAndWindow: a seat's details show the room's own
// address (read when the panel takes the focus), how the seat's CLI is
// reached (its PTY, or its terminal → its app-server) and the window it
// sees (spec «参加者パネル»: 部屋ソケット, 接続方法, ウィンドウ); a room that
// no longer answers turns the title to the danger colour and says why.
// Before, none of the three was shown.
func TestDetailsSayRoomLinkAndWindow(t *testing.T) {
	t.Parallel()
	f := linkScene()
	m := sceneModel(t, f, 200, 60, LangEnglish)
	toParticipants(t, m, "lin")
	v := plain(m)
	for _, want := range []string{"room    …lcept-7f3a/room.sock", "via     terminal (PTY)", "window  120×40"} {
		if !strings.Contains(v, want) {
			t.Fatalf("Lin's details lack %q:\n%s", want, v)
		}
	}
	toParticipants(t, m, "lay")
	if v := plain(m); !strings.Contains(v, "via     terminal → app-server") || !strings.Contains(v, "7f3a/codex-lay.sock") ||
		!strings.Contains(v, "window  98×30") {
		t.Fatalf("Lay's details:\n%s", v)
	}
	if strings.Contains(plain(m), "not listening") {
		t.Fatal("a warning while the room answers")
	}
	f.mu.Lock()
	f.socket.Err = "dial unix: connect: no such file or directory"
	f.mu.Unlock()
	send(t, m, press("tab")) // leave the panel, come back: read again
	toParticipants(t, m, "lay")
	v = plain(m)
	if !strings.Contains(v, "! room socket not listening:") || !strings.Contains(v, "seats cannot post") ||
		!strings.Contains(m.View().Content, m.env.th.dangerS.Render(" Details · Lay ")) {
		t.Fatalf("a room that does not answer:\n%s", v)
	}
	if f.socketReads < 2 {
		t.Fatalf("the room's address read %d times, want once per focus", f.socketReads)
	}
}
