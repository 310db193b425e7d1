package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// titleText is p's title at width w without styling, and the cells the
// border leaves it.
func titleText(p *pane, e *env, focused bool, w int) (string, int) {
	title, tight := p.title(e, focused, rect{0, 0, w, 10})
	if tight {
		return ansi.Strip(title), w - 2
	}
	return ansi.Strip(title), w - 5
}

// TestPaneTitleKeepsNameAndTyping: a focused pane's title keeps the seat's
// name and the word that says the pane has the keys at every width where
// the two fit, in both languages, whatever its state says; the state and
// the leave hint give way first (issue 35: at 120×40 the end of the title
// was cut, "typing" with it). Where the two do not fit in the border they
// take all but its corners, and where even then the name does not fit
// whole it is cut, never the word.
func TestPaneTitleKeepsNameAndTyping(t *testing.T) {
	t.Parallel()
	km := DefaultKeyMap()
	for _, lang := range []Lang{LangEnglish, LangJapanese} {
		e := &env{th: newTheme(true), tr: catalog{lang: lang}, keys: &km}
		typing := e.tr.t(mPaneTyping)
		for _, name := range []string{"Lin", "Ivy Long-Name"} {
			p := &pane{name: name, hue: 120, state: SeatRunning, word: "running mcp__pullcept__say_to_room · 2 subagents", tone: toneBusy}
			need := ansi.StringWidth(name + "·" + typing)
			least := ansi.StringWidth(name[:1] + "…·" + typing)
			for w := least + 2; w <= 200; w++ {
				title, room := titleText(p, e, true, w)
				if ansi.StringWidth(title) > room {
					t.Fatalf("%s %q at %d: %q is wider than its border", lang, name, w, title)
				}
				if !strings.HasSuffix(title, "·"+typing) && !strings.HasSuffix(title, " · "+typing) && !strings.Contains(title, " · "+typing+" · ") {
					t.Fatalf("%s %q at %d: %q lost the typing word", lang, name, w, title)
				}
				if w-2 >= need && !strings.HasPrefix(title, name) {
					t.Fatalf("%s %q at %d: %q lost the name", lang, name, w, title)
				}
				if !strings.HasPrefix(title, name[:1]) {
					t.Fatalf("%s %q at %d: %q does not start with the name", lang, name, w, title)
				}
			}
		}
	}
}

// TestPaneTitleGivesWayInOrder: the state is cut and dropped before the
// name and "typing"; a frozen pane's word outlasts the state. The key that
// leaves is in the lower border (TestFocusedPaneSaysHowToLeave).
func TestPaneTitleGivesWayInOrder(t *testing.T) {
	t.Parallel()
	km := DefaultKeyMap()
	e := &env{th: newTheme(true), tr: catalog{lang: LangEnglish}, keys: &km}
	p := &pane{name: "Lin", hue: 120, state: SeatRunning, word: "thinking… · 2 subagents", tone: toneBusy}
	for _, c := range []struct {
		w    int
		want string
	}{
		{200, "Lin · thinking… · 2 subagents · typing"}, // the leave key is below
		{47, "Lin · thinking… · 2 subagents · typing"},
		{37, "Lin · thinking… · 2 su… · typing"},
		{29, "Lin · thinking… · typing"},
		{24, "Lin · thi… · typing"},
		{23, "Lin · typing"},
		{17, "Lin · typing"},
		{16, "Lin·typing"},
		{12, "Lin·typing"},
		{11, "L…·typing"},
	} {
		if got, _ := titleText(p, e, true, c.w); got != c.want {
			t.Errorf("width %d: %q, want %q", c.w, got, c.want)
		}
	}
	p.snap.Broken = "panic"
	if got, _ := titleText(p, e, false, 45); got != "Lin · frozen: emulator error · thinking…" {
		t.Errorf("frozen: %q", got)
	}
	if got, _ := titleText(p, e, false, 30); got != "Lin · frozen: emulator e…" {
		t.Errorf("frozen, narrow: %q", got)
	}
}

// TestNarrowPanesSayHowToWidenThem: at 80×24 two panes are 16 columns
// wide; the status line says once which keys hide the side columns (only
// those that show), and never at 200×60.
func TestNarrowPanesSayHowToWidenThem(t *testing.T) {
	t.Parallel()
	open := func(w, h int, lang Lang) *Model {
		f := scene()
		f.seats["t-main"] = append(f.seats["t-main"], SeatInfo{Topic: "t-main", Account: "lay", State: SeatRunning})
		m := sceneModel(t, f, w, h, lang)
		send(t, m, press("ctrl+t"))
		return m
	}
	m := open(80, 24, LangEnglish)
	if got := m.status.text; got != "Narrow panes: Ctrl+B hides topics, Ctrl+O accounts" {
		t.Fatalf("status %q", got)
	}
	if v := plain(m); !strings.Contains(v, "Narrow panes: Ctrl+B hides topics, Ctrl+O accounts") {
		t.Fatalf("not on screen:\n%s", v)
	}
	send(t, m, statusExpiredMsg{seq: m.status.seq})
	send(t, m, press("ctrl+t"))
	send(t, m, press("ctrl+t"))
	if m.status.text != "" {
		t.Fatalf("said again: %q", m.status.text)
	}

	ja := open(80, 24, LangJapanese)
	if got := ja.status.text; got != "端末が狭い: Ctrl+B で左、Ctrl+O で右の列を隠す" {
		t.Fatalf("ja status %q", got)
	}

	// Topics hidden first: only the accounts' key is named.
	f := scene()
	f.seats["t-main"] = append(f.seats["t-main"], SeatInfo{Topic: "t-main", Account: "lay", State: SeatRunning})
	one := sceneModel(t, f, 80, 24, LangEnglish)
	send(t, one, press("ctrl+b"))
	send(t, one, press("ctrl+t"))
	if got := one.status.text; got != "Narrow panes: Ctrl+O hides the accounts" {
		t.Fatalf("topics hidden: status %q (panes %v)", got, one.layout.Panes)
	}

	wide := open(200, 60, LangEnglish)
	for _, r := range wide.status.log {
		if strings.Contains(r.text, "Narrow") {
			t.Fatalf("said at 200×60: %q", r.text)
		}
	}
}

// TestFocusedPaneSaysTypingOnScreen: the screens the new user tried — the
// focused pane's title says "typing" at 80×24, 120×40 and 200×60 beside
// a pane with a long state word (it was cut away at 80 and 120 columns).
func TestFocusedPaneSaysTypingOnScreen(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		f := scene()
		f.seats["t-main"][0].Activity = Activity{Kind: ActivityThinking, Subagents: 2, Since: testNow()}
		f.seats["t-main"] = append(f.seats["t-main"], SeatInfo{Topic: "t-main", Account: "lay", State: SeatRunning})
		m := sceneModel(t, f, size[0], size[1], LangEnglish)
		send(t, m, press("ctrl+t"))
		send(t, m, press("f6"))
		top := ansi.Strip(m.seats.panes[seatKey{"t-main", "lin"}].view[0])
		if !strings.Contains(top, "Lin") || !strings.Contains(top, "typing") {
			t.Errorf("%dx%d: focused pane's title %q", size[0], size[1], top)
		}
	}
}
