package room

import "github.com/pullcept/pullcept/room/pubsub"

// Subscription receives the Hub's events (PostDelivered, LogFailed,
// RosterChanged, BrakeChanged, PermissionAsked, PermissionClosed) on C:
// must-deliver, in the one order every subscriber sees, and bounded per
// subscriber — a subscriber that stops reading is cut off (its C closes,
// Err reports pubsub.ErrOverflow) rather than growing memory without end.
// See room/pubsub for the semantics.
type Subscription = pubsub.Subscription[Event]

// eventSize estimates an event's bytes for the per-subscriber bound: the
// strings it carries plus a fixed overhead.
func eventSize(e Event) int {
	const overhead = 128
	switch e := e.(type) {
	case PostDelivered:
		n := overhead + len(e.Post.Content) + len(e.Post.Speaker) + len(e.Post.FullName) + len(e.Post.BodyFile)
		for _, name := range e.Post.To {
			n += 16 + len(name) // the string header and its bytes
		}
		return n
	case RosterChanged:
		return overhead + 96*len(e.Roster)
	case PermissionAsked:
		n := overhead + len(e.Ask.Summary) + len(e.Ask.Tool) + len(e.Ask.MCPServer) + len(e.Ask.Agent)
		for _, s := range e.Ask.Suggestions {
			n += 64 + len(s.Other)
			for _, v := range s.Rules {
				n += 16 + len(v)
			}
			for _, v := range s.Directories {
				n += 16 + len(v)
			}
		}
		return n
	}
	return overhead
}
