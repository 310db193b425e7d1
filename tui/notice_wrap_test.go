package tui

import (
	"strings"
	"testing"
	"unicode"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/pullcept/pullcept/room"
)

// TestNoticeWrapKeepsJapaneseLinesWhole: Pullcept's brake notice in
// Japanese, drawn in the chat at every width from 26 to 120 (below, its
// widest run, "（read_room_history）。", is cut where it must), breaks no
// line before a closing mark (、。）」…) or after an opening one, never
// parts a Latin word from the particle after it (AI の, F9 で), and loses
// nothing (issue 35: "AI" stood alone on a line and one began with
// "、人が発言するか"). The English notice still wraps at its spaces.
func TestNoticeWrapKeepsJapaneseLinesWhole(t *testing.T) {
	t.Parallel()
	for _, lang := range []Lang{LangJapanese, LangEnglish} {
		e := testEnv(lang)
		text := BrakeNotice(lang, nil, 12)
		p := post("n1", "Pullcept", text, 7)
		p.Role, p.FromApp = room.RoleApp, true
		for inner := 26; inner <= 120; inner++ {
			d := renderPost(e, p, " ", inner, -1)
			var lines []string
			for _, l := range d.lines[1:] {
				l = strings.TrimSpace(ansi.Strip(l))
				if ansi.StringWidth(l) > inner-2 {
					t.Fatalf("%s %d: %q is wider than the chat", lang, inner, l)
				}
				lines = append(lines, l)
			}
			squeeze := func(s string) string { return strings.ReplaceAll(s, " ", "") }
			if squeeze(strings.Join(lines, "")) != squeeze(text) {
				t.Fatalf("%s %d: the notice lost text: %q", lang, inner, lines)
			}
			for i, l := range lines {
				first, last := []rune(l)[0], []rune(l)[len([]rune(l))-1]
				if strings.ContainsRune("、。）」』】〉》，．・：；！？", first) {
					t.Errorf("%s %d: line %d starts with %q: %q", lang, inner, i, first, lines)
				}
				if strings.ContainsRune("（「『【〈《", last) {
					t.Errorf("%s %d: line %d ends with %q: %q", lang, inner, i, last, lines)
				}
				if i+1 < len(lines) && last < 0x80 && (unicode.IsLetter(last) || unicode.IsDigit(last)) &&
					unicode.In([]rune(lines[i+1])[0], unicode.Hiragana) {
					t.Errorf("%s %d: a Latin word left its particle: %q / %q", lang, inner, l, lines[i+1])
				}
			}
			if lang == LangEnglish && inner == 60 && lines[0] != "Brake: after 12 AI posts in a row with no post from the" {
				t.Errorf("English at 60: %q", lines)
			}
		}
	}
}

// TestGoldenBrakeNotice: the room's brake notice as the app words it, in
// the chat at 80×24 and 200×60, English and Japanese.
func TestGoldenBrakeNotice(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		w, h int
		lang Lang
	}{{"80x24", 80, 24, LangEnglish}, {"80x24ja", 80, 24, LangJapanese}, {"200x60", 200, 60, LangEnglish}, {"200x60ja", 200, 60, LangJapanese}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f, events := brakedScene()
			ps := f.history["t-main"]
			ps[len(ps)-1].Content = BrakeNotice(tc.lang, nil, 12)
			m := sceneModel(t, f, tc.w, tc.h, tc.lang)
			send(t, m, eventsMsg{evs: events})
			golden.RequireEqual(t, m.View().Content)
		})
	}
}
