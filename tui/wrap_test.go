package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/pullcept/pullcept/room"
)

// restartNotices are the session operations' restart notice in both
// languages (app/sessionops noticeText), with an id as the demo's model
// chose it.
var restartNotices = map[Lang]string{
	LangEnglish:  "Claude restarted itself (succeeded). (no reply needed)\noperation_id: demo-restart-2cacd726-147b-45c2-b0d7-6fbd1f0c3e21",
	LangJapanese: "Claude が自分を再起動しました（成功）（返信不要）\noperation_id: demo-restart-2cacd726-147b-45c2-b0d7-6fbd1f0c3e21",
}

// TestWrapKinsoku (issue 35: the JA restart notice wrapped as "Claude" /
// "が自分を再起動しました（成功）（" / "返信不要）"): at every width from
// 8 to 60, no line passes the width, starts with a closing mark or ends
// with an opening one; a name stays with the particle after it, a kanji
// compound stays whole; an id joined by hyphens starts its own line and
// breaks only after a hyphen; nothing is lost but the spaces a break
// takes.
func TestWrapKinsoku(t *testing.T) {
	t.Parallel()
	const closing, opening = "）」』】〉》、。)]", "（「『【〈《(["
	texts := []string{restartNotices[LangEnglish], restartNotices[LangJapanese],
		"ブレーキ: 人の発言がないまま AI の発言が 3 件続いたため、部屋は AI の発言を席へ打ち込むのを止めました。発言は届いて記録されています（read_room_history）。続けるには、人が発言するか、F9 でブレーキを解除して止めていた発言を打ち込みます。（返信不要）"}
	for _, s := range texts {
		for w := 8; w <= 60; w++ {
			lines := wrapText(s, w)
			for i, l := range lines {
				if ansi.StringWidth(l) > w {
					t.Errorf("w %d: %q is wider", w, l)
				}
				if r := []rune(l); len(r) > 0 && (i > 0 && strings.ContainsRune(closing, r[0]) || strings.ContainsRune(opening, r[len(r)-1])) {
					t.Errorf("w %d: %q breaks at a bracket: %q", w, l, lines)
				}
				if next := ""; i+1 < len(lines) && (strings.HasSuffix(l, "Claude") || strings.HasSuffix(l, "AI")) {
					next = lines[i+1]
					if strings.HasPrefix(next, "が") || strings.HasPrefix(next, "の") {
						t.Errorf("w %d: a name left its particle: %q", w, lines)
					}
				}
				if i > 0 && strings.HasPrefix(l, "起動") {
					t.Errorf("w %d: 再起動 split: %q", w, lines)
				}
				if strings.Contains(l, "demo-") && !strings.HasPrefix(l, "demo-") {
					t.Errorf("w %d: the id does not start its line: %q", w, lines)
				}
				if i > 0 && strings.Contains(lines[i-1], "demo-restart") && strings.Contains(s, lines[i-1]+l) && !strings.HasSuffix(lines[i-1], "-") && w >= 14 {
					t.Errorf("w %d: the id breaks inside a part: %q", w, lines)
				}
			}
			if strings.Join(strings.Fields(strings.Join(lines, "")), "") != strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", "")), "") {
				t.Errorf("w %d: text lost: %q", w, lines)
			}
		}
	}
	if got := wrapText("    indented  code", 40); got[0] != "    indented  code" {
		t.Errorf("spaces not kept as written: %q", got)
	}
	for w := 1; w <= 20; w++ {
		for _, l := range wrapText("    indented_code_that_is_long  and /a/path/to/a/file.go", w) {
			if ansi.StringWidth(l) > w {
				t.Errorf("w %d: %q is wider", w, l)
			}
		}
	}
	if got := wrapText("allow the folder /tmp/<U+001B>[31mred (this session)", 24); got[1] != "/tmp/<U+001B>[31mred" {
		t.Errorf("a path broke where it fits whole: %q", got)
	}
}

// TestGoldenRestartNotice: the chat with the restart's notice and the
// status line saying the seat is back, at 80×24 and 200×60, English and
// Japanese (issue 35).
func TestGoldenRestartNotice(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		w, h int
		lang Lang
	}{
		{"80x24", 80, 24, LangEnglish},
		{"200x60", 200, 60, LangEnglish},
		{"80x24ja", 80, 24, LangJapanese},
		{"200x60ja", 200, 60, LangJapanese},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m := sceneModel(t, scene(), tc.w, tc.h, tc.lang)
			notice := post("p9", "Pullcept", restartNotices[tc.lang], 7)
			notice.Role, notice.FromApp = room.RoleApp, true
			send(t, m, eventsMsg{evs: []Event{SeatRestart{Topic: "t-main", Account: "lin"},
				SeatChanged{Topic: "t-main", Account: "lin", State: SeatExited, Requested: true},
				SeatChanged{Topic: "t-main", Account: "lin", State: SeatRunning},
				SeatRestart{Topic: "t-main", Account: "lin", Done: true},
				PostDelivered{Topic: "t-main", Post: notice}}})
			golden.RequireEqual(t, m.View().Content)
		})
	}
}
