package tui

import (
	"time"

	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/textinput"
	"github.com/charmbracelet/x/ansi"

	"github.com/pullcept/pullcept/room/blank"
	"github.com/pullcept/pullcept/room/textcut"
)

// The permission cards (docs/design.md §10 "Permission cards"): a seat's
// permission request waiting for the human, drawn in its own rows between
// the chat and the seat panes. Cards queue in arrival order; one shows at
// a time ("1/3"). The card takes keys only once the human focuses it
// (the permission key, a click, Tab), so nothing typed elsewhere answers
// it; the seat asking is highlighted in the participant panel.

// Card bounds.
const (
	// cardMinH is the card's smallest height: its borders, one row of what
	// it asks and its keys.
	cardMinH = 4
	// cardMaxSummary bounds the rows of the tool's input a card shows at
	// once; the rest is folded ("+N more lines") and the pane shows it.
	cardMaxSummary = 8
	// cardMaxSuggestions bounds the rows of the CLI's suggestions (each
	// wrapped: "always" applies them, so they are read whole when they
	// fit); cardMaxKeys the rows of the keys.
	cardMaxSuggestions = 4
	cardMaxKeys        = 3
	// cardMaxErr bounds the rows of the last answer's refusal.
	cardMaxErr = 4
	// maxReasonRunes bounds the reason typed for a denial.
	maxReasonRunes = 500
)

// permCards is the cards waiting and how the human is answering them.
type permCards struct {
	queue  []PermissionCard // arrival order (ids grow)
	shown  int              // index of the card shown
	back   focusTarget      // where focus goes when the card lets it go
	typing bool             // the denial's reason is being typed
	// hold: the card the keys were on went (answered, timed out, answered
	// in the pane) while focused; keys wait for F7 (the next card) or Esc,
	// so a key meant for that card — a second y, the rest of a reason —
	// never answers another card, reaches a pane or becomes a post
	// (breaker review).
	hold bool
	// leaving: the card the keys were on went and the keys go back
	// (holdIfShown; cardGone acts on it).
	leaving bool
	// lastKey is the last key the card took (the one that answered it,
	// when it did): its repeat within repeatWindow of the answer
	// (answeredAt) is dropped, a double press, not text.
	lastKey    string
	answeredAt time.Time
	// allShown: the card shown shows every suggestion whole at its size
	// (set as it is drawn); "always" is offered only then.
	allShown bool
	// whole is the card (its id) whose last drawing showed all it asks:
	// nothing folded, its title not cut. y on any other card opens its
	// whole text in the card first (reading), and only y once it was
	// read to the end allows (issue 32: blank padding folded a command's
	// tail away and y ran it).
	whole   uint64
	read    cardReading
	reason  textinput.Model
	sending uint64 // the card whose answer is on its way (0: none)
	err     string // the last answer's refusal, shown on the card
	// paneWanted is the seat whose pane the pane key asked for in a topic
	// still being opened (cardPaneArrived).
	paneWanted seatKey
	// caretX, caretY are where the reason's caret is in the view (caretOK
	// false: none shown), for the real cursor (an IME types there).
	caretX, caretY int
	caretOK        bool

	// shownID is the card drawn last, shownAt when it first was (0: none
	// drawn since): no answer key is taken within dwell (cardDwell) of a
	// card showing (cardKey), so a card that appears as the human presses
	// Tab, clicks or types answers nothing it was not seen for.
	shownID uint64
	shownAt time.Time
	dwell   time.Duration

	version  int // bumped when anything the card draws changed
	view     []string
	rendered cardRenderKey
	// want caches wantRows for the key it was computed with.
	want    int
	wantKey cardWantKey
}

// cardReading is the card whose whole text shows in the card, scrolled
// (docs/design.md §10 "Permission cards"): off is its first row shown,
// seen how many of its rows showed from the top without a gap (a jump to
// the end reads nothing), total its rows at the last drawing.
type cardReading struct {
	id               uint64
	off, seen, total int
	page             int      // the rows shown at once
	rows             []string // the rows at width w, for card id
	w                int
}

// reading reports whether card shows its whole text.
func (c *permCards) reading(card PermissionCard) bool { return c.read.id != 0 && c.read.id == card.ID }

// readAll reports whether card's whole text was shown to its end.
func (c *permCards) readAll(card PermissionCard) bool {
	return c.reading(card) && c.read.total > 0 && c.read.seen >= c.read.total
}

// mayAllow reports whether y may allow card: all it carries showed, on
// the card or read to its end, and the card holds all the CLI sent.
func (c *permCards) mayAllow(card PermissionCard) bool {
	switch {
	case card.SummaryCut:
		return false // the rest never reached us: the pane has it
	case c.reading(card):
		return c.readAll(card)
	}
	return c.whole == card.ID
}

// mayAlways reports whether a may allow card with its suggestions: as
// mayAllow, and every suggestion showed whole too.
func (c *permCards) mayAlways(card PermissionCard) bool {
	switch {
	case len(card.Suggestions) == 0 || card.SuggestionsCut || card.SummaryCut:
		return false
	case c.reading(card):
		return c.readAll(card)
	}
	return c.whole == card.ID && c.allShown
}

// startReading shows card's whole text from its top.
func (c *permCards) startReading(card PermissionCard) {
	if !c.reading(card) {
		c.read = cardReading{id: card.ID}
	}
	c.version++
}

// scrollReading moves the text read by d rows.
func (c *permCards) scrollReading(d int) {
	c.read.off = max(c.read.off+d, 0)
	c.version++
}

// cardWantKey is what wantRows depends on.
type cardWantKey struct {
	w, gen, version int
	focused         bool
	name            string
}

// cardRenderKey is what the card's view was drawn from.
type cardRenderKey struct {
	w, h, gen, version int
	focused            bool
	reason             string
	caret              int
}

// current is the card shown; ok is false when none waits.
func (c *permCards) current() (PermissionCard, bool) {
	if len(c.queue) == 0 {
		return PermissionCard{}, false
	}
	c.shown = clampInt(c.shown, 0, len(c.queue)-1)
	return c.queue[c.shown], true
}

// add queues card (once: a card the UI already holds is replaced).
func (c *permCards) add(card PermissionCard) {
	c.version++
	if i := slices.IndexFunc(c.queue, func(q PermissionCard) bool { return q.ID == card.ID }); i >= 0 {
		c.queue[i] = card
		c.whole = 0 // not seen as it is now
		if c.shownID == card.ID {
			c.shownID = 0 // shown anew: its dwell starts again
		}
		if c.read.id == card.ID {
			c.read = cardReading{} // read again: the text may differ
		}
		return
	}
	i, _ := slices.BinarySearchFunc(c.queue, card.ID, func(q PermissionCard, id uint64) int { return compareIDs(q.ID, id) })
	c.queue = slices.Insert(c.queue, i, card)
	if i <= c.shown && len(c.queue) > 1 {
		c.shown++ // the card on screen stays on screen
	}
}

func compareIDs(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// remove drops card id; the reason typed for it goes with it.
func (c *permCards) remove(id uint64) (PermissionCard, bool) {
	i := slices.IndexFunc(c.queue, func(q PermissionCard) bool { return q.ID == id })
	if i < 0 {
		return PermissionCard{}, false
	}
	card := c.queue[i]
	c.version++
	if i == c.shown {
		c.dropReason()
		c.err = ""
	}
	if c.sending == id {
		c.sending = 0
	}
	if c.read.id == id {
		c.read = cardReading{}
	}
	c.queue = slices.Delete(c.queue, i, i+1)
	if i < c.shown || c.shown >= len(c.queue) {
		c.shown = max(c.shown-1, 0)
	}
	return card, true
}

// step shows the next (d 1) or previous (-1) card, round the queue; the
// reason typed for the one shown is dropped.
func (c *permCards) step(d int) {
	if n := len(c.queue); n > 1 {
		c.dropReason()
		c.err = ""
		c.shown = (c.shown + d + n) % n
		c.version++
	}
}

// openReason opens the line for a denial's reason.
func (c *permCards) openReason(e *env) {
	ti := *newField(e, "")
	ti.Prompt = ""
	ti.CharLimit = maxReasonRunes
	ti.SetVirtualCursor(false)
	ti.Focus()
	c.reason, c.typing = ti, true
	c.version++
}

// dropReason closes the reason's line and forgets what was typed: it is
// never kept, logged or typed anywhere.
func (c *permCards) dropReason() {
	if c.typing {
		c.version++
	}
	c.typing = false
	c.reason = textinput.Model{}
}

// cardInfo is what the card needs from the rest of the screen: the seat's
// name and colour, the topic's name when it is not the one open.
type cardInfo struct {
	name  string
	hue   int
	topic string // "" for the open topic
}

// render draws the shown card in w×h cells (the rows layout gave it).
func (c *permCards) render(e *env, w, h int, focused bool, info cardInfo) []string {
	k := cardRenderKey{w: w, h: h, gen: e.gen, version: c.version, focused: focused}
	if c.typing {
		k.reason, k.caret = c.reason.Value(), c.reason.Position()
	}
	if c.view != nil && k == c.rendered {
		return c.view
	}
	c.rendered = k
	c.whole = 0 // until this drawing shows it all
	if c.hold && focused && w >= 8 && h >= 3 {
		c.view = block(c.holdRows(e, w), w, h)
		c.caretOK = false
		return c.view
	}
	card, ok := c.current()
	if !ok || w < 8 || h < 3 {
		c.view = block(nil, w, h)
		return c.view
	}
	inner := w - 4
	body, reasonAt := c.bodyRows(e, card, inner, h-2, focused, info)
	c.caretOK = false
	if c.typing && focused && reasonAt >= 0 {
		// In cells: the input's own Cursor counts runes, and 日本語 is two
		// cells a rune.
		lw := ansi.StringWidth(e.tr.t(mCardReason)) + 1
		before := string([]rune(c.reason.Value())[:c.reason.Position()])
		c.caretX, c.caretY, c.caretOK = 2+lw+min(ansi.StringWidth(before), max(inner-lw-1, 0)), 1+reasonAt, true
	}
	bs := e.th.border
	if focused {
		bs = e.th.borderFocus
	}
	title, titleCut := cardTitle(e, card, info, len(c.queue), c.shown, w-6)
	if titleCut {
		c.whole = 0 // the tool's name or its server did not show whole
	}
	out := make([]string, 0, h)
	out = append(out, bs.Render("╭─ ")+title+sgrReset+bs.Render(" "+strings.Repeat("─", max(w-5-ansi.StringWidth(title), 0))+"╮"))
	for _, row := range body {
		out = append(out, bs.Render("│")+" "+fit(row, inner)+sgrReset+" "+bs.Render("│"))
	}
	out = append(out, bs.Render("╰"+strings.Repeat("─", w-2)+"╯"))
	c.view = block(out, w, h)
	return c.view
}

// wantRows is how many rows the shown card would like at width w: all of
// what it asks (up to cardMaxSummary rows), its suggestions, its keys.
func (c *permCards) wantRows(e *env, w int, focused bool, info cardInfo) int {
	if c.hold && focused && w >= 8 {
		return len(c.holdRows(e, w))
	}
	card, ok := c.current()
	if !ok || w < 8 {
		return 0
	}
	k := cardWantKey{w, e.gen, c.version, focused, info.name}
	if k == c.wantKey && c.want > 0 {
		return c.want
	}
	if c.reading(card) {
		// As many rows as the text has: the layout gives at most half
		// the centre column.
		// Its keys as they are once it was all read: at this size it all
		// shows, so the drawing reads it to the end.
		c.want = 2 + min(len(readText(e, card, w-4)), 200) + 1 + c.extraRows(w-4) + len(c.keysRows(e, card, w-4, focused, info, true))
		c.wantKey = k
		return c.want
	}
	rows, _ := summaryRows(card, w-4, cardMaxSummary)
	c.want = 2 + len(rows) + len(suggestionRows(e, card, w-4, cardMaxSuggestions)) + c.extraRows(w-4) +
		len(c.keysRows(e, card, w-4, focused, info, false))
	c.wantKey = k
	return c.want
}

// holdRows is the card area while keys are held: the card went by itself
// while its reason was typed, and nothing more was sent; F7 shows the
// next one (how many wait), Esc goes back.
func (c *permCards) holdRows(e *env, w int) []string {
	th, tr, km := e.th, e.tr, e.keys
	next, back := hintKey(firstKey(km.Permission)), hintKey(firstKey(km.Cancel))
	msg := tr.t(mCardHeld, next, len(c.queue), back)
	bs := th.borderFocus
	title := th.accentS.Render(tr.t(mCardTitle))
	out := []string{bs.Render("╭─ ") + title + sgrReset + bs.Render(" "+strings.Repeat("─", max(w-5-ansi.StringWidth(title), 0))+"╮")}
	// Wrapped so the keys at its end show at any width (issue 35: "Esc:
	// back" was cut at 80 and 120 columns).
	for _, line := range wrapCut(msg, max(w-4, 1), cardMaxHold) {
		out = append(out, bs.Render("│")+" "+th.dim.Render(line)+strings.Repeat(" ", max(w-4-ansi.StringWidth(line), 0))+" "+bs.Render("│"))
	}
	return append(out, bs.Render("╰"+strings.Repeat("─", max(w-2, 0))+"╯"))
}

// errRows bounds the refusal's rows on card: fewer while its text is read,
// so the text keeps rows at the smallest size.
func (c *permCards) errRows(card PermissionCard) int {
	if c.reading(card) {
		return cardMaxErr / 2
	}
	return cardMaxErr
}

// cardMaxHold bounds the rows of the held card area's message.
const cardMaxHold = 3

// extraRows are the rows besides what it asks, its suggestions and keys:
// the refusal of the last answer, the reason's line.
func (c *permCards) extraRows(w int) int {
	n := 0
	if card, ok := c.current(); ok && c.err != "" {
		n += len(wrapCut(oneLine(c.err), w, c.errRows(card)))
	}
	if c.typing {
		n++
	}
	return n
}

// bodyRows are the card's rows inside its border, at most h: what the tool
// would do (folded to the rows left), the suggestions, a refusal, the
// reason's line and the keys. The keys give way last; what it asks keeps
// at least half of the rest. reasonAt is the reason's row (-1: none).
func (c *permCards) bodyRows(e *env, card PermissionCard, w, h int, focused bool, info cardInfo) (rows []string, reasonAt int) {
	return c.bodyRowsSettle(e, card, w, h, focused, info, 2)
}

// bodyRowsSettle is bodyRows, drawn again at most settle times while
// "always" being offered or not changes what shows.
func (c *permCards) bodyRowsSettle(e *env, card PermissionCard, w, h int, focused bool, info cardInfo, settle int) (rows []string, reasonAt int) {
	th := e.th
	if c.reading(card) {
		return c.readingBody(e, card, w, h, focused, info)
	}
	tail, reasonAt := c.tailRows(e, card, w, focused, info, false)
	if h <= len(tail) {
		drop := len(tail) - max(h, 0)
		if reasonAt >= 0 {
			reasonAt -= drop
		}
		return tail[drop:], reasonAt
	}
	rest := h - len(tail)
	want, _ := summaryRows(card, w, cardMaxSummary)
	suggN := min(cardMaxSuggestions, max(rest-len(want), rest-(rest+1)/2), rest-1)
	sugg, all := suggestionRowsAll(e, card, w, suggN)
	if all != c.allShown && settle > 0 {
		// "always" is offered only while every suggestion shows whole: the
		// keys' row follows what this size shows (breaker review: a mode
		// change hid behind "+1" and "a" applied it). When its hint takes
		// the row the last suggestion needed, each answer undoes the other
		// (FuzzCardRender: the recursion overflowed the stack at 69×6):
		// the second time "always" is not offered, which hides nothing.
		c.allShown = all && settle > 1
		return c.bodyRowsSettle(e, card, w, h, focused, info, settle-1)
	}
	sum, more := summaryRows(card, w, rest-len(sugg))
	if more == "" && !card.SummaryCut && len(sum) > 0 {
		c.whole = card.ID
	}
	out := make([]string, 0, h)
	for i, r := range sum {
		switch {
		case i < len(sum)-1 || more == "":
			out = append(out, th.text.Render(r))
		case r == "":
			out = append(out, th.dim.Render(cut(e.tr.t(mCardMore, more, oneLine(info.name)), w)))
		default: // one row only: the first of what it asks, and how much more
			tag := " +" + more
			out = append(out, th.text.Render(cut(r, max(w-ansi.StringWidth(tag), 1)))+th.dim.Render(tag))
		}
	}
	out = append(out, sugg...)
	if reasonAt >= 0 {
		reasonAt += len(out)
	}
	return append(out, tail...), reasonAt
}

// tailRows are the card's rows under what it asks: the refusal of the
// last answer, the reason's line (its row reasonAt, -1: none), the keys;
// readDone as keysRows takes it.
func (c *permCards) tailRows(e *env, card PermissionCard, w int, focused bool, info cardInfo, readDone bool) (tail []string, reasonAt int) {
	th := e.th
	reasonAt = -1
	if c.err != "" {
		// Wrapped, not cut: a refusal says what to do instead (issue 35:
		// at 80×24 it was cut before the key it named).
		for _, l := range wrapCut(oneLine(c.err), w, c.errRows(card)) {
			tail = append(tail, th.dangerS.Render(l))
		}
	}
	if c.typing {
		label := e.tr.t(mCardReason)
		c.reason.SetWidth(max(w-ansi.StringWidth(label)-2, 1))
		reasonAt = len(tail)
		tail = append(tail, th.accentS.Render(label)+" "+c.reason.View())
	}
	return append(tail, c.keysRows(e, card, w, focused, info, readDone)...), reasonAt
}

// readingBody is bodyRows while the card's whole text is read. It is
// first drawn with the keys it has once read to the end: when that
// drawing shows the end, those keys are true (issue 35: "All 4 rows
// read." over keys that still said "PgDn read on", without y, and y said
// nothing), and the refusal that asked to read on goes. Otherwise it is
// drawn again with the keys to read on, and only what that drawing shows
// counts as read.
func (c *permCards) readingBody(e *env, card PermissionCard, w, h int, focused bool, info cardInfo) ([]string, int) {
	if !c.readAll(card) {
		read, err := c.read, c.err
		if c.err == e.tr.t(mCardReadFirst, hintKey(firstKey(e.keys.ScrollDown))) {
			c.err = ""
		}
		tail, at := c.tailRows(e, card, w, focused, info, true)
		rows, at := c.readingRows(e, card, w, h, tail, at)
		if c.readAll(card) {
			return rows, at
		}
		c.read, c.err = read, err
	}
	tail, at := c.tailRows(e, card, w, focused, info, c.readAll(card))
	return c.readingRows(e, card, w, h, tail, at)
}

// readingRows are the card's rows while its whole text shows (reading):
// a window of readText scrolled to read.off, a row saying where it is,
// then tail (the refusal, the reason's line, the keys). What shows from
// the top without a gap counts as read.
func (c *permCards) readingRows(e *env, card PermissionCard, w, h int, tail []string, reasonAt int) ([]string, int) {
	th := e.th
	if c.read.rows == nil || c.read.w != w {
		// Rows read at another width are not these rows (a resize): all
		// of it read stays read, part of it is read again from the top.
		done := c.read.rows != nil && c.read.seen >= len(c.read.rows)
		c.read.rows, c.read.w = readText(e, card, w), w
		switch {
		case done:
			c.read.seen = len(c.read.rows)
		case c.read.seen > 0:
			c.read.off, c.read.seen = 0, 0
		}
	}
	all := c.read.rows
	c.read.total = len(all)
	rest := h - len(tail) - 1
	if rest <= 0 {
		drop := max(len(tail)-max(h, 0), 0)
		if reasonAt >= 0 {
			reasonAt -= drop
		}
		return tail[drop:], reasonAt
	}
	c.read.page = rest
	c.read.off = clampInt(c.read.off, 0, max(len(all)-rest, 0))
	end := min(c.read.off+rest, len(all))
	if c.read.off <= c.read.seen {
		c.read.seen = max(c.read.seen, end)
	}
	out := make([]string, 0, h)
	for _, r := range all[c.read.off:end] {
		out = append(out, th.text.Render(r))
	}
	where := e.tr.t(mCardReadMore, c.read.off+1, end, len(all), hintKey(firstKey(e.keys.ScrollDown)))
	if c.read.seen >= len(all) {
		where = e.tr.t(mCardReadDone, len(all))
		if card.SummaryCut {
			where = e.tr.t(mCardReadCut, card.SummaryLines)
		}
	}
	out = append(out, th.dim.Render(cut(where, w)))
	if reasonAt >= 0 {
		reasonAt += len(out)
	}
	return append(out, tail...), reasonAt
}

// readText is all a card carries, wrapped at w: the tool (its MCP server,
// the subagent), every line of what it would do, every suggestion.
func readText(e *env, card PermissionCard, w int) []string {
	w = max(w, 1)
	head := cardText(card.Tool)
	if card.MCPServer != "" {
		head += " · " + e.tr.t(mCardMCP, cardText(card.MCPServer))
	}
	if card.Agent != "" {
		head += " · " + e.tr.t(mCardAgent, cardText(card.Agent))
	}
	rows := wrapText(oneLine(head), w)
	text := cardText(card.Summary)
	if strings.TrimSpace(text) == "" {
		text = "—"
	}
	rows = append(rows, wrapText(text, w)...)
	if !card.SuggestionsCut {
		for _, sg := range card.Suggestions {
			rows = append(rows, wrapText(e.tr.t(mCardAlways)+" "+suggestionText(e, sg), w)...)
		}
	}
	return rows
}

// summaryRows are the rows of what the card's tool would do at width w,
// at most n: each line of the summary wrapped, its control characters
// shown as codes (never obeyed). more, when not "", counts the lines that
// did not fit whole: the last row is then the fold's — "" for its text, or
// (n 1) the first row, which the fold's count follows.
func summaryRows(card PermissionCard, w, n int) (rows []string, more string) {
	if n <= 0 {
		return nil, ""
	}
	text := cardText(card.Summary)
	if strings.TrimSpace(text) == "" {
		text = "—"
	}
	total := strings.Count(text, "\n") + 1
	if card.SummaryCut {
		total = max(card.SummaryLines, total)
	}
	type row struct {
		text string
		last bool // the last row of its line
	}
	var all []row
	rest, done := text, false
	for !done && len(all) <= n {
		var line string
		line, rest, done = strings.Cut(rest, "\n")
		done = !done
		// Only what can show is wrapped: a 16 KiB line costs no more than
		// a screenful.
		whole := true
		if limit := (n + 1) * max(w, 1) * 4; len(line) > limit {
			line, whole = textcut.Bytes(line, limit), false
		}
		wrapped := wrapText(line, max(w, 1))
		for i, r := range wrapped {
			all = append(all, row{r, whole && i == len(wrapped)-1})
		}
	}
	if len(all) <= n && done && !card.SummaryCut && (len(all) == 0 || all[len(all)-1].last) {
		for _, r := range all {
			rows = append(rows, r.text)
		}
		return rows, ""
	}
	keep := all[:min(n-1, len(all))]
	whole := 0
	for _, r := range keep {
		rows = append(rows, r.text)
		if r.last {
			whole++
		}
	}
	left := max(total-whole, 1)
	if n == 1 {
		return []string{all[0].text}, fmt.Sprint(left)
	}
	return append(rows, ""), fmt.Sprint(left)
}

// cardText is text from a seat as a card shows it: control characters
// other than line breaks as their codes ("<U+001B>"), a tab as a space,
// what draws nothing as its code, joiners and selectors too, and a run of
// cardBlankRun blanks as its count (blank.ShowAll: "ls" + 3000 spaces or
// U+2800 + "; curl … | sh" would push the rest of a line out of view,
// breaker review, issue 32), then the UI's sanitizer (CR as a line break).
func cardText(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == '\t':
			b.WriteByte(' ')
		case r != '\n' && r != '\r' && (r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0):
			fmt.Fprintf(&b, "<U+%04X>", r)
		default:
			b.WriteRune(r)
		}
	}
	shown, _ := blank.ShowAll(b.String(), cardBlankRun)
	return sanitize(shown)
}

// cardBlankRun is the run of blanks a card shows as a count.
const cardBlankRun = 8

// suggestionRows are the CLI's suggestions ("always" applies them), each
// wrapped under the "always:" label, at most n rows of w cells; the last
// says how many did not fit.
func suggestionRows(e *env, card PermissionCard, w, n int) []string {
	rows, _ := suggestionRowsAll(e, card, w, n)
	return rows
}

// suggestionRowsAll is suggestionRows, and whether every suggestion shows
// whole in them ("always" is offered only then: it applies them all).
func suggestionRowsAll(e *env, card PermissionCard, w, n int) (rows []string, all bool) {
	th, tr := e.th, e.tr
	if n <= 0 {
		return nil, len(card.Suggestions) == 0
	}
	if card.SuggestionsCut {
		return []string{th.dim.Render(cut(tr.t(mCardSuggestionsCut), w))}, false
	}
	label := tr.t(mCardAlways) + " "
	lw := ansi.StringWidth(label)
	pad := strings.Repeat(" ", lw)
	var out []string
	for i, s := range card.Suggestions {
		lines := wrapText(suggestionText(e, s), max(w-lw, 1))
		if len(out)+len(lines) > n {
			left := len(card.Suggestions) - i
			room := n - len(out)
			if room <= 0 {
				last := len(out) - 1
				out[last] = ansi.Truncate(out[last], max(w-6, 1), "…") + th.dim.Render(fmt.Sprintf(" +%d", left))
				return out, false
			}
			lines = lines[:room]
			lines[room-1] = ansi.Truncate(lines[room-1], max(w-lw-6, 1), "…")
			for j, l := range lines {
				out = append(out, th.dim.Render(pad)+th.text.Render(l))
				if j == room-1 && left > 1 {
					out[len(out)-1] += th.dim.Render(fmt.Sprintf(" +%d", left-1))
				}
			}
			return out, false
		}
		for j, l := range lines {
			lead := th.dim.Render(pad)
			if i == 0 && j == 0 {
				lead = th.accentS.Render(label)
			}
			out = append(out, lead+th.text.Render(l))
		}
	}
	return out, true
}

// suggestionText says one suggestion in a line: what it does and where the
// CLI keeps it.
func suggestionText(e *env, s PermissionSuggestion) string {
	tr := e.tr
	var what string
	switch s.Type {
	case "addRules", "replaceRules", "removeRules":
		verb := map[string]msgKey{"allow": mCardRuleAllow, "deny": mCardRuleDeny, "ask": mCardRuleAsk}[s.Behavior]
		rules := strings.Join(s.Rules, ", ")
		switch {
		case s.Type == "removeRules":
			what = tr.t(mCardRulesRemove, rules)
		case s.Type == "replaceRules":
			what = tr.t(mCardRulesReplace, rules)
		case verb != 0:
			what = tr.t(verb, rules)
		default:
			what = s.Behavior + " " + rules
		}
	case "setMode":
		what = tr.t(mCardMode, s.Mode)
	case "addDirectories":
		what = tr.t(mCardDirsAdd, strings.Join(s.Directories, ", "))
	case "removeDirectories":
		what = tr.t(mCardDirsRemove, strings.Join(s.Directories, ", "))
	default:
		what = s.Type + " " + s.Other
	}
	if where := destinationText(e, s.Destination); where != "" {
		what += " (" + where + ")"
	}
	return oneLine(cardText(what))
}

// destinationText names where the CLI keeps a suggestion.
func destinationText(e *env, d string) string {
	k, ok := map[string]msgKey{"session": mCardDestSession, "localSettings": mCardDestLocal, "projectSettings": mCardDestProject,
		"userSettings": mCardDestUser, "cliArg": mCardDestCLI}[d]
	if !ok {
		return d
	}
	return e.tr.t(k)
}

// cardTitle is the border's text: the seat in its colour, the tool, its
// MCP server, the subagent and the topic when not the open one, then which
// card of how many, in w cells. What the request does not carry gives way
// first (issue 35: at 80 columns a card from another topic lost its
// topic, and the cut made y open it to read): the "Permission" label, then
// the topic's name, cut but still there; only then the rest, from its end.
// hidden reports that what the request carries — the tool, its server, the
// subagent — did not show whole: y then opens it to read first.
func cardTitle(e *env, card PermissionCard, info cardInfo, n, shown, w int) (title string, hidden bool) {
	th, tr := e.th, e.tr
	sep := th.dim.Render(" · ")
	label := th.accentS.Bold(true).Render(tr.t(mCardTitle)) + sep
	core := th.hueStyle(info.hue).Bold(true).Render(oneLine(info.name)) + sep + th.title.Render(oneLine(cardText(card.Tool)))
	if card.MCPServer != "" {
		core += sep + th.dim.Render(tr.t(mCardMCP, oneLine(cardText(card.MCPServer))))
	}
	if card.Agent != "" {
		core += sep + th.dim.Render(tr.t(mCardAgent, oneLine(cardText(card.Agent))))
	}
	count := ""
	if n > 1 {
		count = sep + th.accentS.Render(fmt.Sprintf("%d/%d", shown+1, n))
	}
	topic := ""
	if info.topic != "" {
		topic = tr.t(mCardTopic, oneLine(info.topic))
	}
	with := func(core, topic string) string {
		if topic != "" {
			core += sep + th.dim.Render(topic)
		}
		return core + count
	}
	for _, s := range []string{label + with(core, topic), with(core, topic)} {
		if ansi.StringWidth(s) <= w {
			return s, false
		}
	}
	if topic == "" {
		return ansi.Truncate(label+with(core, ""), w, "…"), ansi.StringWidth(label+core) > w-1
	}
	least := min(ansi.StringWidth(topic), ansi.StringWidth(tr.t(mCardTopic, ""))+cardTopicMin)
	room := w - ansi.StringWidth(with(core, "")) - 3
	if room >= least {
		return with(core, cut(topic, room)), false
	}
	// Not even the tool fits beside the topic: the tool is read in the
	// card (y opens it), the topic is said nowhere else.
	room = least
	core = ansi.Truncate(core, max(w-room-3-ansi.StringWidth(count), 1), "…")
	return ansi.Truncate(with(core, cut(topic, room)), w, "…"), true
}

// cardTopicMin is the fewest cells of the topic's name a card's title
// keeps before it cuts the tool.
const cardTopicMin = 8

// keysRows are the card's last rows (at most cardMaxKeys): how to focus
// it, or, focused, its keys (the reason's while it is typed); "sending…"
// while an answer is on its way. Whole parts wrap; what does not fit in
// the last row drops from the end.
//
// readDone is whether the text being read was read to its end (the keys
// that allow show only then).
func (c *permCards) keysRows(e *env, card PermissionCard, w int, focused bool, info cardInfo, readDone bool) []string {
	th, tr, km := e.th, e.tr, e.keys
	if c.sending == card.ID {
		return []string{th.dim.Render(cut(tr.t(mCardSending), w))}
	}
	var parts []keyHint
	switch {
	case !focused:
		parts = append(parts, keyHint{firstKey(km.Permission), tr.t(mCardFocus)})
		if n := len(c.queue); n > 1 {
			parts = append(parts, keyHint{"", tr.t(mCardWaiting, n)})
		}
	case c.typing:
		parts = append(parts, keyHint{firstKey(km.PermissionSend), tr.t(mCardSendReason)}, keyHint{firstKey(km.Cancel), tr.t(mCardBack)})
	default:
		reading := c.reading(card)
		if reading && !readDone {
			parts = append(parts, keyHint{firstKey(km.ScrollDown), tr.t(mCardReadOn)})
		}
		if !reading || readDone && !card.SummaryCut {
			parts = append(parts, keyHint{firstKey(km.PermissionAllow), tr.t(mCardAllow)})
		}
		// "a" is listed whenever the CLI suggested rules: pressed before
		// they all showed, it opens them to read first (readFirst) and
		// applies nothing (issue 35: at 80×24 the key was not listed).
		if len(card.Suggestions) > 0 && (!reading || readDone && !card.SummaryCut && !card.SuggestionsCut) {
			parts = append(parts, keyHint{firstKey(km.PermissionAlways), tr.t(mCardAllowAlways)})
		}
		parts = append(parts, keyHint{firstKey(km.PermissionDeny), tr.t(mCardDeny)}, keyHint{firstKey(km.PermissionReason), tr.t(mCardDenyReason)},
			keyHint{firstKey(km.PermissionPane), tr.t(mCardPane, oneLine(info.name))})
		if len(c.queue) > 1 {
			parts = append(parts, keyHint{hintKey(firstKey(km.PermissionPrev)) + hintKey(firstKey(km.PermissionNext)), tr.t(mCardOther)})
		}
		parts = append(parts, keyHint{firstKey(km.Cancel), tr.t(mCardBack)})
	}
	sep := th.dim.Render(" · ")
	var rows []string
	row, rowW := "", 0
	for _, p := range parts {
		s := th.dim.Render(p.text)
		if p.key != "" {
			s = th.accentS.Render(hintKey(p.key)) + " " + s
		}
		sw := ansi.StringWidth(s)
		switch {
		case row == "":
			row, rowW = s, sw
		case rowW+3+sw <= w:
			row, rowW = row+sep+s, rowW+3+sw
		case len(rows)+1 < cardMaxKeys:
			rows = append(rows, row)
			row, rowW = s, sw
		}
	}
	rows = append(rows, row)
	for i, r := range rows {
		if ansi.StringWidth(r) > w {
			rows[i] = ansi.Truncate(r, w, "…")
		}
	}
	return rows
}

// keyHint is one "key text" part of a keys row.
type keyHint struct{ key, text string }

// cardRowsFor is how many rows the layout gives a card that would like
// want, in a centre column of centreH rows: at most half of it, at least
// cardMinH when that fits.
func cardRowsFor(want, centreH int) int {
	if want <= 0 || centreH <= 0 {
		return 0
	}
	return min(want, max(centreH/2, min(cardMinH, centreH)))
}
