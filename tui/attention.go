package tui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// What needs the human (docs/design.md §17 "Attention"): the Backend's one
// list, this UI's view of it — the status line's count, the topic list's
// mark, the list overlay and the jump key — and this terminal's rings: an
// item rings once it stayed unseen for the dwell, unless its seat rang
// within the cooldown, and never while it is on the focused screen.

// attentionState is this UI's part of the list.
type attentionState struct {
	items []AttentionItem
	// known is the newest id this UI has judged: an item above it is new
	// (it may ring); the list read at start is all known (a window that
	// attaches does not ring for what happened before).
	known  uint64
	loaded bool
	// newer: a change event was handled since the list was last asked
	// for, so that answer, when it comes, is no newer than what is shown.
	newer bool
	// told: ids this UI reported seen (SeenAttention), so each is told
	// once; cleared of ids no longer listed.
	told map[uint64]bool
	// blurred: the terminal said it lost focus (CSI O) and has not said it
	// got it back. A terminal that never reports focus counts as focused:
	// what is on its screen is not rung for — but reported seen only with
	// its human's input (input: this update handled a key, a paste, a
	// click), else a window left open elsewhere took every item of its
	// topic off the list of every window. focusKnown: it reported once.
	blurred    bool
	focusKnown bool
	input      bool
	// lastRing is when each seat (topic and account; a topic alone for a
	// topic's item) last rang, for the cooldown; rings counts rings.
	lastRing map[string]time.Time
	rings    int
	// cursor is the item the jump key went to last: the next jump goes to
	// the one after it (oldest first, round).
	cursor uint64
	// sel is the list overlay's selected row.
	sel int
	// due: when each new item off the screen has waited out its dwell
	// (pruned to the listed ids). One timer waits, for the earliest:
	// tickAt is when it fires (zero: none armed). A timer per item was a
	// goroutine per item for the whole dwell, and a flood brings a UI
	// thousands of new items a second.
	due    map[uint64]time.Time
	tickAt time.Time
	// after makes the dwell's timer (tea.Tick; tests replace it).
	after func(d time.Duration, msg tea.Msg) tea.Cmd
}

// attnNotify is how this UI rings, from the settings (tui.SettingValues).
type attnNotify struct {
	mode     string // NotifyTerminal, NotifyOff or NotifyDesktop
	sequence string // "" (from the terminal), "osc9", "osc777", "bel"
	dwell    time.Duration
	cooldown time.Duration
}

// Defaults while the settings are not read (and for a value of 0 that is
// not the file's: the file's 0 is "at once" / "no cooldown").
const (
	defaultDwell    = 5 * time.Second
	defaultCooldown = 60 * time.Second
)

// attnMark marks a topic holding an item in the topic list and leads the
// status line's count: one cell in every terminal.
const attnMark = "!"

// cooldownKey is the seat an item rings for.
func cooldownKey(it AttentionItem) string {
	return it.Topic + "\x00" + it.Account
}

// itemText is an item's one line in the human's language: who and what,
// without its topic (the list and the ring add it).
func (m *Model) itemText(it AttentionItem) string {
	tr := m.env.tr
	// One line each: a line break in a seat- or server-written detail (an
	// MCP server's initialize error) drew rows of the list that are no
	// item (oneLine).
	who := oneLine(m.accounts.name(it.Account))
	detail := oneLine(it.Detail)
	switch it.Kind {
	case AttnCard:
		return tr.t(mAttnCard, who, detail)
	case AttnCardTimedOut:
		return tr.t(mAttnCardTimedOut, who, detail)
	case AttnAddressed:
		if detail != "" {
			who = detail // the speaker's name as it was said
		}
		return tr.t(mAttnAddressed, who)
	case AttnLimited:
		if t, err := time.Parse(time.RFC3339, it.Detail); err == nil {
			return tr.t(mAttnLimited, who, t.In(m.env.loc).Format("15:04"))
		}
		return tr.t(mAttnLimitedUnknown, who)
	case AttnResumed:
		return tr.t(mAttnResumed, who)
	case AttnExited:
		return tr.t(mAttnExited, who, detail)
	case AttnBraked:
		return tr.tn(mAttnBraked, it.Count, it.Count)
	case AttnOpFailed:
		return tr.t(mAttnOpFailed, detail)
	case AttnMCPDied:
		return tr.t(mAttnMCPDied, who, detail)
	}
	return detail
}

// itemLine is an item with its topic: "topic: text".
func (m *Model) itemLine(it AttentionItem) string {
	if it.Topic == "" {
		return m.itemText(it)
	}
	return m.topics.nameOf(&m.env, it.Topic) + ": " + m.itemText(it)
}

// pending counts the items the human has not seen (a card seen but
// waiting still counts: it needs an answer).
func (a *attentionState) pending() int {
	return len(a.items)
}

// topicsHolding are the topics that hold an item.
func (a *attentionState) topicsHolding() map[string]bool {
	out := map[string]bool{}
	for _, it := range a.items {
		if it.Topic != "" {
			out[it.Topic] = true
		}
	}
	return out
}

// statusPart is the status line's count: "! 2 need you: F5" ("" none).
func (m *Model) attentionStatus() string {
	n := m.attn.pending()
	if n == 0 {
		return ""
	}
	return attnMark + " " + m.env.tr.t(mStNeedsYou, n, hintKey(firstKey(m.keys.NeedsYou))) + " · "
}

// attentionListView is the list overlay: one row per item, oldest first,
// the selected one marked; its width is at most maxW cells.
func (m *Model) attentionListView(maxW, maxH int) string {
	e := &m.env
	inner := max(min(maxW, 90)-4, 20)
	lines := []string{e.th.accentS.Bold(true).Render(e.tr.t(mAttnTitle)), ""}
	rows := max(maxH-6, 1)
	items := m.attn.items
	if len(items) == 0 {
		lines = append(lines, e.th.dim.Render(e.tr.t(mAttnEmpty)))
	}
	first := 0
	if m.attn.sel >= rows {
		first = m.attn.sel - rows + 1
	}
	for i := first; i < len(items) && i < first+rows; i++ {
		it := items[i]
		at := it.At.In(e.loc).Format("15:04")
		textW := max(inner-ansi.StringWidth(at)-3, 4)
		text := fit(cut(m.itemLine(it), textW), textW)
		if i == m.attn.sel {
			lines = append(lines, e.th.sel.Render("› "+text+" "+at))
			continue
		}
		lines = append(lines, "  "+text+" "+e.th.dim.Render(at))
	}
	if n := len(items) - first - rows; n > 0 {
		lines = append(lines, e.th.dim.Render(fmt.Sprintf("  +%d", n)))
	}
	lines = append(lines, "", e.th.dim.Render(cut(e.tr.t(mAttnFooter,
		hintKey(firstKey(m.keys.Select)), hintKey(firstKey(m.keys.Cancel)), hintKey(firstKey(m.keys.NeedsYou))), inner)))
	return modalBox(e, strings.Join(lines, "\n"), inner)
}
