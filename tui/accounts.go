package tui

import "github.com/pullcept/pullcept/room"

// accountBook is the accounts feature: the configured accounts, who sits
// in each topic's room, and the participant panel that shows both for the
// open topic (the account editor is an overlay, see overlays).
type accountBook struct {
	list    []AccountInfo            // every configured account, as Accounts() last said
	rosters map[string][]room.Member // connections in each topic's room, by topic id
	found   map[string]string        // command → path on PATH, for the first-run hint
	home    string                   // the user's home, prefilled as a working directory
	panel   *participants            // the right column
	// servers are the mcp accounts' local MCP servers as last read
	// (MCPServers), by account id: their rows say the server's state;
	// serverReads runs one read of them at a time (mcprows.go).
	servers     map[string]MCPServerInfo
	serverReads coalesced
	// socket is where the seats reach the room, as last read when the
	// panel took the focus (details.go); nil until then.
	socket *RoomSocket
}

func newAccountBook() accountBook {
	return accountBook{
		rosters: map[string][]room.Member{},
		found:   map[string]string{},
		panel:   &participants{},
	}
}

// name is the display name of account id, or the id when it is unknown.
func (ab *accountBook) name(id string) string {
	if a, ok := ab.find(id); ok {
		return displayAccountName(a)
	}
	return id
}

func (ab *accountBook) find(id string) (AccountInfo, bool) {
	for _, a := range ab.list {
		if a.ID == id {
			return a, true
		}
	}
	return AccountInfo{}, false
}

// uniqueName returns base, or "base 2", "base 3"… so a new account's
// default name does not repeat an existing account's name or display name
// (spec «アカウント»).
func (ab *accountBook) uniqueName(base string) string {
	return ab.kindDefaultsFor("").uniqueName(base)
}
