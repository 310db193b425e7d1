package room

import (
	"fmt"
	"slices"
)

// Who a connection is, as the room names it (docs/design.md §3, §6
// "Names"; spec «ニックネームと元の名前» #383, «ニックネーム»): an account's
// seats sit under the account's current display name, original name and
// hue, read from Identities — never from what their hello says — so a
// rename applies at once in every room, a reconnecting sidecar whose
// .mcp.json still holds the launch-time name comes back under the saved
// one, and no seat can name itself as the human or as another seat.

// identify returns hl with the names and hue of the account it names when
// Identities knows that account; else hl as it is (no account, an unknown
// one, no Identities). Names the account holds are checked like a hello's
// (checkHello: a config.json written by hand may hold anything); a bad one
// is an error wrapping ErrBadHello and ErrBadName. Holds h.idMu.
func (h *Hub) identify(hl Hello) (Hello, error) {
	if h.idents == nil || hl.AccountID == "" {
		return hl, nil
	}
	name, full, hue, ok := h.idents.AccountIdentity(hl.AccountID)
	if !ok || name == "" {
		return hl, nil
	}
	hl.Name, hl.FullName, hl.Hue = name, full, nil
	if hue != nil {
		v := *hue
		hl.Hue = &v
	}
	hl = cleanHello(hl)
	if err := checkHello(hl); err != nil {
		return hl, fmt.Errorf("account %q: %w", hl.AccountID, err)
	}
	return hl, nil
}

// checkBoundAccount refuses the hello of a seat token whose account is no
// longer configured: such a seat (its account deleted while it started)
// would sit under whatever names its hello gave (breaker review). Wraps
// ErrWrongSeat, which closes the socket.
func (h *Hub) checkBoundAccount(b *SeatBinding) error {
	if b == nil || h.idents == nil {
		return nil
	}
	if _, _, _, ok := h.idents.AccountIdentity(b.Account); !ok {
		return fmt.Errorf("%w: account %q is no longer configured", ErrWrongSeat, b.Account)
	}
	return nil
}

// AccountChanged renames every connection of accountID, in every open room,
// to what Identities says of it now: name, full name, hue and (for a socket)
// role. Each room whose roster changed emits RosterChanged; each socket
// whose names changed is sent an identity frame with them. The
// connections keep their seats, origins and floor positions; posts already
// delivered keep the speaker and full name they were stamped with (the log
// is never rewritten). The admin identity of SetAdmin follows when it is
// that account, in the rooms opened later too. Call it after the account
// was saved (the app does, docs/design.md §9 "Identity"). An account
// Identities does not know (deleted), or whose names a hello could not
// carry, changes nothing: its seats keep the names they had.
func (h *Hub) AccountChanged(accountID string) {
	if accountID == "" || h.idents == nil {
		return
	}
	h.idMu.Lock()
	defer h.idMu.Unlock()
	id, err := h.identify(Hello{AccountID: accountID})
	if err != nil {
		h.logger.Warn("room: account not renamed", "account", accountID, "err", err)
		return
	}
	if id.Name == "" {
		return
	}
	role := h.socketRole(accountID)
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return
	}
	if h.admin != nil && h.admin.AccountID == accountID {
		h.admin.Name, h.admin.FullName, h.admin.Hue = id.Name, id.FullName, cleanHello(id).Hue
	}
	topics := make([]string, 0, len(h.rooms))
	for t := range h.rooms {
		topics = append(topics, t)
	}
	slices.Sort(topics) // one order of RosterChanged for every run
	for _, t := range topics {
		r := h.rooms[t]
		r.mu.Lock()
		changed := false
		for _, m := range r.members {
			if m.hello.AccountID != accountID {
				continue
			}
			renamed := m.hello.Name != id.Name || m.hello.FullName != id.FullName
			m.hello.Name, m.hello.FullName, m.hello.Hue = id.Name, id.FullName, cleanHello(id).Hue
			if !m.local {
				m.role = role
			}
			if renamed {
				m.told() // the seat learns its new name (#383)
			}
			changed = true
		}
		if changed && r.closeErr == nil {
			h.emit(RosterChanged{Topic: r.topic, Roster: r.roster()})
		}
		r.mu.Unlock()
	}
}
