package tui

import (
	"maps"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/pullcept/pullcept/room"
)

// Avatars (docs/design.md §10 "Avatars"; spec «会話面の見た目（#225）»,
// #236, #253): with the "avatars" setting at AvatarsInitials every other
// speaker's heading in the chat, every fold's and every row of the panel
// has a mark of initials before the name, "(CL)", in the participant's
// colour on a faint mix of it with the page. The parentheses keep it a
// mark on a terminal without colour. The marks are made (marks.go) from the
// configured accounts, then from the open topic's guests and the speakers
// of its loaded posts that have no account, so none is another's.

// markSource is what the marks were last made from: they are made again
// only when one of these moved.
type markSource struct {
	on     bool   // the setting says initials
	chat   *chat  // the open topic's chat (a new one on a topic switch)
	chatV  int    // its version: posts came or went
	panelV int    // the panel's: accounts, rosters or seats changed
	topic  string // the open topic
}

// refreshMarks makes the marks again when the setting, the accounts, the
// open topic's roster or its loaded posts moved; a change redraws every
// cache (env.gen).
func (m *Model) refreshMarks() {
	on := m.settings.info.Avatars == AvatarsInitials
	src := markSource{on: on, chat: m.chat, chatV: m.chat.version, panelV: m.accounts.panel.version, topic: m.topics.open}
	if src == m.markSrc {
		return
	}
	m.markSrc = src
	var marks map[string]string
	if on {
		marks = participantMarks(m.markAccounts(), m.markOthers())
	}
	if !maps.Equal(marks, m.env.marks) || (marks == nil) != (m.env.marks == nil) {
		m.env.marks = marks
		m.env.gen++
	}
}

// markAccounts are the configured accounts, by id, under their display
// names.
func (m *Model) markAccounts() []markWho {
	out := make([]markWho, 0, len(m.accounts.list))
	for _, a := range m.accounts.list {
		out = append(out, markWho{key: markAccountKey(a.ID), name: displayAccountName(a)})
	}
	return out
}

// markOthers are the open topic's participants without a configured
// account, by name: its guests, and the speakers of its loaded posts (the
// screen's own posts have no mark).
func (m *Model) markOthers() []markWho {
	var out []markWho
	seen := map[string]bool{}
	add := func(key, name string) {
		if !seen[key] {
			seen[key] = true
			out = append(out, markWho{key: key, name: name})
		}
	}
	for _, g := range (&partData{accounts: m.accounts.list, roster: m.roster()}).guests() {
		add(markNameKey(g.Name), g.Name)
	}
	for _, p := range m.chat.posts {
		if p.Role == room.RoleAdmin {
			continue
		}
		if k := postMarkKey(&m.env, p); !strings.HasPrefix(k, "a\x00") {
			add(k, p.Speaker)
		}
	}
	return out
}

// postMarkKey is whose mark a post carries: its account's when the account
// is configured (as postHue takes its colour), else its speaker's name's.
func postMarkKey(e *env, p room.Post) string {
	if _, ok := e.hues[p.Account]; ok && p.Account != "" && !p.FromApp {
		return markAccountKey(p.Account)
	}
	return markNameKey(p.Speaker)
}

// postMark is the mark before p's speaker in the chat, with a space after
// it; "" for names only. Pullcept's own notes have theirs dim, as their
// name is.
func postMark(e *env, p room.Post) string {
	mark := e.marks[postMarkKey(e, p)]
	if mark == "" {
		return ""
	}
	st := e.th.markStyle(postHue(e, p))
	if p.Role == room.RoleApp {
		st = e.th.dim
	}
	return st.Render("("+mark+")") + " "
}

// rowMark is the mark before a panel row's name in st, padded to the
// widest mark of the panel (w cells, parentheses and the space after
// included) so the names line up; "" when the row has none or the name
// would keep fewer than minNameW cells of avail.
func rowMark(e *env, key string, st lipgloss.Style, w, avail int) (string, int) {
	mark := e.marks[key]
	if mark == "" || avail-w < minNameW+1 {
		return "", 0
	}
	tag := st.Render("(" + mark + ")")
	return tag + strings.Repeat(" ", max(w-ansi.StringWidth(mark)-2, 1)), w
}

// rowMarkWidth is the cells the panel's marks take: the widest mark of its
// rows with its parentheses and a space; 0 when none has one.
func rowMarkWidth(e *env, rows []partRow) int {
	w := 0
	for _, r := range rows {
		if m := e.marks[r.markKey()]; m != "" {
			w = max(w, ansi.StringWidth(m)+3)
		}
	}
	return w
}

// markKey is whose mark a panel row carries.
func (r partRow) markKey() string {
	if r.account != nil {
		return markAccountKey(r.account.ID)
	}
	return markNameKey(r.guest.Name)
}
