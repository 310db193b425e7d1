package room

import (
	"fmt"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/pullcept/pullcept/logstore"
)

// nopTerms is a Terminals that accepts every post and keeps nothing, so the
// benchmark measures the room, not a recording fake.
type nopTerms struct{}

func (nopTerms) Enqueue(string, string, Post) bool               { return true }
func (nopTerms) SidecarJoined(string, string)                    {}
func (nopTerms) SidecarReady(string, string)                     {}
func (nopTerms) Reported(string, string, Report) bool            { return false }
func (nopTerms) PermissionAnswered(string, string, uint64, bool) {}
func (nopTerms) Usage(string, string) (SeatUsage, bool)          { return SeatUsage{}, false }

// nopLog appends nowhere.
type nopLog struct{}

func (nopLog) Append(string, logstore.Record) error        { return nil }
func (nopLog) NoteFirstPost(string, logstore.Record) error { return nil }
func (nopLog) Page(string, string, int) ([]logstore.Record, bool, error) {
	return nil, false, nil
}
func (nopLog) SaveBody(string, string, string) (string, string, error) { return "", "", nil }
func (nopLog) BodyPath(string, string) string                          { return "" }
func (nopLog) DropBody(string, string) error                           { return nil }

// BenchmarkDeliver8Seats: one Deliver in a room of 8 seat connections (each
// its own account, all typed into) plus the UI, with one subscriber draining
// events, a full floor window, and a mention to resolve.
func BenchmarkDeliver8Seats(b *testing.B) {
	accts := fakeAccounts{}
	for i := range 8 {
		accts[fmt.Sprintf("a%d", i)] = "claude_code"
	}
	h, err := NewHub(HubOptions{Log: nopLog{}, Terminals: nopTerms{}, Accounts: accts})
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	h.SetAdmin(Hello{Name: "me", AccountID: "me"})
	mustOpen(b, h, "t")
	var conns []*Conn
	for i := range 8 {
		conns = append(conns, seat(b, h, "t", fmt.Sprintf("Seat %d", i), fmt.Sprintf("a%d", i)))
	}
	sub := h.Subscribe()
	defer sub.Close()
	go func() {
		for range sub.C() {
		}
	}()
	lastSeen := ""
	for i := range FloorWindow {
		lastSeen = say(b, conns[i%8], "warm up", lastSeen).MessageID
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		res, err := conns[0].Post(Draft{Content: "@Seat 3 please review the change in room/hub.go", LastSeen: lastSeen})
		if err != nil || !res.Delivered {
			b.Fatalf("post: %v %v", err, res.Delivered)
		}
		lastSeen = res.Post.MessageID
	}
}

// BenchmarkSayRoundTrip: post → post_result through the real server and a
// gorilla client (the path of one say_to_room call).
func BenchmarkSayRoundTrip(b *testing.B) {
	h, err := NewHub(HubOptions{Log: nopLog{}, Terminals: nopTerms{}, Accounts: testAccounts})
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	mustOpen(b, h, "t")
	s := newTestServer(b, h, ServerOptions{})
	c := dialRoom(b, s, bearer(s))
	c.hello("Lin", "t", "cc")
	waitRoster(b, h, "t", 1)
	frame := []byte(`{"type":"post","message_id":"","content":"a short answer to the room","last_seen":""}`)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := c.ws.WriteMessage(websocket.TextMessage, frame); err != nil {
			b.Fatal(err)
		}
		var fr PostResultFrame
		if err := c.readJSON(&fr); err != nil || !fr.Delivered {
			b.Fatalf("post_result %+v %v", fr, err)
		}
	}
}
