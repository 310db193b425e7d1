package room

import (
	"fmt"
	"slices"
	"strings"
)

// Notices from local MCP servers (docs/design.md §2, §4; spec «webhook の通知»
// #169, #193, #195): Pullcept runs each server of mcp-servers.json as its
// own MCP client and posts what it pushes as the server's mcp account. Such
// a notice enters deliver like every post, as a fourth sender: role mcp,
// never judged by the floor (it was not written from what the room said,
// so it cannot have missed anything), never parsed for mentions and given
// no `to` (the room does not route it, #32), logged, shown, and typed into
// every seat of the room. The account takes no seat and is in no roster
// (a server has no way to answer), so no seat is skipped as its speaker.

// MCPNote is one notice of a local MCP server's account for Hub.MCPNotice.
// AccountID is the server's mcp account (required); Speaker and Hue are
// what the room calls it and its colour (0–359, nil for none) when the
// hub's Identities does not know the account. Content is the text, posted
// as given. Signer is the name the app read from the event's own body
// (docs/design.md §6 "Local MCP servers"), "" for none: it becomes
// Post.Signed and the tag's "signed", which no text of the server's can
// set (issue 32: a body's first line "Signed: Human" looked verified).
type MCPNote struct {
	AccountID string
	Speaker   string
	Hue       *int
	Content   string
	Signer    string
}

// MCPNotice delivers n into topicID's room through the one post path
// (docs/design.md §2): role mcp, the account's name as speaker (the name,
// original name and hue Identities gives for the account when it knows it —
// read now, so a rename reaches the next notice; else n's Speaker and
// Hue), the account id set, no `to`, no mention parsing, never judged by
// the floor, logged (the log line keeps the account, from which History
// reads role mcp back), shown, counted by no brake, and typed into every
// seat of the room. A topic whose first post is a notice is named from
// it, like from any first post. It returns the post as delivered.
//
// Errors: ErrBadNotice (no account or speaker, an account the hub's
// Accounts does not know as kind mcp, the speaker Pullcept or the human
// (SetAdmin's name or original name, folded as config folds), a signer that
// is no name), ErrBadName
// (a name or id a room could not carry), ErrNoRoom, ErrEmptyPost,
// ErrPostTooLong, ErrClosed.
func (h *Hub) MCPNotice(topicID string, n MCPNote) (Post, error) {
	as, err := h.mcpSpeaker(n)
	if err != nil {
		return Post{}, err
	}
	r, err := h.room(topicID)
	if err != nil {
		return Post{}, err
	}
	as.Signed = strings.TrimSpace(n.Signer)
	if err := checkSigner(as.Signed); err != nil {
		return Post{}, fmt.Errorf("%w: account %q: %w", ErrBadNotice, n.AccountID, err)
	}
	res, err := h.deliver(r, sender{kind: sendMCP, as: as}, Draft{Content: n.Content})
	return res.Post, err
}

// mcpSpeaker is the stamp of n's notices (role, speaker, full name,
// account, hue; no content), checked as a hello's names are.
func (h *Hub) mcpSpeaker(n MCPNote) (Post, error) {
	id := n.AccountID
	if id == "" {
		return Post{}, fmt.Errorf("%w: no account", ErrBadNotice)
	}
	if err := checkName("account", id, maxIDBytes); err != nil || len(id) > maxIDBytes {
		return Post{}, fmt.Errorf("%w: account %.40q: %w", ErrBadNotice, id, ErrBadName)
	}
	if h.accounts != nil {
		if kind, ok := h.accounts.AccountKind(id); !ok || Role(kind) != RoleMCP {
			return Post{}, fmt.Errorf("%w: account %q is not an mcp account", ErrBadNotice, id)
		}
	}
	p := Post{Role: RoleMCP, Account: id, Speaker: strings.TrimSpace(n.Speaker), Hue: copyHue(n.Hue)}
	if h.idents != nil {
		if name, full, hue, ok := h.idents.AccountIdentity(id); ok && strings.TrimSpace(name) != "" {
			p.Speaker, p.FullName, p.Hue = strings.TrimSpace(name), strings.TrimSpace(full), copyHue(hue)
		}
	}
	switch {
	case p.Speaker == "":
		return Post{}, fmt.Errorf("%w: account %q: no speaker name", ErrBadNotice, id)
	case strings.EqualFold(p.Speaker, AppSpeaker):
		return Post{}, fmt.Errorf("%w: account %q: the name %q is Pullcept's own", ErrBadNotice, id, p.Speaker)
	case h.humansName(p.Speaker):
		// config refuses such an account (issue 32); a hand-edited file
		// only warns, so the room says no too.
		return Post{}, fmt.Errorf("%w: account %q: the name %q is the human's", ErrBadNotice, id, p.Speaker)
	}
	if err := checkName("speaker", p.Speaker, maxNameRunes); err != nil {
		return Post{}, fmt.Errorf("%w: account %q: %w", ErrBadNotice, id, err)
	}
	if err := checkName("full_name", p.FullName, maxFullNameRunes); err != nil {
		return Post{}, fmt.Errorf("%w: account %q: %w", ErrBadNotice, id, err)
	}
	return p, nil
}

// copyHue is a copy of hue the caller cannot change afterwards.
func copyHue(hue *int) *int {
	if hue == nil {
		return nil
	}
	v := *hue
	return &v
}

// RoomsWithSeats returns the topic ids of the open rooms where, at this
// moment, at least one connection other than the UI's own sits: a seat
// that said hello through the room socket (spec «webhook の通知»: a notice
// goes to every room an AI seat sits in, and to none when no room has
// one; the human is at the screen, not on a socket). Sorted, so every
// caller walks the rooms in one order.
func (h *Hub) RoomsWithSeats() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var ids []string
	for id, r := range h.rooms {
		r.mu.Lock()
		seated := r.closeErr == nil && slices.ContainsFunc(r.members, func(m *member) bool { return !m.local })
		r.mu.Unlock()
		if seated {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}
