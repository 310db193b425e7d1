package tui

import (
	"fmt"
	"maps"
	"sort"
	"strings"
	"time"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// topicList is the left column (spec «トピックの一覧»): indexed topics,
// newest activity first; a "+ New topic" row stands for the open topic while
// it is not indexed yet, with ● after it while a seat starts or runs there
// (until the start indexes it, #141). Markers: ‖ braked (AI posts are not
// typed into its seats), ● a seat runs there, • unread posts; after the
// name, how many posts are unread, "@" first when one of them addresses
// the human; then its date (shortDate).
type topicList struct {
	items     []TopicInfo     // indexed topics, newest activity first
	unread    map[string]bool // topics with posts not seen yet, by id
	unreadN   map[string]int  // how many posts each unread topic got
	addressed map[string]bool // unread topics where a post addresses the human
	braked    map[string]bool // topics whose brake is on, by id (indexed or not)
	needs     map[string]bool // topics holding an item that needs the human (attention.go)
	open      string          // the open topic's id: results for others are dropped
	err       error           // the last Topics() failure, shown under the list
	started   bool            // the first Topics() answer arrived
	pos       map[string]int  // index in items by id
	sel       int             // cursor row among rows() when focused
	focused   bool
	newBusy   bool // a seat starts or runs in the open topic, not indexed yet

	renaming bool            // the rename prompt replaces the open topic's row
	rename   textinput.Model // the prompt: its value and caret
	// renameStart is the prompt's first rune shown (fieldWindow);
	// caretX, caretY are its caret's cell in view (caretOK: it shows).
	renameStart    int
	caretX, caretY int
	caretOK        bool

	reloads   coalesced // Topics() reads
	remembers coalesced // RememberTopic writes
	reopening bool      // Options.Reopen: the first list picks the topic

	w, h     int
	version  int             // bumped when items, markers or the prompt change
	view     []string        // h rendered lines of w cells
	rowID    []string        // topic id per view row ("" header, newRowID for + New)
	rendered topicsRenderKey // what view was rendered from
}

// topicsRenderKey is everything the list's view depends on.
type topicsRenderKey struct {
	w, h, gen int
	focused   bool
	sel       int
	open      string
	renaming  bool
	version   int
}

func (tl *topicList) renderKey(e *env) topicsRenderKey {
	return topicsRenderKey{tl.w, tl.h, e.gen, tl.focused, tl.sel, tl.open, tl.renaming, tl.version}
}

// changed marks the items, markers or prompt as moved, so the view redraws.
func (tl *topicList) changed() { tl.version++ }

// brakeMark marks a braked topic in the list and on the status line: a
// pause sign of one cell, like ● and • (⏸ is a two-cell emoji in many
// terminals).
const brakeMark = "‖"

// newRowID marks the "+ New topic" row in rowID.
const newRowID = "\x00new"

func newTopicList(e *env) *topicList {
	ti := *newField(e, "")
	ti.CharLimit = 200
	ti.SetVirtualCursor(false) // the real cursor sits at its caret (IME)
	return &topicList{unread: map[string]bool{}, unreadN: map[string]int{}, addressed: map[string]bool{}, braked: map[string]bool{}, rename: ti}
}

// setTopics replaces the list, newest activity first (ties by name, id).
func (tl *topicList) setTopics(ts []TopicInfo) {
	cur := tl.cursorID()
	tl.items = append(tl.items[:0], ts...)
	sortTopics(tl.items)
	tl.pos = make(map[string]int, len(tl.items))
	tl.reindex(0, len(tl.items))
	for _, t := range ts {
		tl.setBraked(t.ID, t.Braked)
	}
	tl.started = true
	tl.err = nil
	tl.selectID(cur)
	tl.changed()
}

// shortDateW is as wide as a date of this year in either language
// ("12月31日", "Sep 28", "Today"): a row's date is measured once, not per
// clock tick. A date of an earlier year is wider (shortDate says only the
// year when a name would be cut short).
const shortDateW = 7

// setError keeps the reason Topics() failed; the list shows it.
func (tl *topicList) setError(err error) {
	tl.err = err
	tl.changed()
}

// markUnread counts a post a topic got while another was open; addressed
// when it is to the human.
func (tl *topicList) markUnread(id string, addressed bool) {
	tl.unread[id] = true
	tl.unreadN[id]++
	if addressed {
		tl.addressed[id] = true
	}
	tl.changed()
}

// markRead forgets a topic's unread posts.
func (tl *topicList) markRead(id string) {
	delete(tl.unread, id)
	delete(tl.unreadN, id)
	delete(tl.addressed, id)
}

// remove drops topic id's row at once (deleted: the reload follows).
func (tl *topicList) remove(id string) {
	if i := tl.find(id); i >= 0 {
		cur := tl.cursorID()
		tl.items = append(tl.items[:i], tl.items[i+1:]...)
		delete(tl.pos, id)
		tl.reindex(i, len(tl.items))
		tl.selectID(cur)
	}
	tl.markRead(id)
	tl.changed()
}

// setBraked records whether topic id's brake is on.
func (tl *topicList) setBraked(id string, on bool) {
	if tl.braked[id] == on {
		return
	}
	if on {
		tl.braked[id] = true
	} else {
		delete(tl.braked, id)
	}
	tl.changed()
}

// setNeeds marks the topics holding an item that needs the human.
func (tl *topicList) setNeeds(ids map[string]bool) {
	if maps.Equal(tl.needs, ids) {
		return
	}
	tl.needs = ids
	tl.changed()
}

// openTopic makes id the open topic: read, and no longer being renamed.
func (tl *topicList) openTopic(id string) {
	tl.open = id
	tl.markRead(id)
	tl.renaming = false
	tl.changed()
}

func sortTopics(ts []TopicInfo) {
	sort.SliceStable(ts, func(i, j int) bool { return topicBefore(ts[i], ts[j]) })
}

// topicBefore is the list's order: newest activity first, then name, id.
func topicBefore(a, b TopicInfo) bool {
	if !a.LastActivity.Equal(b.LastActivity) {
		return a.LastActivity.After(b.LastActivity)
	}
	if a.Name != b.Name {
		return a.Name < b.Name
	}
	return a.ID < b.ID
}

// find returns the index of topic id, or -1: O(1), every key and post asks
// (a scan of 200 000 topics per call made the list slow, issue 14).
func (tl *topicList) find(id string) int {
	if i, ok := tl.pos[id]; ok {
		return i
	}
	return -1
}

// reindex records the index of items[from:to] in pos.
func (tl *topicList) reindex(from, to int) {
	if tl.pos == nil {
		tl.pos = map[string]int{}
	}
	for i := from; i < to; i++ {
		tl.pos[tl.items[i].ID] = i
	}
}

// indexed reports whether id is in the index (a row of its own).
func (tl *topicList) indexed(id string) bool { return tl.find(id) >= 0 }

// named reports whether id is in the index with a name. A topic a seat
// start indexed before any post has none until its first post names it.
func (tl *topicList) named(id string) bool {
	i := tl.find(id)
	return i >= 0 && tl.items[i].Name != ""
}

// touch records activity in a topic (a post arrived) and keeps the order.
// It reports false when the topic is not listed yet (caller reloads).
func (tl *topicList) touch(id string, at time.Time) bool {
	i := tl.find(id)
	if i < 0 {
		return false
	}
	if at.After(tl.items[i].LastActivity) {
		cur := tl.cursorID()
		t := tl.items[i]
		t.LastActivity = at
		// Newer than before: it only moves up, past the rows it now beats
		// (no re-sort of the whole list per post).
		j := sort.Search(i, func(k int) bool { return topicBefore(t, tl.items[k]) })
		copy(tl.items[j+1:i+1], tl.items[j:i])
		tl.items[j] = t
		tl.reindex(j, i+1)
		tl.selectID(cur)
	}
	tl.changed()
	return true
}

func (tl *topicList) setRunning(id string, running bool) {
	if i := tl.find(id); i >= 0 && tl.items[i].Running != running {
		tl.items[i].Running = running
		tl.changed()
	}
}

// rows counts the selectable rows: "+ New topic" first, then the topics.
func (tl *topicList) rows() int { return len(tl.items) + 1 }

// rowAt is row ri's id: newRowID for the first, then the topics' ids.
func (tl *topicList) rowAt(ri int) string {
	if ri == 0 {
		return newRowID
	}
	return tl.items[ri-1].ID
}

func (tl *topicList) cursorID() string {
	if tl.sel >= 0 && tl.sel < tl.rows() {
		return tl.rowAt(tl.sel)
	}
	return ""
}

func (tl *topicList) selectID(id string) {
	if id == newRowID {
		tl.sel = 0
		return
	}
	if i := tl.find(id); i >= 0 {
		tl.sel = i + 1
		return
	}
	tl.sel = clampInt(tl.sel, 0, len(tl.items))
}

// setSize changes the list's rectangle.
func (tl *topicList) setSize(w, h int) { tl.w, tl.h = w, h }

func (tl *topicList) move(delta int) {
	tl.sel = clampInt(tl.sel+delta, 0, len(tl.items))
}

// startRename opens the inline name prompt filled with name (sanitized
// as the row showed it: the prompt draws and saves what the human sees).
func (tl *topicList) startRename(name string) {
	tl.renaming = true
	tl.rename.SetValue(strings.TrimSpace(sanitize(strings.ReplaceAll(name, "\n", " "))))
	tl.rename.CursorEnd()
	tl.renameStart = 0
	tl.rename.Focus()
	tl.changed()
}

// endRename closes the prompt (its value stays readable).
func (tl *topicList) endRename() {
	tl.renaming = false
	tl.rename.Blur()
	tl.changed()
}

// updateRename hands a key or paste to the prompt.
func (tl *topicList) updateRename(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	tl.rename, cmd = tl.rename.Update(msg)
	tl.changed()
	return cmd
}

// neighbour returns the topic after (delta=1) or before (-1) the open one
// in list order; from an unindexed topic, "next" is the newest topic.
func (tl *topicList) neighbour(delta int) (string, bool) {
	if len(tl.items) == 0 {
		return "", false
	}
	if tl.find(tl.open) < 0 {
		if delta > 0 {
			return tl.items[0].ID, true
		}
		return "", false
	}
	return tl.neighbourOf(tl.open, delta)
}

// neighbourOf returns the listed topic after (delta=1) or before (-1) id.
func (tl *topicList) neighbourOf(id string, delta int) (string, bool) {
	i := tl.find(id)
	if i < 0 {
		return "", false
	}
	j := i + delta
	if j < 0 || j >= len(tl.items) {
		return "", false
	}
	return tl.items[j].ID, true
}

// displayName is a topic's name, "Untitled" for an empty one (spec: an
// empty title is said, never left blank).
func displayName(e *env, t TopicInfo) string {
	if strings.TrimSpace(t.Name) == "" {
		return e.tr.t(mTopicUntitled)
	}
	return sanitize(strings.ReplaceAll(t.Name, "\n", " "))
}

func (tl *topicList) nameOf(e *env, id string) string {
	if i := tl.find(id); i >= 0 {
		return displayName(e, tl.items[i])
	}
	return e.tr.t(mNewTopicTitle)
}

// shortDate is a topic's date as the spec says it (spec «トピックの一覧»
// #225): "Today", "Sep 28" this year, "Sep 28, 2025" before — 今日,
// 9月28日, 2025年9月28日 — as the chat's day rules say it (dayLabel). room
// is how many cells the date may take and leave the name topicNameMin: a
// date of an earlier year that does not fit says only its year ("2025",
// 2025年).
func shortDate(e *env, t time.Time, room int) string {
	if t.IsZero() {
		return ""
	}
	t = t.In(e.loc)
	label := dayLabel(e, t)
	if ansi.StringWidth(label) <= room || t.Year() == e.now().In(e.loc).Year() {
		return label
	}
	if e.tr.lang == LangJapanese {
		return t.Format("2006年")
	}
	return t.Format("2006")
}

// topicNameMin is how many cells of a name a row keeps before its date
// shortens to the year.
const topicNameMin = 6

// render rebuilds the cached list (h lines of w cells) when its key moved: the
// title, the rows from the first that keeps the cursor visible, then "no
// topics" or the load error.
func (tl *topicList) render(e *env) {
	k := tl.renderKey(e)
	if k == tl.rendered && len(tl.view) == tl.h {
		return
	}
	tl.rendered = k
	w, h := tl.w, tl.h
	if w <= 0 || h <= 0 {
		tl.view, tl.rowID = nil, nil
		return
	}
	var out taggedLines[string]
	out.add(" "+e.th.title.Render(e.tr.t(mTopicsTitle)), "")
	for ri := tl.firstRow(h); ri < tl.rows() && len(out.lines) < h; ri++ {
		out.add(tl.rowLine(e, tl.rowAt(ri), ri), tl.rowAt(ri))
	}
	tl.renderFooter(e, &out)
	tl.view, tl.rowID = out.fill(w, h, "")
	tl.placeCaret()
}

// placeCaret finds the rename prompt's row in the view: the open topic's,
// or "+ New topic" standing for the open topic before it is indexed.
func (tl *topicList) placeCaret() {
	tl.caretOK = false
	if !tl.renaming {
		return
	}
	row := tl.open
	if !tl.indexed(tl.open) {
		row = newRowID
	}
	for y, id := range tl.rowID {
		if id == row {
			tl.caretY, tl.caretOK = y, true
		}
	}
}

// renameView is the prompt in w cells around its caret; it notes the
// caret's cell (x0: where the prompt starts in the row).
func (tl *topicList) renameView(x0, w int) string {
	text, cx, start := fieldWindow(tl.rename.Value(), tl.rename.Position(), w, tl.renameStart)
	tl.renameStart, tl.caretX = start, x0+cx
	return text
}

// firstRow is the first row shown: the list scrolls by whole rows to keep
// the cursor visible below the title (and the error, when there is one).
func (tl *topicList) firstRow(h int) int {
	avail := h - 1
	if tl.err != nil {
		avail--
	}
	if tl.sel >= avail {
		return tl.sel - avail + 1
	}
	return 0
}

// rowLine draws row ri (topic id): a gutter (› at the cursor), then the
// "+ New topic" row or a topic's marker, name and date. The open topic is
// highlighted; the unindexed open topic is the "+ New topic" row.
func (tl *topicList) rowLine(e *env, id string, ri int) string {
	gutter := " "
	if tl.focused && tl.sel == ri {
		gutter = e.th.accentS.Render("›")
	}
	current := id == tl.open || (id == newRowID && !tl.indexed(tl.open))
	if id == newRowID {
		return gutter + tl.newRow(e, current)
	}
	return gutter + tl.topicRow(e, tl.items[ri-1], current)
}

// newRow is the "+ New topic" row, highlighted while the open topic is
// not indexed, with an accent ● after it while a seat starts or runs
// there (spec «トピックの一覧» #141: the start indexes it soon; until then
// this row is where that seat is).
func (tl *topicList) newRow(e *env, current bool) string {
	th, label := e.th, e.tr.t(mTopicNew)
	if current && tl.renaming { // naming the open topic before its first post
		return th.sel.Render(" " + fit(tl.renameView(2, max(tl.w-4, 1)), max(tl.w-2, 0)))
	}
	if !current || !tl.newBusy {
		row := fit(label, tl.w-1)
		if current {
			return th.sel.Render(row)
		}
		return th.accentS.Render(row)
	}
	w := max(tl.w-1, 0)
	label = cut(label, max(w-2, 1))
	return th.sel.Render(label+" ") + th.sel.Foreground(th.accent).Render("●") +
		th.sel.Render(strings.Repeat(" ", max(w-ansi.StringWidth(label)-2, 0)))
}

// setNewBusy marks whether a seat starts or runs in the open topic while
// it is not indexed (the "+ New topic" row's ●).
func (tl *topicList) setNewBusy(on bool) {
	if tl.newBusy != on {
		tl.newBusy = on
		tl.changed()
	}
}

// topicRow is a topic's marker (‖ braked, ! something needs the human, ●
// a seat runs, • unread), name,
// unread count ("(3)", "@(3)" when a post addresses the human) and date;
// the open topic shows the rename prompt in place while renaming. A name
// too long for the row is cut with "…".
func (tl *topicList) topicRow(e *env, t TopicInfo, current bool) string {
	th, w := e.th, tl.w
	mark := " "
	switch {
	case tl.braked[t.ID]:
		mark = th.dangerS.Render(brakeMark)
	case tl.needs[t.ID]:
		mark = th.accentS.Bold(true).Render(attnMark)
	case t.Running:
		mark = th.accentS.Render("●")
	case tl.unread[t.ID]:
		mark = th.text.Bold(true).Render("•")
	}
	badge := tl.unreadBadge(t.ID)
	room := w - 4 - topicNameMin
	if badge != "" {
		room -= ansi.StringWidth(badge) + 1
	}
	date := shortDate(e, t.LastActivity, room)
	if badge != "" {
		date = badge + " " + date
	}
	// gutter, marker, the space before the date and one cell between the
	// list and the chat
	nameW := w - 4 - ansi.StringWidth(date)
	name := cut(displayName(e, t), max(nameW, 1))
	if tl.renaming && current {
		nameW = w - 4
		name, date = tl.renameView(2, max(nameW, 1)), ""
	}
	txt := fit(name, max(nameW, 1)) + " " + date
	switch {
	case current:
		txt = th.sel.Render(fit(txt, w-3))
	case tl.unread[t.ID]:
		txt = th.text.Bold(true).Render(txt)
	default:
		txt = th.text.Render(txt)
	}
	return mark + txt
}

// unreadBadge is "(n)" for a topic's unread posts, "@(n)" when one
// addresses the human; "" when all are read.
func (tl *topicList) unreadBadge(id string) string {
	n := tl.unreadN[id]
	if n == 0 {
		return ""
	}
	b := fmt.Sprintf("(%d)", n)
	if tl.addressed[id] {
		b = addressedMark + b
	}
	return b
}

// addressedMark marks a topic with an unread post to the human.
const addressedMark = "@"

// renderFooter adds "no topics yet" once the list is known to be empty,
// or the reason it could not be read, as far as the height allows.
func (tl *topicList) renderFooter(e *env, out *taggedLines[string]) {
	if len(tl.items) == 0 && tl.started && tl.err == nil && len(out.lines) < tl.h {
		out.add("  "+e.th.dim.Render(e.tr.t(mTopicNone)), "")
	}
	if tl.err == nil {
		return
	}
	for _, l := range wrapText(e.tr.t(mTopicLoadFailed, tl.err), max(tl.w-2, 4)) {
		if len(out.lines) >= tl.h {
			break
		}
		out.add(" "+e.th.dangerS.Render(l), "")
	}
}

// idAt returns the row's topic id at view row y ("" none, newRowID for +).
func (tl *topicList) idAt(y int) string {
	if y < 0 || y >= len(tl.rowID) {
		return ""
	}
	return tl.rowID[y]
}
