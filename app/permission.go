package app

import (
	"slices"

	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/tui"
)

// The Permissions part of the Backend (tui.Permissions): the room's
// permission cards (room/permission.go) as the UI's plain values, and the
// human's answer back to the hub.

// PermissionCards are the cards waiting in the hub, oldest first.
func (b *Backend) PermissionCards() []tui.PermissionCard {
	asks := b.a.hub.PermissionAsks()
	out := make([]tui.PermissionCard, 0, len(asks))
	for _, a := range asks {
		out = append(out, permissionCard(a))
	}
	return out
}

// AnswerPermission hands the human's answer to card id to the hub, which
// answers the held hook and closes the card (its reason is neither logged
// nor kept).
func (b *Backend) AnswerPermission(id uint64, a tui.PermissionAnswer) error {
	return b.a.hub.AnswerPermission(id, room.PermissionAnswer{Allow: a.Allow, Always: a.Always, Reason: a.Reason})
}

// permissionCard converts a card (copies: the UI keeps it).
func permissionCard(a room.PermissionAsk) tui.PermissionCard {
	c := tui.PermissionCard{ID: a.ID, Topic: a.Topic, Account: a.Account, Tool: a.Tool, MCPServer: a.MCPServer,
		Agent: a.Agent, Summary: a.Summary, SummaryLines: a.SummaryLines, SummaryCut: a.SummaryCut,
		SuggestionsCut: a.SuggestionsCut, Until: a.Until}
	for _, s := range a.Suggestions {
		c.Suggestions = append(c.Suggestions, tui.PermissionSuggestion{Type: s.Type, Behavior: s.Behavior,
			Rules: slices.Clone(s.Rules), Mode: s.Mode, Directories: slices.Clone(s.Directories),
			Destination: s.Destination, Other: s.Other})
	}
	return c
}

// permissionEnd converts why a card closed.
func permissionEnd(e room.AskEnd) tui.PermissionEnd {
	switch e {
	case room.AskAnswered:
		return tui.PermissionAnswered
	case room.AskTimedOut:
		return tui.PermissionTimedOut
	case room.AskElsewhere:
		return tui.PermissionElsewhere
	}
	return tui.PermissionShutdown
}
