package tui

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// statusPlain is the status line without styles.
func statusPlain(m *Model) string { return ansi.Strip(m.status.view) }

// topicRowPlain is the topic list's row of topic id without styles.
func topicRowPlain(t *testing.T, m *Model, id string) string {
	t.Helper()
	for y, rid := range m.topics.rowID {
		if rid == id {
			return ansi.Strip(m.topics.view[y])
		}
	}
	t.Fatalf("topic %s has no row in the list", id)
	return ""
}

// TestBrakeChangedMarksTopicAndStatus: BrakeChanged marks the topic in the
// list, the status line says so while the open topic is braked, and the
// release clears both (docs/design.md §2 "The brake").
func TestBrakeChangedMarksTopicAndStatus(t *testing.T) {
	t.Parallel()
	m := sceneModel(t, scene(), 200, 40, LangEnglish)
	if strings.Contains(statusPlain(m), brakeMark) || strings.Contains(topicRowPlain(t, m, "t-main"), brakeMark) {
		t.Fatalf("brake shown before any BrakeChanged:\n%s", plain(m))
	}

	send(t, m, eventsMsg{evs: []Event{BrakeChanged{Topic: "t-main", On: true, Count: 12}}})
	if row := topicRowPlain(t, m, "t-main"); !strings.HasPrefix(strings.TrimLeft(row, " "), brakeMark) {
		t.Fatalf("braked topic row %q lacks %s", row, brakeMark)
	}
	st := statusPlain(m)
	for _, want := range []string{"Brake in “リリース準備”: after 12 AI posts in a row", "Post, or press F9", brakeMark + " brake: F9 releases"} {
		if !strings.Contains(st, want) {
			t.Fatalf("status %q lacks %q", st, want)
		}
	}

	// Another topic's brake marks its row; the status line's marker is the
	// open topic's alone.
	send(t, m, eventsMsg{evs: []Event{BrakeChanged{Topic: "t-main", On: false}, BrakeChanged{Topic: "t-run", On: true, Count: 12}}})
	if row := topicRowPlain(t, m, "t-run"); !strings.Contains(row, brakeMark) || strings.Contains(row, "●") {
		t.Fatalf("braked running topic row %q: want %s in place of ●", row, brakeMark)
	}
	if row := topicRowPlain(t, m, "t-main"); strings.Contains(row, brakeMark) {
		t.Fatalf("released topic row %q still marked", row)
	}
	if st := statusPlain(m); strings.Contains(st, "brake: F9 releases") {
		t.Fatalf("status %q shows the brake of a topic that is not open", st)
	}

	send(t, m, eventsMsg{evs: []Event{BrakeChanged{Topic: "t-run", On: false}}})
	if st := statusPlain(m); !strings.Contains(st, "Brake released in “Fix the flaky test 🧪”") {
		t.Fatalf("status %q does not say the brake was released", st)
	}
}

// TestReleaseBrakeKey: the release key calls ReleaseBrake for the open
// topic while it is braked (the list then follows BrakeChanged), says so
// when no brake is on, and shows a failure; release_brake can be rebound.
func TestReleaseBrakeKey(t *testing.T) {
	t.Parallel()
	f := scene()
	m := sceneModel(t, f, 200, 40, LangEnglish)
	send(t, m, press("f9"))
	if len(f.released) != 0 || !strings.Contains(statusPlain(m), "No brake is on in this topic.") {
		t.Fatalf("f9 without a brake: released %q, status %q", f.released, statusPlain(m))
	}

	send(t, m, eventsMsg{evs: []Event{BrakeChanged{Topic: "t-main", On: true, Count: 12}}})
	m.setFocus(FocusChat) // a global key: it acts whatever widget has focus
	send(t, m, press("f9"))
	if !slices.Equal(f.released, []string{"t-main"}) {
		t.Fatalf("f9 while braked: released %q, want [t-main]", f.released)
	}

	f.releaseErr = errors.New("room closed")
	send(t, m, press("f9"))
	if st := statusPlain(m); !strings.Contains(st, "Brake in “リリース準備” not released: room closed") {
		t.Fatalf("status %q does not show the failure", st)
	}

	opts := testOptions()
	opts.StartTopic = "t-main"
	opts.Keys = map[string][]string{"release_brake": {"ctrl+g"}}
	f2 := scene()
	m2 := newTestModel(t, f2, opts, 200, 40)
	send(t, m2, eventsMsg{evs: []Event{BrakeChanged{Topic: "t-main", On: true, Count: 3}}})
	if !strings.Contains(statusPlain(m2), "brake: Ctrl+G releases") {
		t.Fatalf("status %q does not name the rebound key", statusPlain(m2))
	}
	send(t, m2, press("f9"))
	send(t, m2, press("ctrl+g"))
	if !slices.Equal(f2.released, []string{"t-main"}) {
		t.Fatalf("rebound key: released %q, want [t-main] once", f2.released)
	}
}

// TestBrakedFromTopicList: a UI that starts (or reloads) while a brake is
// on learns it from the topic list.
func TestBrakedFromTopicList(t *testing.T) {
	t.Parallel()
	f := scene()
	ti := f.topics["t-main"]
	ti.Braked = true
	f.topics["t-main"] = ti
	m := sceneModel(t, f, 200, 40, LangJapanese)
	if st := statusPlain(m); !strings.Contains(st, brakeMark+" ブレーキ中: F9 で解除") {
		t.Fatalf("status %q lacks the brake", st)
	}
	if row := topicRowPlain(t, m, "t-main"); !strings.Contains(row, brakeMark) {
		t.Fatalf("row %q lacks %s", row, brakeMark)
	}
}

// TestBrakeNoticeWords: the room's brake notice is in the human's
// language, names the release key as "keys" binds it, and says no reply
// is needed (issue 35: it named the config key in English only, and seats
// answered it).
func TestBrakeNoticeWords(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		lang  Lang
		keys  map[string][]string
		wants []string
	}{
		{LangEnglish, nil, []string{"after 12 AI posts in a row", "presses F9 to release the brake and type the posts it held", "(no reply needed)"}},
		{LangJapanese, nil, []string{"12 件続いた", "F9 でブレーキを解除", "（返信不要）"}},
		{LangEnglish, map[string][]string{"release_brake": {"ctrl+g"}}, []string{"presses Ctrl+G"}},
		{LangEnglish, map[string][]string{"no_such_action": {"x"}}, []string{"presses F9"}},
	} {
		got := BrakeNotice(tc.lang, tc.keys, 12)
		for _, w := range tc.wants {
			if !strings.Contains(got, w) {
				t.Errorf("%s %v: %q lacks %q", tc.lang, tc.keys, got, w)
			}
		}
		if strings.Contains(got, "release_brake") {
			t.Errorf("%s: names the config key: %q", tc.lang, got)
		}
	}
}

// TestBrakeReleaseSaysWhatWasTyped: the status line after a release says
// how many held posts the release typed, that none waited, or that the
// human's post left them in the history (issue 35: F9 seemed to do
// nothing), in both languages.
func TestBrakeReleaseSaysWhatWasTyped(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		lang  Lang
		ev    BrakeChanged
		wants string
	}{
		{LangEnglish, BrakeChanged{Released: true, Typed: 3}, "typed the 3 posts it held"},
		{LangEnglish, BrakeChanged{Released: true, Typed: 32, Dropped: 4}, "typed 32 of the posts it held; 4 more, the oldest of the seats that held the most, are in the history"},
		{LangJapanese, BrakeChanged{Released: true, Typed: 32, Dropped: 4}, "止めていた発言のうち 32 件を打ち込みました。ほかの 4 件"},
		{LangEnglish, BrakeChanged{Released: true}, "no posts were waiting"},
		{LangEnglish, BrakeChanged{Dropped: 2}, "by your post: the 2 posts it held stay in the history"},
		{LangJapanese, BrakeChanged{Released: true, Typed: 3}, "止めていた 3 件の発言を席へ打ち込みました"},
		{LangJapanese, BrakeChanged{Released: true}, "止めていた発言はありません"},
	} {
		m := sceneModel(t, scene(), 200, 40, tc.lang)
		send(t, m, eventsMsg{evs: []Event{BrakeChanged{Topic: "t-main", On: true, Count: 12}}})
		ev := tc.ev
		ev.Topic = "t-main"
		send(t, m, eventsMsg{evs: []Event{ev}})
		if st := statusPlain(m); !strings.Contains(st, tc.wants) {
			t.Errorf("%s %+v: status %q lacks %q", tc.lang, tc.ev, st, tc.wants)
		}
	}
}
