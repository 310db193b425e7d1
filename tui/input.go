package tui

import (
	"slices"
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/pullcept/pullcept/room"
)

// popupMax is how many names the @ popup shows at once: eight rows plus the
// frame still fit above the input bar on a 24-row terminal.
const popupMax = 8

// contentRowsMax bounds the input's text in visual rows (the textarea's
// content guard); 10,000 is the textarea's own line capacity.
const contentRowsMax = 9999

// completion is the @ popup's state (docs/design.md §10, §3): it follows
// the '@' under the caret, filters the roster by prefix, and remembers an
// '@' the user closed with Esc so it stays closed while the caret stays in
// it.
type completion struct {
	active    bool     // the caret is in an @word
	row, col  int      // the '@' (line, rune column)
	query     string   // what follows the '@' up to the caret
	items     []string // roster names matching query
	sel       int      // the highlighted item
	closed    bool     // Esc closed the popup of the '@' at closedRow, closedCol
	closedRow int
	closedCol int
}

// open reports whether the popup is shown.
func (c *completion) open() bool {
	return c.active && !(c.closed && c.closedRow == c.row && c.closedCol == c.col) && len(c.items) > 0
}

// inputBar is the multi-line composer with the @ popup and the chips of
// the files attached to the next post (attach.go).
type inputBar struct {
	ta      textarea.Model
	comp    completion // the @ popup's state
	sending bool       // a post is on its way: Send waits for its answer
	focused bool

	chips    []chip    // the attachments, in the order they were added
	chipHits []chipHit // where each drawn chip's ✕ is on the chips' row
	lastDir  string    // the folder of the last attached file (the prompt starts there)

	recall recallState // ↑/↓ through the human's own posts (input_history.go)

	addr mentionTargets // what the @names can resolve to (addressing.go)

	w        int
	version  int            // bumped when the text or caret moved
	view     []string       // the rendered bar
	rendered inputRenderKey // what view was rendered from
}

// inputRenderKey is everything the bar's view depends on (the popup is
// drawn apart, over the screen).
type inputRenderKey struct {
	w, h, gen int
	focused   bool
	sending   bool
	version   int
}

// changed marks the text, caret or styles as moved, so the bar redraws.
func (ib *inputBar) changed() { ib.version++ }

func newInputBar(e *env, keys *KeyMap) *inputBar {
	ta := textarea.New()
	ta.Prompt = ""
	ta.ShowLineNumbers = false
	ta.SetVirtualCursor(false) // the real cursor sits at the caret (IME)
	ta.DynamicHeight = true
	ta.MinHeight = 1
	ta.MaxHeight = maxInputRows
	ta.MaxContentHeight = contentRowsMax
	ta.CharLimit = 0
	ta.KeyMap.InsertNewline = key.NewBinding(key.WithKeys(keys.Newline.Keys()...))
	// Keys the root model owns must not also act inside the textarea.
	ta.KeyMap.LinePrevious = key.NewBinding(key.WithKeys("up"))
	ta.KeyMap.LineNext = key.NewBinding(key.WithKeys("down"))
	ta.KeyMap.CharacterBackward = key.NewBinding(key.WithKeys("left"))
	ta.KeyMap.PageUp = key.NewBinding()
	ta.KeyMap.PageDown = key.NewBinding()
	ta.KeyMap.SelectAll = key.NewBinding()
	ta.KeyMap.TransposeCharacterBackward = key.NewBinding()
	e.noHostPaste(&ta.KeyMap.Paste)
	ta.Placeholder = e.tr.t(mInputPlaceholder)
	ib := &inputBar{ta: ta}
	ib.applyTheme(e)
	return ib
}

func (ib *inputBar) applyTheme(e *env) {
	st := textarea.DefaultStyles(e.th.dark)
	st.Focused.CursorLine = lipgloss.NewStyle()
	st.Focused.Base = lipgloss.NewStyle()
	st.Blurred.Base = lipgloss.NewStyle()
	st.Focused.Text = e.th.text
	st.Blurred.Text = e.th.text
	st.Focused.Placeholder = e.th.dim
	st.Blurred.Placeholder = e.th.dim
	st.Focused.EndOfBuffer = lipgloss.NewStyle()
	st.Blurred.EndOfBuffer = lipgloss.NewStyle()
	ib.ta.SetStyles(st)
	ib.ta.Placeholder = e.tr.t(mInputPlaceholder)
	ib.changed()
}

// setWidth sizes the textarea to the bar's inner width (inside the border).
func (ib *inputBar) setWidth(w int) {
	if ib.w != w {
		ib.w = w
		ib.ta.SetWidth(max(w-2, 1))
	}
}

func (ib *inputBar) setFocus(on bool) tea.Cmd {
	ib.focused = on
	if on {
		return ib.ta.Focus()
	}
	ib.ta.Blur()
	return nil
}

// rows is the bar's height inside its frame: the textarea's
// (1..maxInputRows), plus the chips' row when files are attached.
func (ib *inputBar) rows() int {
	return clampInt(ib.ta.Height(), 1, maxInputRows) + ib.chipRows()
}

// chipRows is 1 when the chips' row shows, else 0.
func (ib *inputBar) chipRows() int { return min(len(ib.chips), 1) }

func (ib *inputBar) value() string { return ib.ta.Value() }

// setValue replaces the text, caret at the end.
func (ib *inputBar) setValue(s string) {
	ib.ta.SetValue(s)
	ib.changed()
}

// restore puts a refused post's original text back (docs/design.md §3 "The UI
// returns the original text"); anything typed since follows it.
func (ib *inputBar) restore(original string) {
	cur := ib.ta.Value()
	if strings.TrimSpace(cur) == "" {
		ib.setValue(original)
		return
	}
	ib.setValue(original + "\n" + cur)
}

// pasteRefusal says why paste cannot go into the input bar, or "": the
// post would pass room.MaxPostBytes, or the text would pass the rows the
// input holds at its width (contentRowsMax). Counted once, in one pass.
func (ib *inputBar) pasteRefusal(e *env, paste string) string {
	cur := ib.ta.Value()
	if n := len(cur) + len(paste); n > room.MaxPostBytes {
		return e.tr.t(mStPasteTooBig, byteSize(n))
	}
	w := max(ib.ta.Width(), 1)
	rows := 0
	for _, text := range []string{cur, paste} {
		for line := range strings.SplitSeq(text, "\n") {
			rows += max(1, (ansi.StringWidth(line)+w-1)/w)
		}
		if rows > contentRowsMax {
			return e.tr.t(mStPasteTooTall, rows, contentRowsMax)
		}
	}
	return ""
}

// update hands a key or paste to the textarea, then re-reads the @ context.
func (ib *inputBar) update(msg tea.Msg, roster []room.Member, self string) tea.Cmd {
	var cmd tea.Cmd
	ib.ta, cmd = ib.ta.Update(msg)
	ib.changed()
	ib.refreshCompletion(roster, self)
	return cmd
}

func isAt(r rune) bool { return r == '@' || r == '＠' }

// refreshCompletion finds the @word under the caret: an '@' (or '＠') at the
// start of the line or after whitespace, followed by non-space runes up to
// the caret.
func (ib *inputBar) refreshCompletion(roster []room.Member, self string) {
	c := &ib.comp
	lines := strings.Split(ib.ta.Value(), "\n")
	row, col := ib.ta.Line(), ib.ta.Column()
	c.active = false
	if row >= 0 && row < len(lines) {
		line := []rune(lines[row])
		col = min(col, len(line))
		for p := col - 1; p >= 0; p-- {
			r := line[p]
			if unicode.IsSpace(r) {
				break
			}
			if isAt(r) {
				if p == 0 || unicode.IsSpace(line[p-1]) {
					if !c.active || c.row != row || c.col != p {
						c.sel = 0
					}
					c.active, c.row, c.col = true, row, p
					c.query = string(line[p+1 : col])
				}
				break
			}
		}
	}
	if !c.active {
		c.closed = false
		c.items = nil
		return
	}
	c.items = completionItems(roster, self, c.query)
	// Then the seat accounts not in the room: completing their name is
	// allowed, and the hint says the post will not reach them now.
	q := strings.ToLower(c.query)
	for _, name := range slices.Concat(ib.addr.joining, ib.addr.offline) {
		if strings.HasPrefix(strings.ToLower(name), q) && !slices.Contains(c.items, name) && name != self {
			c.items = append(c.items, name)
		}
	}
	if c.sel >= len(c.items) {
		c.sel = max(len(c.items)-1, 0)
	}
}

// completionItems lists the roster's names for an @query: not the screen
// itself (its local connection or its own name), each name once, prefix
// match ignoring case, in roster order.
func completionItems(roster []room.Member, self, query string) []string {
	q := strings.ToLower(query)
	seen := map[string]bool{}
	var out []string
	for _, m := range roster {
		name := m.Name
		if name == "" || m.Local || name == self || seen[name] {
			continue
		}
		seen[name] = true
		if strings.HasPrefix(strings.ToLower(name), q) {
			out = append(out, name)
		}
	}
	return out
}

// pick replaces the @query under the caret with "@name ".
func (ib *inputBar) pick(roster []room.Member, self string) {
	c := &ib.comp
	if !c.open() {
		return
	}
	name := c.items[c.sel]
	for range []rune(c.query) {
		ib.ta, _ = ib.ta.Update(tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
	ib.ta, _ = ib.ta.Update(tea.KeyPressMsg{Code: tea.KeyBackspace}) // the '@'
	ib.ta.InsertString("@" + name + " ")
	ib.changed()
	ib.refreshCompletion(roster, self)
}

// closePopup closes the popup for the '@' under the caret (Esc).
func (ib *inputBar) closePopup() {
	c := &ib.comp
	c.closed, c.closedRow, c.closedCol = true, c.row, c.col
	ib.changed() // the @word is no longer being completed: the hint may name it
}

// movePopup moves the popup's selection, wrapping around.
func (ib *inputBar) movePopup(delta int) {
	c := &ib.comp
	if len(c.items) == 0 {
		return
	}
	c.sel = (c.sel + delta + len(c.items)) % len(c.items)
}

// render draws the bar: a rounded frame (accent when focused) whose top
// edge carries the key hint, around the textarea.
func (ib *inputBar) render(e *env, h int) {
	k := inputRenderKey{ib.w, h, e.gen, ib.focused, ib.sending, ib.version}
	if k == ib.rendered && len(ib.view) == h {
		return
	}
	ib.rendered = k
	w := ib.w
	if w < 2 || h < 2 {
		ib.view = block(nil, w, h)
		return
	}
	bs := e.th.border
	if ib.focused {
		bs = e.th.borderFocus
	}
	// The edge carries the key hint, or what the @names will not reach.
	var top string
	if warn := ib.addressHint(e, w-6); warn != "" && !ib.sending {
		top = bs.Render("╭─ ") + e.th.dangerS.Render(warn) +
			bs.Render(" "+strings.Repeat("─", max(0, w-5-ansi.StringWidth(warn)))+"╮")
	} else {
		top = "╭" // no room for a hint: a plain edge
		if h := inputHint(e, ib.sending, w-6); h != "" {
			top = "╭─ " + h + " "
		}
		top = bs.Render(top + strings.Repeat("─", max(0, w-1-ansi.StringWidth(top))) + "╮")
	}
	out := make([]string, 0, h)
	out = append(out, top)
	body := strings.Split(ib.ta.View(), "\n")
	if ib.ta.Value() != "" && len(ib.addr.inRoom) > 0 {
		for i, row := range body {
			body[i] = markMentions(e, row, ib.addr)
		}
	}
	if len(ib.chips) > 0 {
		var row string
		row, ib.chipHits = renderChips(e, ib.chips, w-2)
		body = append([]string{row}, body...)
	}
	left, right := bs.Render("│"), bs.Render("│")
	for i := 0; i < h-2; i++ {
		l := ""
		if i < len(body) {
			l = body[i]
		}
		out = append(out, left+fit(l, w-2)+sgrReset+right)
	}
	out = append(out, bs.Render("╰"+strings.Repeat("─", w-2)+"╯"))
	ib.view = out
}

// inputHint is the key hint on the bar's top edge in at most w cells: its
// parts (" · " apart, the attach key last) dropped whole from the end
// until it fits (spec «キーの案内は小さく出す»); "sending…" while a post is
// on its way.
func inputHint(e *env, sending bool, w int) string {
	if sending {
		return e.tr.t(mInputSending)
	}
	parts := strings.Split(e.tr.t(mInputHint), " · ")
	if k := firstKey(e.keys.Attach); k != "" {
		parts = append(parts, e.tr.t(mInputHintAttach, hintKey(k)))
	}
	for n := len(parts); n > 0; n-- {
		if h := strings.Join(parts[:n], " · "); ansi.StringWidth(h) <= w {
			return h
		}
	}
	return ""
}

// hintKey writes a key of the key map as it is on the keyboard, the one
// way every text shown to the human names a key: "F9", "Ctrl+Q",
// "Shift+Tab", "Esc", arrows as arrows, "PgDn", a letter as it is ("y",
// not "Y"). config.json's spelling ("f9", "ctrl+q") is shown only where
// the text is about config.json (Settings → Keys; issue 35: "press f9").
func hintKey(k string) string {
	if len([]rune(k)) <= 1 {
		return k
	}
	parts := strings.Split(k, "+")
	for i, p := range parts {
		if name, ok := keyNames[p]; ok {
			parts[i] = name
		} else if p != "" {
			parts[i] = strings.ToUpper(p[:1]) + p[1:]
		}
	}
	return strings.Join(parts, "+")
}

// keyNames are the keys whose name on the keyboard is not their config
// name with a capital.
var keyNames = map[string]string{
	"up": "↑", "down": "↓", "left": "←", "right": "→",
	"pgup": "PgUp", "pgdown": "PgDn",
}

// caret is the real cursor's position relative to the bar's rectangle.
func (ib *inputBar) caret() (x, y int, ok bool) {
	c := ib.ta.Cursor()
	if c == nil {
		return 0, 0, false
	}
	return c.X + 1, c.Y + 1 + ib.chipRows(), true
}

// popupView draws the @ popup, at most rows names (and popupMax), and
// returns it with the '@' column relative to the bar (for placement).
func (ib *inputBar) popupView(e *env, rows int) (string, int) {
	c := &ib.comp
	rows = min(rows, popupMax)
	if !c.open() || rows < 1 {
		return "", 0
	}
	start := 0
	if c.sel >= rows {
		start = c.sel - rows + 1
	}
	end := min(len(c.items), start+rows)
	wmax := 0
	for _, it := range c.items[start:end] {
		wmax = max(wmax, ansi.StringWidth(it)+1)
	}
	var lines []string
	for i := start; i < end; i++ {
		l := fit("@"+c.items[i], wmax+1)
		if i == c.sel {
			l = e.th.sel.Render(l)
		} else {
			l = e.th.text.Render(l)
		}
		lines = append(lines, l)
	}
	box := lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(e.th.accent).Render(strings.Join(lines, "\n"))
	x, _, _ := ib.caret()
	atX := x - ansi.StringWidth("@"+c.query)
	return box, max(atX-1, 0)
}
