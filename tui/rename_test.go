package tui

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// renameRow is the screen row holding the real cursor, split at it.
func renameRow(t *testing.T, m *Model) (before, after string) {
	t.Helper()
	v := m.View()
	if v.Cursor == nil {
		t.Fatalf("no caret on screen:\n%s", ansi.Strip(v.Content))
	}
	row := strings.Split(ansi.Strip(v.Content), "\n")[v.Cursor.Y]
	x0 := m.layout.Topics.X + 2 // the gutter and the marker
	return ansi.Cut(row, x0, v.Cursor.X), ansi.Cut(row, v.Cursor.X, m.layout.Topics.X+m.layout.Topics.W-1)
}

// TestRenameShowsTheCaretWhereTyped: at 80×24 in Japanese, F2 on a name
// longer than its row puts the real cursor (the caret, where an IME opens)
// right after the name's end, which shows; typing and Backspace act on
// what shows beside the caret, and Home brings the start back (issue 35:
// the caret was out of sight, and X, BS, BS, 改名 on 「テスト用のトピック…」
// ate letters nobody saw). Enter saves the value as typed.
func TestRenameShowsTheCaretWhereTyped(t *testing.T) {
	t.Parallel()
	f := scene()
	tm := f.topics["t-main"]
	tm.Name = "テスト用のトピックの名前です"
	f.topics["t-main"] = tm
	m := sceneModel(t, f, 80, 24, LangJapanese)
	send(t, m, press("f2"))
	if !m.topics.renaming {
		t.Fatal("f2 did not open the prompt")
	}
	if !strings.Contains(plain(m), "Enter で決定、Esc で取消") {
		t.Fatalf("the status line does not say how the prompt ends:\n%s", plain(m))
	}
	steps := []struct {
		do     func()
		before string // what the row shows just before the caret
	}{
		{func() {}, "名前です"},
		{func() { typeText(t, m, "X") }, "名前ですX"},
		{func() { send(t, m, press("backspace")) }, "名前です"},
		{func() { send(t, m, press("backspace")) }, "の名前で"},
		{func() { typeText(t, m, "改名") }, "名前で改名"},
	}
	for i, s := range steps {
		s.do()
		before, after := renameRow(t, m)
		if !strings.HasSuffix(strings.TrimRight(before, " "), s.before) || strings.TrimSpace(after) != "" {
			t.Fatalf("step %d: the row reads %q|%q, want %q right before the caret", i, before, after, s.before)
		}
	}
	send(t, m, press("home"))
	if before, after := renameRow(t, m); before != "" || !strings.HasPrefix(after, "テスト用の") {
		t.Fatalf("home: the row reads %q|%q", before, after)
	}
	send(t, m, press("enter"))
	if len(f.renamed) != 1 || f.renamed[0] != "t-main=テスト用のトピックの名前で改名" {
		t.Fatalf("renamed %v", f.renamed)
	}
	if c := m.View().Cursor; c != nil && c.X < m.layout.Topics.X+m.layout.Topics.W || strings.Contains(plain(m), "Enter で決定") {
		t.Fatalf("the caret or the prompt's hint outlived it:\n%s", plain(m))
	}
}

// TestRenameANewTopicBeforeItsFirstPost: F2 on the open topic before
// anyone spoke names it on its "+ New topic" row (the index takes it; issue
// 35: F2 did nothing and said nothing there); with the topic list hidden F2
// says how to show it.
func TestRenameANewTopicBeforeItsFirstPost(t *testing.T) {
	t.Parallel()
	for _, lang := range []Lang{LangEnglish, LangJapanese} {
		f := scene()
		m := newTestModel(t, f, testOptionsLang(lang), 80, 24)
		if m.topics.indexed(m.topics.open) {
			t.Fatal("the test needs an unindexed topic open")
		}
		send(t, m, press("f2"))
		if !m.topics.renaming {
			t.Fatalf("%s: f2 on a new topic opened no prompt", lang)
		}
		typeText(t, m, "計画")
		if before, _ := renameRow(t, m); strings.TrimSpace(before) != "計画" {
			t.Fatalf("%s: the prompt reads %q", lang, before)
		}
		send(t, m, press("enter"))
		if len(f.renamed) != 1 || f.renamed[0] != m.topics.open+"=計画" {
			t.Fatalf("%s: renamed %v", lang, f.renamed)
		}
		if !m.topics.indexed(m.topics.open) || !strings.Contains(plain(m), "計画") {
			t.Fatalf("%s: the named topic is not listed:\n%s", lang, plain(m))
		}

		send(t, m, press("ctrl+b"))
		send(t, m, press("f2"))
		want := map[Lang]string{LangEnglish: "the topic list is hidden (Ctrl+B shows it)", LangJapanese: "トピック一覧が隠れています（Ctrl+B で表示）"}[lang]
		if m.topics.renaming || !strings.Contains(plain(m), want) {
			t.Fatalf("%s: f2 with the list hidden: renaming %v\n%s", lang, m.topics.renaming, plain(m))
		}
	}
}

func testOptionsLang(lang Lang) Options {
	o := testOptions()
	o.Lang = lang
	return o
}

// TestFieldWindowKeepsTheCaretInSight: for any value, caret and width the
// window is exactly w cells, wide characters whole, the caret inside it,
// the rune before the caret (what Backspace deletes) shown right before
// it and the rune at the caret right after it.
func TestFieldWindowKeepsTheCaretInSight(t *testing.T) {
	t.Parallel()
	alphabet := []rune("abcXYZ 日本語のトピック名前😀é")
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		n := rng.IntN(30)
		rs := make([]rune, n)
		for i := range rs {
			rs[i] = alphabet[rng.IntN(len(alphabet))]
		}
		pos, w, start := rng.IntN(n+1), 3+rng.IntN(20), rng.IntN(n+1)
		text, cx, ns := fieldWindow(string(rs), pos, w, start)
		if ansi.StringWidth(text) != w || cx < 0 || cx >= w || ns > pos {
			t.Fatalf("%q pos %d w %d: %q caret %d start %d", string(rs), pos, w, text, cx, ns)
		}
		shown := string(rs[ns:])
		if !strings.HasPrefix(shown, strings.TrimRight(text, " ")) && !strings.HasPrefix(text, shown) {
			t.Fatalf("%q pos %d w %d: %q does not show the runes from %d", string(rs), pos, w, text, ns)
		}
		caretW := 1
		if pos < n {
			caretW = ansi.StringWidth(string(rs[pos]))
		}
		if pos > 0 && ansi.StringWidth(string(rs[pos-1]))+caretW <= w && !strings.HasSuffix(ansi.Cut(text, 0, cx), string(rs[pos-1])) {
			t.Fatalf("%q pos %d w %d: %q caret %d hides the rune before it", string(rs), pos, w, text, cx)
		}
		if pos < n && !strings.HasPrefix(ansi.Cut(text, cx, w), string(rs[pos])) {
			t.Fatalf("%q pos %d w %d: %q caret %d hides the rune at it", string(rs), pos, w, text, cx)
		}
	}
}

// TestGoldenRename: the rename prompt on a long name after typing, at
// 80×24 and 200×60 in English and Japanese; the last line is where the real
// cursor stands.
func TestGoldenRename(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		w, h int
		lang Lang
	}{{"80x24", 80, 24, LangEnglish}, {"80x24ja", 80, 24, LangJapanese}, {"200x60", 200, 60, LangEnglish}, {"200x60ja", 200, 60, LangJapanese}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := scene()
			tm := f.topics["t-main"]
			tm.Name = "テスト用のトピックの名前です"
			f.topics["t-main"] = tm
			m := sceneModel(t, f, tc.w, tc.h, tc.lang)
			send(t, m, press("f2"))
			typeText(t, m, " v2")
			v := m.View()
			golden.RequireEqual(t, fmt.Sprintf("%s\ncursor %d,%d", v.Content, v.Cursor.X, v.Cursor.Y))
		})
	}
}
