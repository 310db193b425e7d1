package tui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/charmbracelet/x/ansi"
)

// The keys a new user stumbled on in the first hour (issue 14).

// TestQuickKeysOnAPopulatedList: 1, 2 and 3 open a new account of their
// kind also when accounts exist (they did nothing, and the next letters
// acted on the list).
func TestQuickKeysOnAPopulatedList(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		key  string
		kind string
	}{{"1", KindClaudeCode}, {"2", KindCodexCLI}, {"3", KindCLI}} {
		f := scene()
		f.home = "/home/u"
		m := sceneModel(t, f, 120, 40, LangEnglish)
		toParticipants(t, m, "lin")
		send(t, m, press(c.key))
		ed := m.overlay.editor
		if m.overlay.open != ovEditor || ed == nil || !ed.isNew || ed.acc.Kind != c.kind {
			t.Fatalf("%s on a populated list: overlay %v, editor %+v; want a new %s account", c.key, m.overlay.open, ed, c.kind)
		}
		if ed.acc.Dir != "/home/u" || ed.acc.ID != "" {
			t.Fatalf("%s: not prefilled as on first start: %+v", c.key, ed.acc)
		}
	}
}

// TestCtrlCNeverQuits: Ctrl+C clears the input; on an empty one it says
// which key quits and neither quits nor asks.
func TestCtrlCNeverQuits(t *testing.T) {
	t.Parallel()
	m := newTestModel(t, newFake(), testOptions(), 100, 30)
	typeText(t, m, "draft")
	send(t, m, press("ctrl+c"))
	if m.input.value() != "" {
		t.Fatalf("ctrl+c left %q", m.input.value())
	}
	_, cmd := m.Update(press("ctrl+c"))
	drive(t, m, cmd)
	if m.quitting || m.overlay.open != ovNone {
		t.Fatalf("ctrl+c on an empty input quit (quitting %v, overlay %v)", m.quitting, m.overlay.open)
	}
	if !strings.Contains(m.status.text, "Ctrl+Q") {
		t.Fatalf("status after ctrl+c on an empty input = %q, want the quit key named", m.status.text)
	}

	// With seats running it does not ask either.
	m = sceneModel(t, scene(), 100, 30, LangEnglish)
	send(t, m, press("ctrl+c"))
	if m.quitting || m.overlay.open != ovNone {
		t.Fatalf("ctrl+c with seats running opened overlay %v", m.overlay.open)
	}
}

// TestTabKeepsTypedText: Tab with text in the input (and no popup) stays
// there, so what is typed next follows the text; from an empty input Tab
// still cycles, and Shift+Tab always does.
func TestTabKeepsTypedText(t *testing.T) {
	t.Parallel()
	m := sceneModel(t, scene(), 120, 40, LangEnglish)
	typeText(t, m, "hello")
	send(t, m, press("tab"))
	typeText(t, m, " world")
	if m.focus != FocusInput || m.input.value() != "hello world" {
		t.Fatalf("after tab: focus %v, input %q; want the input keeping \"hello world\"", m.focus, m.input.value())
	}
	send(t, m, press("shift+tab"))
	if m.focus == FocusInput || m.input.value() != "hello world" {
		t.Fatalf("shift+tab with text: focus %v, input %q", m.focus, m.input.value())
	}
	send(t, m, press("esc"))
	send(t, m, press("ctrl+c"))
	send(t, m, press("tab"))
	if m.focus != FocusChat {
		t.Fatalf("tab from an empty input: focus %v, want the chat", m.focus)
	}
}

// TestUpRecallsOwnPosts: ↑ in an empty input recalls the human's posts of
// the open topic from the chat (the log's, so also after a restart), ↓
// goes back; a multi-line draft keeps ↑ for its lines.
func TestUpRecallsOwnPosts(t *testing.T) {
	t.Parallel()
	m := sceneModel(t, scene(), 120, 40, LangEnglish)
	steps := []struct{ key, want string }{
		{"up", "@Lin @Lay ありがとう。"},
		{"up", "おはようございます。今日はリリースの準備をします。"},
		{"up", "おはようございます。今日はリリースの準備をします。"}, // the oldest stays
		{"down", "@Lin @Lay ありがとう。"},
		{"down", ""},
	}
	for i, s := range steps {
		send(t, m, press(s.key))
		if got := m.input.value(); got != s.want {
			t.Fatalf("step %d (%s): input %q, want %q", i, s.key, got, s.want)
		}
	}
	// An edited recall is a draft: ↑ no longer replaces it.
	send(t, m, press("up"))
	typeText(t, m, "!")
	send(t, m, press("up"))
	if got := m.input.value(); got != "@Lin @Lay ありがとう。!" {
		t.Fatalf("↑ on an edited recall: %q", got)
	}

	m = sceneModel(t, scene(), 120, 40, LangEnglish)
	typeText(t, m, "a")
	send(t, m, press("shift+enter"))
	typeText(t, m, "b")
	send(t, m, press("up"))
	if m.input.value() != "a\nb" || m.input.ta.Line() != 0 {
		t.Fatalf("↑ in a two-line draft: %q, line %d", m.input.value(), m.input.ta.Line())
	}

	// A post just sent is the first ↑ brings back.
	typeText(t, m, "x")
	send(t, m, press("ctrl+c"))
	typeText(t, m, "just sent")
	send(t, m, press("enter"))
	send(t, m, press("up"))
	if got := m.input.value(); got != "just sent" {
		t.Fatalf("↑ after a send: %q", got)
	}
}

// chatScene is scene with enough posts in t-main for the chat to scroll.
func chatScene() *fakeBackend {
	f := scene()
	for i := range 60 {
		f.history["t-main"] = append(f.history["t-main"], post(fmt.Sprintf("q%d", i), "Lin", fmt.Sprintf("line %d", i), 10+i))
	}
	return f
}

// TestEndJumpsToLatestFromAnywhere: End brings the chat to the newest post
// from the lists too; in the input bar once the caret is at the end of its
// line (before, End moves the caret there).
func TestEndJumpsToLatestFromAnywhere(t *testing.T) {
	t.Parallel()
	m := sceneModel(t, chatScene(), 120, 30, LangEnglish)
	up := func() {
		t.Helper()
		send(t, m, press("pgup"))
		if m.chat.scroll == 0 {
			t.Fatalf("pgup did not scroll the chat")
		}
	}
	up()
	send(t, m, press("tab"))
	send(t, m, press("tab"))
	if m.focus != FocusTopics {
		t.Fatalf("focus %v, want topics", m.focus)
	}
	send(t, m, press("end"))
	if m.chat.scroll != 0 {
		t.Fatalf("end in the topic list: chat still %d rows up", m.chat.scroll)
	}
	send(t, m, press("tab"))
	up()
	send(t, m, press("end"))
	if m.chat.scroll != 0 {
		t.Fatalf("end in the accounts panel: chat still %d rows up", m.chat.scroll)
	}

	send(t, m, press("esc"))
	up()
	send(t, m, press("end"))
	if m.chat.scroll != 0 {
		t.Fatalf("end in an empty input: chat still %d rows up", m.chat.scroll)
	}
	typeText(t, m, "hello")
	send(t, m, press("left"))
	send(t, m, press("left"))
	up()
	send(t, m, press("end"))
	if m.input.ta.Column() != 5 || m.chat.scroll == 0 {
		t.Fatalf("end with the caret inside the text: column %d, chat %d up; want the caret moved, the chat kept", m.input.ta.Column(), m.chat.scroll)
	}
	send(t, m, press("end"))
	if m.chat.scroll != 0 || m.input.value() != "hello" {
		t.Fatalf("end at the end of the line: chat %d up, input %q", m.chat.scroll, m.input.value())
	}
}

var helpCounter = regexp.MustCompile(`(\d+)–(\d+) / (\d+)`)

// helpRows is the help overlay's text rows (its frame and title cut off).
func helpRows(box string) []string {
	var out []string
	for _, l := range strings.Split(ansi.Strip(box), "\n") {
		r := []rune(strings.TrimSpace(l))
		if len(r) < 2 || r[0] != '│' {
			continue
		}
		out = append(out, strings.TrimRight(strings.TrimPrefix(string(r[1:len(r)-1]), " "), " "))
	}
	return out
}

// TestHelpWrapsAtNarrowWidths: in one column every description is whole,
// wrapped at word boundaries (a Japanese line never starts with a closing
// mark), and the help scrolls by pages with a counter that reaches its end.
func TestHelpWrapsAtNarrowWidths(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		w    int
		lang Lang
	}{{60, LangEnglish}, {60, LangJapanese}, {80, LangEnglish}, {80, LangJapanese}, {44, LangJapanese}} {
		km := DefaultKeyMap()
		e := &env{th: newTheme(true), tr: catalog{lang: c.lang}, keys: &km}
		box, _ := helpView(e, c.w, 2000, 0)
		rows := helpRows(box)
		// The description column starts where "quit" stands on the
		// ctrl+q row.
		x := -1
		for _, r := range rows {
			if strings.HasPrefix(r, "Ctrl+Q") {
				x = ansi.StringWidth(r) - ansi.StringWidth(e.tr.t(mHelpQuit))
			}
		}
		if x < 0 {
			t.Fatalf("%d %v: no Ctrl+Q row:\n%s", c.w, c.lang, strings.Join(rows, "\n"))
		}
		var frags []string
		words := map[string]bool{}
		for _, en := range km.grouped() {
			for _, w := range strings.Fields(e.tr.t(en.help)) {
				words[w] = true
			}
		}
		for _, r := range rows {
			if ansi.StringWidth(r) > c.w-4 {
				t.Fatalf("%d %v: row wider than the box: %q", c.w, c.lang, r)
			}
			if strings.Contains(r, "…") {
				t.Fatalf("%d %v: a cut row: %q", c.w, c.lang, r)
			}
			frag := strings.TrimSpace(ansi.Cut(r, x, 1000))
			if frag == "" {
				continue
			}
			frags = append(frags, frag)
			if c.lang == LangEnglish {
				for _, w := range strings.Fields(frag) {
					if !words[w] {
						t.Fatalf("%d: %q is no whole word of a description (row %q)", c.w, w, r)
					}
				}
			} else if first := []rune(frag)[0]; strings.ContainsRune("、。）」・", first) || unicode.IsLower(first) && ansi.StringWidth(frag) < 4 {
				t.Fatalf("%d ja: a line starts badly: %q", c.w, r)
			}
		}
		flat := strings.ReplaceAll(strings.Join(frags, ""), " ", "")
		for _, en := range km.grouped() {
			if d := strings.ReplaceAll(e.tr.t(en.help), " ", ""); !strings.Contains(flat, d) {
				t.Fatalf("%d %v: description %q of %s not whole:\n%s", c.w, c.lang, e.tr.t(en.help), en.name, strings.Join(rows, "\n"))
			}
		}
	}

	// 200×60: nothing scrolls, and every description reads whole in its
	// column (wrapped there when the columns are narrow: with the
	// permission cards' keys the Japanese help no longer fits two columns
	// of 54 rows, and in three a 56-cell description cannot be one line).
	km := DefaultKeyMap()
	e := &env{th: newTheme(true), tr: catalog{lang: LangJapanese}, keys: &km}
	box, _ := helpView(e, 200, 60, 0)
	if strings.Count(box, "\n")+1 > 60 {
		t.Fatalf("200×60 help is %d rows", strings.Count(box, "\n")+1)
	}
	l := layoutHelp(e, 200, 60)
	if l.scrolls() {
		t.Fatalf("200×60 help scrolls: %d rows, %d shown", l.rows, l.page)
	}
	var flat strings.Builder
	for _, col := range l.cols {
		for _, line := range col {
			flat.WriteString(strings.ReplaceAll(ansi.Strip(line), " ", ""))
		}
	}
	for _, en := range km.grouped() {
		if d := strings.ReplaceAll(e.tr.t(en.help), " ", ""); !strings.Contains(flat.String(), d) {
			t.Fatalf("200×60: %q not whole in its column", e.tr.t(en.help))
		}
	}
}

// TestHelpPagesAndCounts: PgDn turns a page, End reaches the last row and
// the counter says so, Home goes back.
func TestHelpPagesAndCounts(t *testing.T) {
	t.Parallel()
	m := newTestModel(t, scene(), testOptions(), 80, 24)
	send(t, m, press("f1"))
	counter := func() (a, b, n int) {
		t.Helper()
		g := helpCounter.FindStringSubmatch(plain(m))
		if g == nil {
			t.Fatalf("no counter in:\n%s", plain(m))
		}
		fmt.Sscan(g[1]+" "+g[2]+" "+g[3], &a, &b, &n)
		return a, b, n
	}
	a, b, n := counter()
	if a != 1 || b <= a || n <= b {
		t.Fatalf("first page counter %d–%d / %d", a, b, n)
	}
	page := b - a + 1
	send(t, m, press("pgdown"))
	if a2, _, _ := counter(); a2 != a+page {
		t.Fatalf("pgdown: from row %d to %d, want a page of %d", a, a2, page)
	}
	send(t, m, press("end"))
	if _, b2, n2 := counter(); b2 != n2 || n2 != n {
		t.Fatalf("end: counter %d / %d, want the last row", b2, n2)
	}
	send(t, m, press("home"))
	if a3, _, _ := counter(); a3 != 1 {
		t.Fatalf("home: counter from %d", a3)
	}
}
