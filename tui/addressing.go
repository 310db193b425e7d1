package tui

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/pullcept/pullcept/room"
)

// Addressing while typing (docs/design.md §10, issue 14): the @names in the
// input that the room will take as addressees are drawn in the
// participant's colour, and the bar's top edge names those it will not —
// a name nobody in this room has, or an account whose seat is offline.
// The rule is the room's own (room.MentionSpans), so the bar never marks a
// name the room would not address.

// mentionTargets is what the input's @names can resolve to in the open topic.
type mentionTargets struct {
	inRoom  []string       // the room's roster names (room.TakeMentions' roster)
	hues    map[string]int // lower-cased roster name → its colour
	offline []string       // seat accounts with no seat live in this topic
	joining []string       // seat accounts whose seat runs here but is not in the room (yet)
}

func (a mentionTargets) equal(b mentionTargets) bool {
	return slices.Equal(a.inRoom, b.inRoom) && slices.Equal(a.offline, b.offline) && slices.Equal(a.joining, b.joining)
}

// mentionTargets gathers the open topic's roster and its offline seat accounts:
// accounts of a seat kind, not the admin, that are neither in the roster
// nor starting or running here.
func (m *Model) mentionTargets() mentionTargets {
	a := mentionTargets{hues: map[string]int{}}
	here := map[string]bool{}
	for _, mb := range m.roster() {
		if mb.Name == "" {
			continue
		}
		a.inRoom = append(a.inRoom, mb.Name)
		a.hues[strings.ToLower(mb.Name)] = speakerHue(mb.Hue, mb.Name, m.env.selfName, m.env.selfHue)
		if mb.AccountID != "" {
			here[mb.AccountID] = true
		}
	}
	for _, acc := range m.accounts.list {
		switch acc.Kind {
		case KindClaudeCode, KindCodexCLI, KindCLI:
		default:
			continue
		}
		if acc.ID == m.opts.AdminID || here[acc.ID] {
			continue
		}
		// A seat that runs but is not in the roster has not joined: still
		// starting, or a CLI that never joins (it gets no posts).
		if st := m.seats.infos[acc.ID].State; st == SeatStarting || st == SeatRunning ||
			m.seats.starting[seatKey{topic: m.topics.open, account: acc.ID}] {
			a.joining = append(a.joining, displayAccountName(acc))
			continue
		}
		a.offline = append(a.offline, displayAccountName(acc))
	}
	return a
}

// setMentionTargets takes the names the input's @names resolve to; the bar
// redraws when they changed.
func (ib *inputBar) setMentionTargets(a mentionTargets) {
	if !ib.addr.equal(a) {
		ib.addr = a
		ib.changed()
	}
}

// unresolved lists, in order and once each, the @names of text the room
// will not address: offline holds offline accounts' names, absent the
// words after an '@' that match nobody. Only an '@' at the start of a line
// or after whitespace counts (as for the popup: "a@b.com" is no name), and
// skip (line, rune column of an '@'; row -1 for none) is left out: the @word
// being completed.
func unresolved(text string, a mentionTargets, skipRow, skipCol int) (absent, offline, joining []string) {
	if !strings.ContainsAny(text, "@＠") {
		return nil, nil, nil
	}
	for row, line := range strings.Split(text, "\n") {
		if !strings.ContainsAny(line, "@＠") {
			continue
		}
		taken := map[int]bool{}
		for _, s := range room.MentionSpans(line, a.inRoom) {
			taken[s.Start] = true
		}
		off := map[int]string{}
		for _, s := range room.MentionSpans(line, a.offline) {
			off[s.Start] = s.Name
		}
		join := map[int]string{}
		for _, s := range room.MentionSpans(line, a.joining) {
			join[s.Start] = s.Name
		}
		col := 0
		prev := ' '
		for i, r := range line {
			if isAt(r) && unicode.IsSpace(prev) && !taken[i] && !(row == skipRow && col == skipCol) {
				if name, ok := join[i]; ok {
					joining = addFold(joining, name)
				} else if name, ok := off[i]; ok {
					offline = addFold(offline, name)
				} else if w := atWord(line[i+utf8.RuneLen(r):]); w != "" {
					absent = addFold(absent, w)
				}
			}
			prev = r
			col++
		}
	}
	return absent, offline, joining
}

// atWord is the word after an '@': up to whitespace or punctuation.
func atWord(s string) string {
	end := strings.IndexFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsPunct(r) || isAt(r) })
	if end < 0 {
		return s
	}
	return s[:end]
}

// addFold appends name unless list has it, case-insensitively.
func addFold(list []string, name string) []string {
	for _, have := range list {
		if strings.EqualFold(have, name) {
			return list
		}
	}
	return append(list, name)
}

// addressHint is the bar's warning about the @names that do not resolve,
// in at most w cells, or "" when every @name resolves: the whole sentence
// when it fits, else the short form (the edge is 30 cells at 80×24), else
// cut with "…". Whether the post still has addressees decides what an
// absent name means: with none, the post goes to everyone; with some, that
// name is simply not one of them.
func (ib *inputBar) addressHint(e *env, w int) string {
	text := ib.ta.Value()
	// The @word still being typed (the caret at its end) is left out: a
	// half-typed name is no name yet, and the hint flashed at each key.
	skipRow, skipCol := -1, -1
	if ib.comp.active {
		skipRow, skipCol = ib.comp.row, ib.comp.col
	}
	absent, offline, joining := unresolved(text, ib.addr, skipRow, skipCol)
	if len(absent) == 0 && len(offline) == 0 && len(joining) == 0 {
		return ""
	}
	_, took := room.TakeMentions(text, ib.addr.inRoom)
	long := addrHintText(e, absent, offline, joining, len(took) > 0, false)
	if ansi.StringWidth(long) <= w {
		return long
	}
	return ansi.Truncate(addrHintText(e, absent, offline, joining, len(took) > 0, true), w, "…")
}

// addrHintText joins the hint's parts (" · " apart), in full or short.
func addrHintText(e *env, absent, offline, joining []string, addressed, short bool) string {
	var parts []string
	if len(absent) > 0 {
		var id msgKey
		switch {
		case short && addressed:
			id = mAddrAbsentSomeShort
		case short:
			id = mAddrAbsentAllShort
		case addressed && len(absent) > 1:
			id = mAddrAbsentSomeMany
		case addressed:
			id = mAddrAbsentSome
		case len(absent) > 1:
			id = mAddrAbsentAllMany
		default:
			id = mAddrAbsentAll
		}
		parts = append(parts, e.tr.t(id, joinNames(absent)))
	}
	if len(offline) > 0 {
		id := mAddrOffline
		switch {
		case short:
			id = mAddrOfflineShort
		case len(offline) > 1:
			id = mAddrOfflineMany
		}
		parts = append(parts, e.tr.t(id, joinNames(offline)))
	}
	if len(joining) > 0 {
		id := mAddrJoining
		if short {
			id = mAddrJoiningShort
		}
		parts = append(parts, e.tr.t(id, joinNames(joining)))
	}
	return strings.Join(parts, " · ")
}

// joinNames writes names for a hint, each on one line.
func joinNames(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = sanitize(oneLine(n))
	}
	return strings.Join(out, ", ")
}

// markMentions draws the mentions the room will take in one rendered row
// of the textarea in the participant's colour, bold and underlined; a row
// without one comes back as it was. The rule runs on the row as shown, so a
// mention cut by a soft wrap is not marked.
func markMentions(e *env, row string, a mentionTargets) string {
	plain := ansi.Strip(row)
	spans := room.MentionSpans(plain, a.inRoom)
	if len(spans) == 0 {
		return row
	}
	var b strings.Builder
	at := 0
	for _, s := range spans {
		b.WriteString(e.th.text.Render(plain[at:s.Start]))
		b.WriteString(e.th.hueStyle(a.hues[strings.ToLower(s.Name)]).Bold(true).Underline(true).Render(plain[s.Start:s.End]))
		at = s.End
	}
	b.WriteString(e.th.text.Render(plain[at:]))
	return b.String()
}
