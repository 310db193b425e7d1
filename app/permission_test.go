package app

import (
	"testing"

	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/tui"
)

// TestPermissionEventsConvert: the room's card events reach the UI as its
// plain values, copied (the UI may keep them), with why a card closed.
func TestPermissionEventsConvert(t *testing.T) {
	t.Parallel()
	ask := room.PermissionAsk{ID: 4, Topic: "t", Account: "lin", Tool: "mcp__gh__x", MCPServer: "gh", Agent: "Explore",
		Summary: "{}", SummaryLines: 1, Suggestions: []room.PermissionSuggestion{{Type: "addDirectories", Directories: []string{"/a"}, Destination: "session"}}}
	ev, ok := roomEvent(room.PermissionAsked{Ask: ask})
	got, isAsk := ev.(tui.PermissionAsked)
	if !ok || !isAsk || got.Card.ID != 4 || got.Card.MCPServer != "gh" || got.Card.Agent != "Explore" ||
		len(got.Card.Suggestions) != 1 || got.Card.Suggestions[0].Directories[0] != "/a" {
		t.Fatalf("converted %+v %v", ev, ok)
	}
	ask.Suggestions[0].Directories[0] = "/changed"
	if got.Card.Suggestions[0].Directories[0] != "/a" {
		t.Fatal("the UI's card shares the room's slice")
	}
	for end, want := range map[room.AskEnd]tui.PermissionEnd{room.AskAnswered: tui.PermissionAnswered, room.AskTimedOut: tui.PermissionTimedOut,
		room.AskElsewhere: tui.PermissionElsewhere, room.AskShutdown: tui.PermissionShutdown} {
		ev, _ := roomEvent(room.PermissionClosed{ID: 4, Topic: "t", Account: "lin", End: end, Allowed: true})
		if c := ev.(tui.PermissionClosed); c.End != want || c.ID != 4 || !c.Allowed {
			t.Errorf("end %v → %+v", end, c)
		}
	}
}
