//go:build linux

package realapp

// The keys a new user stumbled on in the first hour (issue 14), as a person
// meets them in the real binary in tmux: 2 on an accounts list that is not
// empty, Ctrl+C on an empty input, text typed after Tab, ↑ in an empty
// input, and the F1 help on a small terminal.

import (
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// inputBar is the text inside the input bar: the rows of the last box on
// the screen (its edge carries a hint, so its rows are those after the
// last row starting a box), borders cut off.
func inputBar(screen string) string {
	rows := strings.Split(screen, "\n")
	top := -1
	for i, r := range rows {
		if strings.Contains(r, "╭") {
			top = i
		}
	}
	if top < 0 {
		return ""
	}
	var out []string
	for _, r := range rows[top+1:] {
		if strings.Contains(r, "╰") {
			break
		}
		l, rr := strings.Index(r, "│"), strings.LastIndex(r, "│")
		if l >= 0 && rr > l {
			out = append(out, strings.TrimSpace(r[l+len("│"):rr]))
		}
	}
	return strings.Join(out, "\n")
}

// TestQuickKeyOnAPopulatedAccountsList: 2 on the accounts panel opens a
// new Codex account also when accounts exist (it did nothing, and the
// letters typed next acted on the list).
func TestQuickKeyOnAPopulatedAccountsList(t *testing.T) {
	r := newRig(t, 120, 40, "en", seat{id: "sh", name: "Shell"})
	r.keys("Tab", "Tab", "Tab")
	r.waitScreen("the accounts panel has focus", func(s string) bool { return strings.Contains(s, "› Alice") })
	r.keys("2")
	r.waitScreen("a new Codex CLI account's editor", func(s string) bool {
		return strings.Contains(s, "New account") && strings.Contains(s, "Codex CLI")
	})
}

// TestCtrlCOnAnEmptyInputKeepsTheApp: Ctrl+C on an empty input names the
// quit key and the app goes on (it quit at once when no seat ran).
func TestCtrlCOnAnEmptyInputKeepsTheApp(t *testing.T) {
	r := newRig(t, 80, 24, "en", seat{id: "sh", name: "Shell"})
	pid := r.appPID()
	r.text("draft")
	r.waitScreen("the draft in the input", func(s string) bool { return inputBar(s) == "draft" })
	r.keys("C-c")
	r.waitScreen("Ctrl+C cleared the input", func(s string) bool { return !strings.Contains(inputBar(s), "draft") })
	r.keys("C-c")
	r.waitScreen("the quit key named on the status line", func(s string) bool { return strings.Contains(s, "Nothing to clear. Ctrl+Q quits.") })
	if err := syscall.Kill(pid, 0); err != nil {
		t.Fatalf("the app is gone after Ctrl+C on an empty input: %v", err)
	}
	r.text("still here")
	r.waitScreen("the app still takes keys", func(s string) bool { return inputBar(s) == "still here" })
}

// TestTextTypedAfterTabIsKept: Tab with text in the input stays there, so
// what is typed next is not lost in the chat.
func TestTextTypedAfterTabIsKept(t *testing.T) {
	r := newRig(t, 80, 24, "en", seat{id: "sh", name: "Shell"})
	r.text("hello")
	r.keys("Tab")
	r.text(" world")
	r.waitScreen("the input holds all that was typed", func(s string) bool { return inputBar(s) == "hello world" })
}

// TestUpRecallsTheLastPost: ↑ in the empty input bar brings back the
// human's last post of the topic, ↑ again the one before.
func TestUpRecallsTheLastPost(t *testing.T) {
	r := newRig(t, 80, 24, "en", seat{id: "sh", name: "Shell"})
	for _, p := range []string{"first words", "second words"} {
		r.text(p)
		r.keys("Enter")
		r.waitScreen("the post in the chat, the input empty", func(s string) bool {
			return strings.Contains(s, p) && !strings.Contains(inputBar(s), p)
		})
	}
	r.keys("Up")
	r.waitScreen("↑ recalls the last post", func(s string) bool { return inputBar(s) == "second words" })
	r.keys("Up")
	r.waitScreen("↑ again the one before", func(s string) bool { return inputBar(s) == "first words" })
	r.keys("Down", "Down")
	r.waitScreen("↓↓ back to the empty input", func(s string) bool {
		in := inputBar(s)
		return !strings.Contains(in, "words")
	})
}

var helpCount = regexp.MustCompile(`Keys  \(?(\d+)–(\d+) / (\d+)`)

// TestHelpReadsAt60x20 and TestHelpReadsAt80x24: F1 shows every
// description whole (wrapped at words), pages with PgDn to a counter that
// ends at its last row, and End and Home reach the ends.
func TestHelpReadsAt60x20(t *testing.T) { helpReads(t, 60, 20) }
func TestHelpReadsAt80x24(t *testing.T) { helpReads(t, 80, 24) }

func helpReads(t *testing.T, w, h int) {
	r := newRig(t, w, h, "en", seat{id: "sh", name: "Shell"})
	r.keys("F1")
	counter := func(s string) (a, b, n int, ok bool) {
		g := helpCount.FindStringSubmatch(s)
		if g == nil {
			return 0, 0, 0, false
		}
		a, _ = strconv.Atoi(g[1])
		b, _ = strconv.Atoi(g[2])
		n, _ = strconv.Atoi(g[3])
		return a, b, n, true
	}
	// A whole page: tmux may capture a frame half drawn (CI saw the box cut
	// at its 18th row, its rows not yet there).
	whole := func(s string) bool { a, b, _, ok := counter(s); return ok && len(helpBody(s)) >= b-a+1 }
	s := r.waitScreen("the help with its counter", whole)
	// Every row of the help, paged through with PgDn.
	rows := map[int]string{}
	for {
		a, b, n, _ := counter(s)
		body := helpBody(s)
		if len(body) < b-a+1 {
			t.Fatalf("counter %d–%d but %d rows shown:\n%s", a, b, len(body), s)
		}
		for i := a; i <= b; i++ {
			rows[i] = body[i-a]
		}
		if b == n {
			if len(rows) != n {
				t.Fatalf("the counter says %d rows, the pages showed %d", n, len(rows))
			}
			break
		}
		r.keys("PageDown")
		s = r.waitScreen("the next page", func(s2 string) bool { a2, _, _, ok := counter(s2); return ok && a2 > a && whole(s2) })
		if a2, _, _, _ := counter(s); a2 != min(b+1, n-(b-a)) {
			t.Fatalf("PgDn from %d–%d (of %d) went to %d, not the next page", a, b, n, a2)
		}
	}
	x := -1
	for _, row := range rows {
		if strings.HasPrefix(row, "Ctrl+Q ") {
			x = ansi.StringWidth(row) - len("quit")
		}
	}
	var desc []string
	for i := 1; i <= len(rows); i++ {
		if x > 0 && ansi.StringWidth(rows[i]) > x {
			desc = append(desc, strings.TrimSpace(ansi.Cut(rows[i], x, 1000)))
		}
	}
	flat := strings.Join(desc, " ")
	for _, want := range []string{"scroll chat up (older posts load)", "clear the input (never quits)",
		"attach the file / open the folder (attach)", "next area (from the input bar only when it is empty)",
		"your previous post in this topic (empty input)"} {
		if !strings.Contains(flat, want) {
			t.Fatalf("%q is not whole in the help:\n%s", want, strings.Join(desc, "\n"))
		}
	}
	r.keys("Home")
	r.waitScreen("Home goes back to the first row", func(s string) bool { a, _, _, ok := counter(s); return ok && a == 1 })
	r.keys("End")
	r.waitScreen("End shows the last row", func(s string) bool { _, b, n, ok := counter(s); return ok && b == n })
}

// helpBody is the help overlay's rows between its title (and the blank
// under it) and the blank over its footer.
func helpBody(screen string) []string {
	var rows []string
	for _, l := range strings.Split(screen, "\n") {
		l = strings.TrimSpace(l)
		if r := []rune(l); len(r) >= 2 && r[0] == '│' && r[len(r)-1] == '│' {
			rows = append(rows, strings.TrimRight(strings.TrimPrefix(string(r[1:len(r)-1]), " "), " "))
		}
	}
	// title, blank, body…, blank, footer (one or two rows)
	end := len(rows)
	for end > 0 && rows[end-1] != "" {
		end--
	}
	if end < 3 {
		return nil
	}
	return rows[2 : end-1]
}
