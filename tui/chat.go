package tui

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/pullcept/pullcept/room"
)

// historyPage is how many posts one scroll to the top pages in (the wire's
// default history size, docs/design.md §6), and how much of a topic's tail
// opens it.
const historyPage = room.HistoryDefault

// chatKeep bounds the posts the chat holds while it follows the live end:
// beyond chatKeep+historyPage the oldest are let go and page back in when
// the reader scrolls up to them (docs/design.md §10). A long post is held
// as its first 32 KiB (logstore.BodyInline), so a topic open for days, or a
// seat posting long bodies in a loop, costs at most tens of MiB here.
const chatKeep = 1000

// chatItem is one row group of the chat: a post, or a run of MCP notices
// from one server folded into "name (N)" (docs/design.md §10).
type chatItem struct {
	posts []room.Post // one post, or the run of notices it folds
	fold  bool        // a run of notices, drawn as one "name (N)" line
	group string      // the fold's server (foldGroup), "" for a post

	lines    []string      // rendered, valid while rendered matches
	rendered itemRenderKey // what lines were rendered from
	chipAt   []lineChips   // where its attachment chips were drawn (chat_attach.go)
	postLine []int         // an open fold's line of each of its posts (renderFold)
}

// itemRenderKey is everything an item's lines depend on besides its posts
// (a fold that grows drops its lines instead).
type itemRenderKey struct {
	width    int
	selected bool
	day      string // the separator above it, "" for none
	gen      int    // env.gen: theme, language, self
	expanded bool
	chip     int  // the chosen attachment chip, -1 for none
	fresh    int  // the first unread post's index in the item (the "new" rule above it), -1 for none
	untaken  int  // chat.untakenGen: which posts the seats did not take
	foot     bool // an own post that ends its run: its time goes under it (ownRunEnds)
}

func (it *chatItem) key() string     { return it.posts[0].MessageID }
func (it *chatItem) last() room.Post { return it.posts[len(it.posts)-1] }

// chat is the room's conversation view for the open topic. It keeps the
// rendered message ids (floor dedupe, docs/design.md §2) and the newest one as
// the UI's last_seen watermark.
type chat struct {
	posts    []room.Post     // loaded posts, oldest first
	ids      map[string]bool // their message ids: a post is drawn once
	items    []*chatItem     // posts grouped as drawn
	expanded map[string]bool // fold key → expanded

	newest  string // last_seen: newest message_id rendered
	oldest  string // the oldest loaded message_id (paging cursor)
	hasMore bool   // older posts exist before oldest
	behind  int    // newer posts left in the log while the reader was up
	tail    bool   // the tail is being read again (resetToTail)
	loading bool   // a page is being read
	loaded  bool   // the first page arrived (or failed)
	unread  int    // posts unread when the topic was opened (markNew)
	newFrom string // the first of them: a "new" rule is drawn above it

	// untaken are the posts a seat of the topic did not take (SeatInfo
	// Unconfirmed), by message id: the names of those seats, drawn under
	// the post (setUntaken). untakenGen is bumped when it changes.
	untaken    map[string][]string
	untakenGen int

	scroll  int // rows scrolled up from the bottom
	sel     int // selected item (chat focus), -1 for none
	chip    int // the chosen attachment chip of the selected item
	focused bool

	w, h     int
	version  int           // bumped when posts or folds change
	view     []string      // h rendered lines of w cells
	rowItem  []int         // item index per view row, -1 for none
	rowLine  []int         // the line of that item per view row
	rendered chatRenderKey // what view was rendered from
}

// chatRenderKey is everything the chat's view depends on; render redraws
// only when it moved.
type chatRenderKey struct {
	w, h, gen                int
	focused                  bool
	sel, scroll, chip        int
	loading, loaded, hasMore bool
	version, behind          int
}

func newChat() *chat {
	return &chat{ids: map[string]bool{}, expanded: map[string]bool{}, sel: -1}
}

// changed marks the posts or folds as moved, so the view redraws.
func (c *chat) changed() { c.version++ }

func (c *chat) renderKey(e *env) chatRenderKey {
	return chatRenderKey{c.w, c.h, e.gen, c.focused, c.sel, c.scroll, c.chip, c.loading, c.loaded, c.hasMore, c.version, c.behind}
}

// legacyNoticeSpeaker is the speaker of MCP notices in logs written before
// notices had accounts (spec «#193 より前のログの行は名前で畳む»): read,
// never written.
const legacyNoticeSpeaker = "webhook"

// foldGroup is the server whose notice p is, "" when p does not fold
// (docs/design.md §10; spec «画面では畳む»): a post whose account is an mcp
// account the screen knows now (by kind, not by name: a renamed server
// folds the same, a deleted one's posts no longer fold), or one of an old
// log spoken as "webhook" with no account. The human's and Pullcept's own
// posts never fold.
func foldGroup(e *env, p room.Post) string {
	if p.FromApp || p.Role == room.RoleAdmin {
		return ""
	}
	if p.Account != "" {
		if _, ok := e.mcp[p.Account]; ok {
			return "a\x00" + p.Account
		}
		return ""
	}
	if p.Speaker == legacyNoticeSpeaker {
		return "w\x00" + legacyNoticeSpeaker
	}
	return ""
}

// foldName is a fold's heading: its mcp account's name now, or the old
// logs' speaker.
func foldName(e *env, it *chatItem) string {
	p := it.posts[0]
	if n, ok := e.mcp[p.Account]; ok && p.Account != "" {
		return n
	}
	return p.Speaker
}

// group appends p to the items: into the fold that ends them when p is a
// notice of the same server, else as an item of its own (a notice's own
// item is a fold of one). It reports whether p joined a fold.
func (c *chat) group(e *env, p room.Post) bool {
	g := foldGroup(e, p)
	if k := len(c.items); k > 0 && g != "" && c.items[k-1].group == g {
		it := c.items[k-1]
		it.posts = append(it.posts, p)
		it.lines = nil
		return true
	}
	c.items = append(c.items, &chatItem{posts: []room.Post{p}, fold: g != "", group: g})
	return false
}

// postKey is what makes a post drawn once: its id, time and account. The
// same post arriving live and in a page is one; a post that reuses an old
// id (the room remembers the ids of its last 16 384 posts, and of the log's
// newest 200 at open) is still shown, never hidden behind the old one.
func postKey(p room.Post) string { return p.MessageID + "\x00" + p.TS + "\x00" + p.Account }

// resetToTail empties the chat for the tail of the topic to be read again
// (the reader came back to the live end after newer posts were left in
// the log).
func (c *chat) resetToTail() {
	c.posts, c.items = nil, nil
	c.ids = map[string]bool{}
	c.oldest, c.hasMore, c.behind = "", false, 0
	c.sel, c.scroll = -1, 0
	c.loading, c.tail = true, true
	c.changed()
}

// add appends posts at the end (live posts, missed posts after a floor
// rejection), skipping ids already rendered. It returns how many were new.
func (c *chat) add(e *env, posts ...room.Post) int {
	n := 0
	for _, p := range posts {
		if p.MessageID == "" || c.ids[postKey(p)] {
			continue
		}
		if c.behind > 0 || c.scroll > 0 && len(c.posts) >= chatKeep+historyPage {
			// The reader is up among older posts and the chat is full:
			// newer posts stay in the log (no hole, no growth, no slower
			// redraws) and come back with the tail at the live end.
			c.behind++
			continue
		}
		c.ids[postKey(p)] = true
		c.posts = append(c.posts, p)
		if c.oldest == "" {
			c.oldest = p.MessageID
		}
		c.newest = p.MessageID
		// The last item may change as p comes: a fold p joins grows, an
		// own post p follows loses its time (ownRunEnds).
		prev, before := len(c.items)-1, 0
		if prev >= 0 {
			before = len(c.itemLines(e, prev))
		}
		added := -before
		if !c.group(e, p) && prev >= 0 {
			added += len(c.itemLines(e, prev))
		}
		added += len(c.itemLines(e, len(c.items)-1))
		if c.scroll > 0 {
			// Keep the reader's place while they read older posts.
			c.scroll += added
		}
		n++
	}
	if n > 0 {
		c.changed()
		c.trim(e)
	}
	return n
}

// trim lets the oldest posts go while the reader follows the live end and
// more than chatKeep+historyPage are held; they page back in from the log.
// The selected item stays selected when it is kept.
func (c *chat) trim(e *env) {
	if c.scroll > 0 || len(c.posts) <= chatKeep+historyPage {
		return
	}
	selKey := ""
	if c.sel >= 0 && c.sel < len(c.items) {
		selKey = c.items[c.sel].key()
	}
	drop := len(c.posts) - chatKeep
	for _, p := range c.posts[:drop] {
		delete(c.ids, postKey(p))
	}
	c.posts = slices.Clone(c.posts[drop:])
	c.oldest, c.hasMore = c.posts[0].MessageID, true
	c.rebuild(e)
	if c.sel >= 0 {
		c.sel = slices.IndexFunc(c.items, func(it *chatItem) bool { return it.key() == selKey })
	}
}

// prepend inserts an older page (oldest first) before what is loaded.
func (c *chat) prepend(e *env, posts []room.Post, hasMore bool) {
	var fresh []room.Post
	for _, p := range posts {
		if p.MessageID == "" || c.ids[postKey(p)] {
			continue
		}
		c.ids[postKey(p)] = true
		fresh = append(fresh, p)
	}
	c.hasMore = hasMore
	c.loading = false
	c.loaded = true
	if len(fresh) == 0 {
		c.changed()
		return
	}
	c.posts = append(fresh, c.posts...)
	c.oldest = c.posts[0].MessageID
	if c.newest == "" {
		c.newest = c.posts[len(c.posts)-1].MessageID
	}
	c.rebuild(e)
}

// rebuild regroups all posts into items (render caches start empty).
func (c *chat) rebuild(e *env) {
	c.items = c.items[:0]
	for _, p := range c.posts {
		c.group(e, p)
	}
	if c.sel >= len(c.items) {
		c.sel = len(c.items) - 1
	}
	c.changed()
}

// regroup folds the posts again after the mcp accounts changed (one
// added, renamed or deleted): the selected post stays selected.
func (c *chat) regroup(e *env) {
	var selKey string
	if c.sel >= 0 && c.sel < len(c.items) {
		selKey = c.items[c.sel].key()
	}
	c.rebuild(e)
	if selKey != "" {
		c.sel = slices.IndexFunc(c.items, func(it *chatItem) bool { return holds(it.posts, selKey) })
	}
}

// postTime parses a post's RFC 3339 time; ok is false when it does not parse.
func postTime(p room.Post, loc *time.Location) (time.Time, bool) {
	t, err := time.Parse(time.RFC3339Nano, p.TS)
	if err != nil {
		return time.Time{}, false
	}
	return t.In(loc), true
}

// dayLabel says a date the way the topic list does (spec «会話面の見た目»):
// "Today", "Sep 28" this year, with the year otherwise.
func dayLabel(e *env, t time.Time) string {
	now := e.now().In(e.loc)
	switch {
	case t.Year() == now.Year() && t.YearDay() == now.YearDay():
		return e.tr.t(mTopicToday)
	case e.tr.lang == LangJapanese && t.Year() == now.Year():
		return t.Format("1月2日")
	case e.tr.lang == LangJapanese:
		return t.Format("2006年1月2日")
	case t.Year() == now.Year():
		return t.Format("Jan 2")
	}
	return t.Format("Jan 2, 2006")
}

// itemDay returns the day separator label to draw above item i ("" none).
func (c *chat) itemDay(e *env, i int) string {
	t, ok := postTime(c.items[i].posts[0], e.loc)
	if !ok {
		return ""
	}
	if i > 0 {
		if pt, ok := postTime(c.items[i-1].last(), e.loc); ok && pt.YearDay() == t.YearDay() && pt.Year() == t.Year() {
			return ""
		}
	}
	return dayLabel(e, t)
}

// itemLines renders item i at the chat's width, from cache when valid.
func (c *chat) itemLines(e *env, i int) []string {
	it := c.items[i]
	sel := c.focused && c.sel == i
	day := c.itemDay(e, i)
	exp := c.expanded[it.key()]
	chosen := -1
	if sel {
		chosen = c.chip
	}
	fresh := -1
	if c.newFrom != "" {
		fresh = slices.IndexFunc(it.posts, func(p room.Post) bool { return p.MessageID == c.newFrom })
	}
	foot := c.ownRunEnds(e, i)
	k := itemRenderKey{width: c.w, selected: sel, day: day, gen: e.gen, expanded: exp, chip: chosen, fresh: fresh, untaken: c.untakenGen, foot: foot}
	if it.lines != nil && k == it.rendered {
		return it.lines
	}
	it.rendered = k
	it.lines = renderItem(e, it, c.w, sel, day, exp, chosen, fresh, c.untaken, foot)
	return it.lines
}

// own reports whether an item is one of the screen's own posts: by
// origin, the admin role only the UI's entry posts with (renderItem).
func (it *chatItem) own() bool { return !it.fold && it.posts[0].Role == room.RoleAdmin }

// ownRunEnds reports whether item i is an own post that ends a run of
// them (spec «画面の人の発言は右に寄せる» #225): own posts with nothing
// between them are one block with the time under the last; the next
// item another's post, a day rule or the "new" rule above it ends the
// run. Decided by what is drawn only: nothing is kept on the posts.
func (c *chat) ownRunEnds(e *env, i int) bool {
	if !c.items[i].own() {
		return false
	}
	if i+1 >= len(c.items) {
		return true
	}
	next := c.items[i+1]
	return !next.own() || c.itemDay(e, i+1) != "" || c.newFrom != "" && next.posts[0].MessageID == c.newFrom
}

// setUntaken replaces the posts the topic's seats did not take (message id
// → the seats' names); the items redraw only when it changed.
func (c *chat) setUntaken(untaken map[string][]string) {
	if maps.EqualFunc(untaken, c.untaken, slices.Equal) {
		return
	}
	c.untaken = untaken
	c.untakenGen++
	c.changed()
}

// untakenLine is the warning under a post the seats named did not take,
// wrapped to w cells (docs/design.md §5: the CLI never confirmed it).
func untakenLine(e *env, names []string, w int) []string {
	k := mChatUntaken
	if len(names) > 1 {
		k = mChatUntakenMany
	}
	return untakenLineKey(e, k, names, w)
}

// untakenLineKey is text k naming the seats names, wrapped to w cells (at
// most 3 rows: a long list of names is cut).
func untakenLineKey(e *env, k msgKey, names []string, w int) []string {
	if len(names) == 0 {
		return nil
	}
	clean := make([]string, len(names))
	for i, n := range names {
		clean[i] = oneLine(n)
	}
	// The names are cut, never the sentence (breaker review: 64-cell
	// names left only "⚠" and names in three rows).
	who := strings.Join(clean, ", ")
	if lim := max(w/2, 10); ansi.StringWidth(who) > lim {
		who = cut(who, lim)
	}
	rows := wrapText(e.tr.t(k, who), max(w, 1))
	if len(rows) > 3 {
		rows = rows[:3]
		rows[2] = cut(rows[2]+" …", w)
	}
	for i, r := range rows {
		rows[i] = e.th.accentS.Render(cut(r, w))
	}
	return rows
}

// foldUntaken are the seats that did not take a notice of the fold, each
// once, sorted.
func foldUntaken(it *chatItem, untaken map[string][]string) []string {
	if len(untaken) == 0 {
		return nil
	}
	var out []string
	for _, q := range it.posts {
		for _, n := range untaken[q.MessageID] {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	slices.Sort(out)
	return out
}

// body is the text of the loaded post with message id id, newest first.
func (c *chat) body(id string) (string, bool) {
	if id == "" {
		return "", false
	}
	for i := len(c.posts) - 1; i >= 0; i-- {
		if c.posts[i].MessageID == id {
			return c.posts[i].Content, true
		}
	}
	return "", false
}

// markNew finds, once the opened topic's first page arrived, the first of
// the posts that were unread when it was opened (the topic list's count):
// the chat draws a "new" rule above it until another topic opens.
func (c *chat) markNew() {
	n := c.unread
	c.unread = 0
	if n <= 0 || n > len(c.posts) {
		return
	}
	c.newFrom = c.posts[len(c.posts)-n].MessageID
	c.changed()
}

// newSeparator is the accent rule above the first unread post.
func newSeparator(e *env, w int) string {
	label := " " + e.tr.t(mChatNewPosts) + " "
	side := max(0, (w-ansi.StringWidth(label))/2)
	return e.th.accentS.Render(strings.Repeat("─", side) + label + strings.Repeat("─", max(0, w-side-ansi.StringWidth(label))))
}

func hhmm(e *env, p room.Post) string {
	if t, ok := postTime(p, e.loc); ok {
		return t.Format("15:04")
	}
	return ""
}

// renderItem draws one item: the day separator when the day changes, the
// "new" rule above the first unread post (fresh: its index in the item, -1
// for none; inside an open fold it goes above that notice), a gutter
// column (› when selected), then the header and the wrapped body.
// The screen's own posts sit on the right without a name (spec «画面の人の
// 発言は右に寄せる»); notices stay left.
func renderItem(e *env, it *chatItem, w int, sel bool, day string, expanded bool, chosen int, fresh int, untaken map[string][]string, foot bool) []string {
	var out []string
	if day != "" {
		out = append(out, daySeparator(e, day, w))
	}
	if fresh == 0 || fresh > 0 && !(it.fold && expanded) {
		out = append(out, newSeparator(e, w))
	}
	it.chipAt = nil
	gutter := " "
	if sel {
		gutter = e.th.accentS.Render("›")
	}
	inner := max(w-1, 1)
	p := it.posts[0]
	switch {
	case it.fold:
		return renderFold(e, it, out, gutter, w, expanded, fresh, untaken)
	case p.Role == room.RoleAdmin:
		// Own by origin: only the UI's entry posts as the admin (the room
		// never gives a socket that role). A seat named like the human is
		// drawn as a seat.
		out = it.withChips(out, renderOwn(e, p, gutter, inner, chosen))
		if foot {
			out = append(out, " "+fitRight(e.th.dim.Render(hhmm(e, p)), inner))
		}
		for _, row := range untakenLine(e, untaken[p.MessageID], inner-1) {
			out = append(out, gutter+fitRight(row, inner))
		}
		return out
	}
	out = it.withChips(out, renderPost(e, p, gutter, inner, chosen))
	for _, row := range untakenLine(e, untaken[p.MessageID], max(inner-2, 1)) {
		out = append(out, "   "+row)
	}
	return out
}

// daySeparator is a dim rule across w cells with the day in its middle.
func daySeparator(e *env, day string, w int) string {
	label := " " + day + " "
	side := max(0, (w-ansi.StringWidth(label))/2)
	return e.th.dim.Render(strings.Repeat("─", side) + label + strings.Repeat("─", max(0, w-side-ansi.StringWidth(label))))
}

// speakerStyle is p's speaker colour (docs/design.md §10, spec «参加者ごとの色»,
// «画面の人の色は描いた行にもその場で届く»): its account's colour now when the
// account is configured (the same as the participant panel's, whatever
// name or hue the post was said under), the screen's own colour for the
// admin's posts, else the hue ladder on the post itself.
func speakerStyle(e *env, p room.Post) lipgloss.Style {
	return e.th.hueStyle(postHue(e, p))
}

// postHue is the hue speakerStyle draws p in.
func postHue(e *env, p room.Post) int {
	if h, ok := e.hues[p.Account]; ok && p.Account != "" && !p.FromApp {
		return h
	}
	if p.Role == room.RoleAdmin {
		if e.selfHue != nil {
			return *e.selfHue
		}
		return accentHue
	}
	return speakerHue(p.Hue, p.Speaker, "", nil)
}

// renderFold is a run of one server's notices after out (the separators
// above it): "▸ name (N)  time" in the server's colour, its account's name
// now; open, "▾ name (N)" and every notice under it as a normal row,
// indented, with the "new" rule above the first unread one (fresh > 0).
// Chips in a notice are drawn but open nothing (only a post's do).
func renderFold(e *env, it *chatItem, out []string, gutter string, w int, expanded bool, fresh int, untaken map[string][]string) []string {
	th := e.th
	mark := "▸ "
	if expanded {
		mark = "▾ "
	}
	head := th.dim.Render(mark) + postMark(e, it.posts[0]) + speakerStyle(e, it.posts[0]).Bold(true).Render(sanitize(foldName(e, it))) +
		th.dim.Render(" ("+strconv.Itoa(len(it.posts))+")  "+hhmm(e, it.last()))
	out = append(out, gutter+head)
	it.postLine = nil
	if !expanded {
		if names := foldUntaken(it, untaken); len(names) > 0 {
			for _, row := range untakenLineKey(e, mChatUntakenFold, names, max(w-3, 1)) {
				out = append(out, gutter+"  "+row)
			}
		}
		return out
	}
	const indent = "  "
	inner := max(w-1-len(indent), 8)
	for i, q := range it.posts {
		if i == fresh && i > 0 {
			out = append(out, newSeparator(e, w))
		}
		it.postLine = append(it.postLine, len(out))
		d := renderPost(e, q, " ", inner, -1)
		for _, l := range d.lines {
			out = append(out, indent+l)
		}
		for _, row := range d.chips {
			out = append(out, indent+strings.Repeat(" ", d.left)+row)
		}
		for _, row := range untakenLine(e, untaken[q.MessageID], max(inner-2, 1)) {
			out = append(out, indent+"   "+row)
		}
	}
	return out
}

// addressees is "→ a, b" for a post's To, "" for none.
func addressees(p room.Post) string {
	if len(p.To) == 0 {
		return ""
	}
	names := make([]string, len(p.To))
	for i, n := range p.To {
		names[i] = sanitize(n)
	}
	return "→ " + strings.Join(names, ", ")
}

// renderOwn is the screen's own post (spec «画面の人の発言は右に寄せる»
// #225): its addressees right-aligned at its head when it has some, then
// the body pushed to the right edge in the speaker's colour; the gutter
// (› when selected) on its first line. Its time goes under it, and only
// under the last of a run of own posts (renderItem's foot).
func renderOwn(e *env, p room.Post, gutter string, inner, chosen int) drawnPost {
	var out []string
	if to := addressees(p); to != "" {
		out = append(out, gutter+fitRight(e.th.dim.Render(to), inner))
		gutter = " "
	}
	text, files := postAttachments(e, p)
	var body []string
	if text != "" || len(files) == 0 {
		body = wrapText(sanitize(text), max(inner-4, 8))
	}
	note := clipLines(e, p, max(inner-4, 8))
	chipRows, hits := chatChips(e, files, max(inner-4, 8), chosen)
	bw := 0
	for _, l := range slices.Concat(body, note, chipRows) {
		bw = max(bw, ansi.StringWidth(l))
	}
	st := speakerStyle(e, p)
	left := 1 + max(0, inner-bw)
	pad := gutter + strings.Repeat(" ", left-1) // the first line carries the gutter
	for _, l := range body {
		out = append(out, pad+st.Render(l))
		pad = strings.Repeat(" ", left)
	}
	for _, l := range note { // one block with the body: same left edge
		out = append(out, pad+l)
		pad = strings.Repeat(" ", left)
	}
	return drawnPost{lines: out, chips: chipRows, chipHits: hits, left: left}
}

// clipLines is the dim note under a long post's clipped body: how long the
// whole post is and the file that holds it (docs/design.md §8 "Long
// posts"); nil for a whole post.
func clipLines(e *env, p room.Post, w int) []string {
	if p.Size <= len(p.Content) {
		return nil
	}
	where := p.BodyFile
	if where == "" {
		where = e.tr.t(mChatClippedLog)
	}
	note := e.tr.t(mChatClipped, byteSize(p.Size), sanitize(where))
	lines := wrapText(note, w)
	for i, l := range lines {
		lines[i] = e.th.dim.Render(l)
	}
	return lines
}

// byteSize is n bytes as a person reads it: "980 B", "32 KiB", "1.0 MiB".
func byteSize(n int) string {
	switch {
	case n < 1<<10:
		return strconv.Itoa(n) + " B"
	case n < 1<<20:
		return strconv.Itoa(n>>10) + " KiB"
	default:
		return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
	}
}

// renderPost is anyone else's post: its mark (avatars.go) and the speaker
// in bold (dim for the app's own notes), an mcp notice's signature,
// addressees and time, then the body indented.
func renderPost(e *env, p room.Post, gutter string, inner, chosen int) drawnPost {
	th := e.th
	name := sanitize(p.Speaker)
	head := postMark(e, p)
	if p.Role == room.RoleApp {
		head += th.dim.Bold(true).Render(name)
	} else {
		head += speakerStyle(e, p).Bold(true).Render(name)
	}
	if p.Role == room.RoleMCP && p.Signed != "" {
		// On the heading, which no body line reaches, in a style no body
		// text takes: the room's Post.Signed, never a "Signed:" line of
		// the server's text (issue 32, docs/design.md §6).
		head += " " + th.okS.Render(e.tr.t(mChatSigned, sanitize(p.Signed)))
	}
	if to := addressees(p); to != "" {
		head += " " + th.dim.Render(to)
	}
	head += "  " + th.dim.Render(hhmm(e, p))
	out := []string{gutter + head}
	text, files := postAttachments(e, p)
	wrap := wrapText
	if p.Role == room.RoleApp {
		wrap = wrapNotice // Pullcept's own words, Japanese among them
	}
	if text != "" || len(files) == 0 {
		for _, l := range wrap(sanitize(text), max(inner-2, 8)) {
			out = append(out, "   "+l)
		}
	}
	for _, l := range clipLines(e, p, max(inner-2, 8)) {
		out = append(out, "   "+l)
	}
	chipRows, hits := chatChips(e, files, max(inner-2, 8), chosen)
	return drawnPost{lines: out, chips: chipRows, chipHits: hits, left: 3}
}

// wrapNotice wraps a notice of Pullcept's own by paragraph with the rules
// of Japanese line breaking (wrapWords: no line starts with 、 or 」, a
// Latin word keeps its particle); a post's text keeps wrapText, which
// keeps its spaces as written (issue 35: the brake notice left "AI" alone
// on a line and began one with "、").
func wrapNotice(s string, w int) []string {
	var out []string
	for _, para := range strings.Split(s, "\n") {
		if strings.TrimSpace(para) == "" {
			out = append(out, "")
			continue
		}
		out = append(out, wrapWords(para, w)...)
	}
	return out
}

// setSize changes the chat's rectangle; caches re-render lazily.
func (c *chat) setSize(w, h int) { c.w, c.h = w, h }

// linesAbove counts rendered lines from the bottom until at least need are
// known; it reports the count and whether the first item was reached.
func (c *chat) linesUpTo(e *env, need int) (int, bool) {
	n := 0
	for i := len(c.items) - 1; i >= 0; i-- {
		n += len(c.itemLines(e, i))
		if n >= need {
			return n, i == 0
		}
	}
	if c.topLine(e) != "" {
		n++ // the "beginning" / "loading" line above the oldest post
	}
	return n, true
}

// topLine is what the chat says above its oldest loaded post.
func (c *chat) topLine(e *env) string {
	switch {
	case c.loading || !c.loaded:
		return e.tr.t(mChatLoading)
	case !c.hasMore:
		return e.tr.t(mChatBeginning)
	}
	return ""
}

// scrollBy moves the view delta rows up (positive) or down, clamped to the
// loaded posts. It reports whether the view reached the top of what is
// loaded while older posts exist (then the caller pages them in).
func (c *chat) scrollBy(e *env, delta int) bool {
	target := max(c.scroll+delta, 0)
	total, _ := c.linesUpTo(e, target+c.h)
	if maxScroll := max(total-c.h, 0); target > maxScroll {
		target = maxScroll
	}
	c.scroll = target
	return c.atTop(e) && c.hasMore && !c.loading
}

// atTop reports whether the first loaded line is on screen.
func (c *chat) atTop(e *env) bool {
	total, reachedFirst := c.linesUpTo(e, c.scroll+c.h+1)
	return reachedFirst && total <= c.scroll+c.h
}

// toBottom jumps to the newest post.
func (c *chat) toBottom() { c.scroll = 0 }

// moveSel moves the selection by delta items and scrolls it into view.
func (c *chat) moveSel(e *env, delta int) {
	if len(c.items) == 0 {
		return
	}
	if c.sel < 0 {
		c.sel = len(c.items) - 1
	} else {
		c.sel = clampInt(c.sel+delta, 0, len(c.items)-1)
	}
	c.chip = 0
	c.revealSel(e)
}

// revealSel scrolls so the selected item's header is on screen.
func (c *chat) revealSel(e *env) {
	if c.sel < 0 || c.sel >= len(c.items) {
		return
	}
	after := 0
	for i := len(c.items) - 1; i > c.sel; i-- {
		after += len(c.itemLines(e, i))
	}
	n := len(c.itemLines(e, c.sel))
	if after < c.scroll {
		c.scroll = after
	}
	if after+n > c.scroll+c.h {
		c.scroll = after + n - c.h
	}
}

// revealPost scrolls so that post id of open fold i is on screen, at the
// top row when it was not (a jump to a notice in a long fold).
func (c *chat) revealPost(e *env, i int, id string) {
	if i < 0 || i >= len(c.items) || !c.items[i].fold {
		return
	}
	it := c.items[i]
	lines := c.itemLines(e, i)
	j := slices.IndexFunc(it.posts, func(p room.Post) bool { return p.MessageID == id })
	if j < 0 || j >= len(it.postLine) {
		return
	}
	after := 0
	for k := len(c.items) - 1; k > i; k-- {
		after += len(c.itemLines(e, k))
	}
	r := after + len(lines) - 1 - it.postLine[j] // its first row, counted up from the bottom
	if r < c.scroll || r >= c.scroll+c.h {
		c.scroll = max(r-c.h+1, 0)
	}
}

// toggleFold expands or folds item i when it is a notice fold.
func (c *chat) toggleFold(i int) bool {
	if i < 0 || i >= len(c.items) || !c.items[i].fold {
		return false
	}
	k := c.items[i].key()
	c.expanded[k] = !c.expanded[k]
	c.changed()
	return true
}

// render rebuilds the cached view (h lines of w cells) when its key moved.
func (c *chat) render(e *env) {
	k := c.renderKey(e)
	if k == c.rendered && len(c.view) == c.h {
		return
	}
	c.rendered = k
	if c.w <= 0 || c.h <= 0 {
		c.view, c.rowItem = nil, nil
		return
	}
	if c.loaded && len(c.items) == 0 {
		var out taggedLines[int]
		lead, st := "  ", e.th.dim
		if c.focused {
			// The keys are here: the hint is drawn as the selection is
			// (issue 35: Tab into an empty chat showed no focus).
			lead, st = "› ", e.th.sel
		}
		for i, l := range wrapWords(e.tr.t(mChatEmpty), max(c.w-4, 8)) {
			if i > 0 {
				lead = "  "
			}
			out.add(lead+st.Render(l), -1)
		}
		c.view, c.rowItem = out.fill(c.w, c.h, -1)
		c.rowLine = nil
		return
	}
	c.view, c.rowItem, c.rowLine = c.window(e, c.linesFromBottom(e, c.scroll+c.h))
}

// lineRef is one rendered line: its item and its index in that item's
// lines (item -1: not a post's).
type lineRef struct{ item, line int }

// linesFromBottom collects rendered lines bottom-up, tagged with their
// item, until need are known; above the oldest post comes the "beginning"
// or "loading" line.
func (c *chat) linesFromBottom(e *env, need int) taggedLines[lineRef] {
	var rev taggedLines[lineRef]
	reachedFirst := len(c.items) == 0
	for i := len(c.items) - 1; i >= 0 && len(rev.lines) < need; i-- {
		lines := c.itemLines(e, i)
		for j := len(lines) - 1; j >= 0; j-- {
			rev.add(lines[j], lineRef{i, j})
		}
		if i == 0 {
			reachedFirst = true
		}
	}
	if reachedFirst && len(rev.lines) < need {
		if top := c.topLine(e); top != "" {
			rev.add("  "+e.th.dim.Render(top), lineRef{-1, -1})
		}
	}
	return rev
}

// window cuts the rows [scroll, scroll+h) out of lines collected bottom-up
// and, while scrolled up, puts the way back to the latest on the last row.
func (c *chat) window(e *env, rev taggedLines[lineRef]) (view []string, rows, lines []int) {
	view = make([]string, c.h)
	rows, lines = make([]int, c.h), make([]int, c.h)
	off := 0
	if c.scroll == 0 && c.behind > 0 {
		off = 1 // opened at a post far back: the newer posts' line goes under it
	}
	for r := 0; r < c.h; r++ {
		idx := c.scroll + (c.h - 1 - r) - off // index into rev for screen row r
		if idx >= 0 && idx < len(rev.lines) {
			view[r] = fit(rev.lines[idx], c.w)
			rows[r], lines[r] = rev.tags[idx].item, rev.tags[idx].line
		} else {
			view[r] = strings.Repeat(" ", c.w)
			rows[r], lines[r] = -1, -1
		}
	}
	if c.scroll > 0 || off > 0 {
		latest := e.tr.t(mChatLatest)
		if c.behind > 0 {
			latest = e.tr.tn(mChatNewer, c.behind, c.behind)
		}
		view[c.h-1] = fitRight(e.th.accentS.Render(latest)+" ", c.w)
		lines[c.h-1] = -1 // no chip is under it
	}
	return view, rows, lines
}

// itemAt returns the item index drawn at view row y, or -1.
func (c *chat) itemAt(y int) int {
	if y < 0 || y >= len(c.rowItem) {
		return -1
	}
	return c.rowItem[y]
}
