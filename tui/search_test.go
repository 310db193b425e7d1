package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// searchModel has two topics: "t-open" (open, a few posts) and "t-far",
// whose 260 posts hold "quux deploy" in post 20 only.
func searchModel(t *testing.T) (*Model, *fakeBackend) {
	t.Helper()
	f := newFake()
	f.topics["t-open"] = TopicInfo{ID: "t-open", Name: "open topic", LastActivity: testNow(), Indexed: true}
	f.topics["t-far"] = TopicInfo{ID: "t-far", Name: "far topic", LastActivity: testNow().Add(-time.Hour), Indexed: true}
	f.history["t-open"] = append(f.history["t-open"], post("o1", "Lin", "hello there", 1))
	for i := range 260 {
		body := fmt.Sprintf("routine post %d", i)
		if i == 20 {
			body = "the QUUX deploy failed on 日本語の検索 day"
		}
		f.history["t-far"] = append(f.history["t-far"], post(fmt.Sprintf("f%03d", i), "Kai", body, i))
	}
	opts := testOptions()
	opts.StartTopic = "t-open"
	return newTestModel(t, f, opts, 140, 40), f
}

// TestFinderFindsAPostAndJumpsToIt: Ctrl+P, a word only a post of another
// topic holds, Enter: that topic opens at the page holding the post, which
// is selected and on screen.
func TestFinderFindsAPostAndJumpsToIt(t *testing.T) {
	m, _ := searchModel(t)
	send(t, m, press("ctrl+p"))
	typeText(t, m, "quux")
	p := m.overlay.picker
	if len(p.titles) != 0 || len(p.hits) != 1 || p.hits[0].Topic != "t-far" || p.hits[0].MessageID != "f020" {
		t.Fatalf("titles %v, hits %+v", p.titles, p.hits)
	}
	v := plain(m)
	if !strings.Contains(v, "far topic — Kai: the QUUX deploy") {
		t.Fatalf("no hit row:\n%s", v)
	}
	send(t, m, press("enter"))
	if m.topics.open != "t-far" || m.overlay.open != ovNone {
		t.Fatalf("open %q, overlay %v", m.topics.open, m.overlay.open)
	}
	if m.chat.sel < 0 || m.chat.items[m.chat.sel].posts[0].MessageID != "f020" || m.focus != FocusChat {
		t.Fatalf("selected %d, focus %v", m.chat.sel, m.focus)
	}
	if v := plain(m); !strings.Contains(v, "the QUUX deploy failed") {
		t.Fatalf("the post is not on screen:\n%s", v)
	}
	// End goes back to the live end.
	send(t, m, press("end"))
	if v := plain(m); !strings.Contains(v, "routine post 259") {
		t.Fatalf("End did not read the tail:\n%s", v)
	}
}

// TestFinderHitsShowSpeakerTimeAndMatch: a post hit says who wrote it
// and when — "09:20" today, the day otherwise, as the topic list does — and
// shows its text around the match, cut on the side that does not fit; the
// finder takes the screen's width up to pickerMaxW (issue 35: no speaker,
// no time, cut from the left, 72 columns at any width).
func TestFinderHitsShowSpeakerTimeAndMatch(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("words before the match ", 8)
	for _, tc := range []struct {
		name string
		w, h int
		lang Lang
		box  int
		day  string
		year string
	}{
		{"80x24", 80, 24, LangEnglish, 80, "Oct 1", "2025"},
		{"200x60", 200, 60, LangEnglish, pickerMaxW, "Oct 1", "2025"},
		{"80x24ja", 80, 24, LangJapanese, 80, "10月1日", "2025年"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m := finderModel(t, tc.w, tc.h, tc.lang, long)
			send(t, m, press("ctrl+p"))
			typeText(t, m, "zebra")
			rows := plainLines(strings.Split(m.View().Content, "\n"))
			var hit []string
			for _, r := range rows {
				if strings.Contains(r, "│") && strings.Contains(r, " — ") && strings.Contains(r, "zebra") {
					hit = append(hit, r)
				}
			}
			if len(hit) != 3 {
				t.Fatalf("%d hit rows:\n%s", len(hit), strings.Join(rows, "\n"))
			}
			// Newest first: today's at its time, then a day, then a year.
			for i, want := range []string{"Kai: ", "Ada: …", "Bo: "} {
				if !strings.Contains(hit[i], want) || !strings.Contains(hit[i], "zebra") {
					t.Errorf("hit %d = %q, want %q and the match", i, hit[i], want)
				}
			}
			for i, when := range []string{"09:20  │", tc.day + "  │", tc.year + "  │"} {
				if !strings.HasSuffix(strings.TrimSpace(hit[i]), when) {
					t.Errorf("hit %d = %q, want it to end at %q", i, hit[i], when)
				}
			}
			if !strings.Contains(hit[0], "zebra crossing at dawn") || strings.Contains(hit[0], "…zebra") {
				t.Errorf("a short hit is cut: %q", hit[0])
			}
			if strings.Contains(hit[1], "words before the match words before the match words before the match words") {
				t.Errorf("the long text before the match was not cut: %q", hit[1])
			}
			// The room the short text after the match leaves goes to the text
			// before it: the row is full up to the time.
			rest := hit[1][strings.Index(hit[1], "after it")+len("after it"):]
			if gap := len(rest) - len(strings.TrimLeft(rest, " ")); gap > 4 {
				t.Errorf("hit 1 leaves %d cells empty: %q", gap, hit[1])
			}
			first, _, _ := strings.Cut(m.screen.overlay.box, "\n")
			if got := ansi.StringWidth(first); got != tc.box {
				t.Errorf("the finder is %d columns, want %d", got, tc.box)
			}
		})
	}
}

// finderModel is a w×h screen over three topics whose posts hold
// "zebra": today's short one by Kai, Ada's yesterday after long text, and
// Bo's of 2025.
func finderModel(t *testing.T, w, h int, lang Lang, long string) *Model {
	t.Helper()
	f := newFake()
	f.topics["t-a"] = TopicInfo{ID: "t-a", Name: "zoo plans", LastActivity: testNow(), Indexed: true}
	f.topics["t-b"] = TopicInfo{ID: "t-b", Name: "road work and its long name", LastActivity: testNow().Add(-time.Hour), Indexed: true}
	f.topics["t-c"] = TopicInfo{ID: "t-c", Name: "old", LastActivity: testNow().Add(-400 * 24 * time.Hour), Indexed: true}
	f.history["t-a"] = []room.Post{post("a1", "Kai", "a zebra crossing at dawn", 20)}
	f.history["t-b"] = []room.Post{post("b1", "Ada", long+"zebra stripes after it", -24*60)}
	f.history["t-c"] = []room.Post{post("c1", "Bo", "zebra", -400*24*60)}
	opts := testOptions()
	opts.Lang = lang
	opts.StartTopic = "t-a"
	return newTestModel(t, f, opts, w, h)
}

// TestHitWindow: the match whole, the cells beside it shared.
func TestHitWindow(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		before, match, after string
		w                    int
		want                 string
	}{
		{"ab ", "X", " cd", 20, "ab |X| cd"},
		{"0123456789", "X", "abcdefghij", 10, "…89|X|abcde…"},
		{"0123456789", "X", "ab", 10, "…456789|X|ab"},
		{"ab", "X", "0123456789", 10, "ab|X|012345…"},
		{"ab", "XXXXXXXXXXXX", "cd", 5, "|XXXX…|"},
		{"ab", "XX", "cd", 2, "|XX|"},
	} {
		b, m, a := hitWindow(c.before, c.match, c.after, c.w)
		if got := b + "|" + m + "|" + a; got != c.want {
			t.Errorf("%q %q %q in %d: %q, want %q", c.before, c.match, c.after, c.w, got, c.want)
		}
	}
}

// TestFinderJumpsFarBack: a post with more than chatKeep posts after it
// opens the page that ends at it, the newer posts counted under it.
func TestFinderJumpsFarBack(t *testing.T) {
	m, f := searchModel(t)
	for i := 260; i < 1400; i++ {
		f.history["t-far"] = append(f.history["t-far"], post(fmt.Sprintf("f%04d", i), "Kai", fmt.Sprintf("later post %d", i), i))
	}
	send(t, m, press("ctrl+p"))
	typeText(t, m, "quux")
	send(t, m, press("enter"))
	if n := len(m.chat.posts); n != 21 || m.chat.posts[n-1].MessageID != "f020" || m.chat.behind != 1379 {
		t.Fatalf("%d posts, behind %d", n, m.chat.behind)
	}
	v := plain(m)
	if !strings.Contains(v, "the QUUX deploy failed") || !strings.Contains(v, "↓ 1379 newer posts (End)") || strings.Contains(v, "later post") {
		t.Fatalf("not at the post:\n%s", v)
	}
	send(t, m, press("end"))
	if v := plain(m); !strings.Contains(v, "later post 1399") {
		t.Fatalf("End did not read the tail:\n%s", v)
	}
}

// TestFinderSmartCaseAndJapanese: lower case ignores case, a capital
// makes it count; Japanese is found as written.
func TestFinderSmartCaseAndJapanese(t *testing.T) {
	for _, c := range []struct {
		q    string
		hits int
	}{{"quux", 1}, {"QUUX", 1}, {"Quux", 0}, {"検索", 1}, {"日本語の検索 day", 1}, {"検索しない", 0}} {
		m, _ := searchModel(t)
		send(t, m, press("ctrl+p"))
		typeText(t, m, c.q)
		if got := len(m.overlay.picker.hits); got != c.hits {
			t.Errorf("%q: %d hits, want %d", c.q, got, c.hits)
		}
	}
}

// TestFinderSearchIsBounded: a word in 250 posts shows the first 200 and
// says the search stopped there.
func TestFinderSearchIsBounded(t *testing.T) {
	m, _ := searchModel(t)
	send(t, m, press("ctrl+p"))
	typeText(t, m, "routine")
	p := m.overlay.picker
	if len(p.hits) != searchLimit || !p.search.more {
		t.Fatalf("%d hits, more %v", len(p.hits), p.search.more)
	}
	if v := plain(m); !strings.Contains(v, "The first 200 posts found") {
		t.Fatalf("no bound line:\n%s", v)
	}
}

// TestFinderCancelsTheSearchItLeaves: a new query cancels the search
// under way (its late answer is dropped), and so does closing the finder.
func TestFinderCancelsTheSearchItLeaves(t *testing.T) {
	m, f := searchModel(t)
	f.searchGate = make(chan struct{})
	send(t, m, press("ctrl+p"))
	p := m.overlay.picker
	run := func(cmd func() any) chan any {
		ch := make(chan any, 1)
		go func() { ch <- cmd() }()
		return ch
	}
	answer := func(ch chan any) searchDoneMsg {
		t.Helper()
		select {
		case msg := <-ch:
			return msg.(searchDoneMsg)
		case <-time.After(testkit.Wait):
			t.Fatal("the search did not end")
		}
		return searchDoneMsg{}
	}
	// A query's search starts once typing pauses: the tick, then the search.
	start := func(tick tea.Cmd) tea.Cmd {
		t.Helper()
		msg, ok := tick().(searchStartMsg)
		if !ok {
			t.Fatal("the query did not wait for typing to pause")
		}
		return m.onSearchStart(msg)
	}
	p.in.SetValue("qu")
	c1 := start(m.pickerChanged())
	first := run(func() any { return c1() })
	send(t, m, tea.FocusMsg{})
	if !p.search.running || !strings.Contains(plain(m), "Searching the posts") {
		t.Fatalf("no search under way:\n%s", plain(m))
	}
	p.in.SetValue("quux")
	c2 := start(m.pickerChanged())
	old := answer(first)
	if !errors.Is(old.err, context.Canceled) {
		t.Fatalf("the first search ended with %v", old.err)
	}
	send(t, m, old)
	if !p.search.running {
		t.Fatal("the old answer ended the new search")
	}
	close(f.searchGate)
	send(t, m, answer(run(func() any { return c2() })))
	if len(p.hits) != 1 || p.search.running {
		t.Fatalf("hits %d, running %v", len(p.hits), p.search.running)
	}
	f.searchGate = make(chan struct{})
	p.in.SetValue("routine")
	c3 := start(m.pickerChanged())
	third := run(func() any { return c3() })
	send(t, m, press("esc"))
	if msg := answer(third); !errors.Is(msg.err, context.Canceled) {
		t.Fatalf("closing the finder left the search running: %v", msg.err)
	}
}

// TestFinderSearchPanicIsAnError: a search that panics says so in the
// finder; the program goes on.
func TestFinderSearchPanicIsAnError(t *testing.T) {
	m, _ := searchModel(t)
	send(t, m, press("ctrl+p"))
	msg := searchCmd(context.Background(), panicSearch{m.backend}, m.overlay.picker.search.seq, "x")()
	send(t, m, msg)
	if v := plain(m); !strings.Contains(v, "Searching posts failed: search: panic: boom") {
		t.Fatalf("no failure line:\n%s", v)
	}
}

type panicSearch struct{ Backend }

func (panicSearch) SearchPosts(context.Context, string, int) ([]PostHit, bool, error) {
	panic("boom")
}

// TestGoldenFinder: the finder with post hits at 80×24 and 200×60, in
// English and Japanese, the second hit selected.
func TestGoldenFinder(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		w, h int
		lang Lang
	}{
		{"80x24", 80, 24, LangEnglish},
		{"80x24ja", 80, 24, LangJapanese},
		{"200x60", 200, 60, LangEnglish},
		{"200x60ja", 200, 60, LangJapanese},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m := finderModel(t, tc.w, tc.h, tc.lang, strings.Repeat("長い前置きの文 ", 12))
			send(t, m, press("ctrl+p"))
			typeText(t, m, "zebra")
			send(t, m, press("down"))
			golden.RequireEqual(t, m.View().Content)
		})
	}
}
