package tui

import (
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// A seat's start indexes a topic unnamed; when a seat's post is its
// first, the index names it and the list shows the name at once, not
// "Untitled" until a restart (issue 14).
func TestSeatsFirstPostNamesTheListedTopic(t *testing.T) {
	t.Parallel()
	f := scene()
	f.topics["t-seat"] = TopicInfo{ID: "t-seat", Indexed: true, LastActivity: testNow()}
	m := mainModel(t, f)
	if m.topics.named("t-seat") || !strings.Contains(plain(m), "Untitled") {
		t.Fatalf("the seat's topic should be listed unnamed:\n%s", plain(m))
	}
	f.mu.Lock()
	f.topics["t-seat"] = TopicInfo{ID: "t-seat", Name: "lint the parser", Indexed: true, LastActivity: testNow()}
	f.mu.Unlock()
	p := post("s1", "Lin", "lint the parser", 31)
	send(t, m, eventsMsg{evs: []Event{PostDelivered{Topic: "t-seat", Post: p}}})
	if !m.topics.named("t-seat") || !strings.Contains(plain(m), "lint the parser") {
		t.Fatalf("the first post's name is not shown:\n%s", plain(m))
	}
}

// Options.Reopen starts in the topic open last, else the newest, else a
// new one; every switch is remembered (issue 14: a blank "New topic" at
// every start).
func TestReopenStartsInTheLastTopic(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ last, want string }{{"t-old", "t-old"}, {"gone", "t-main"}, {"", "t-main"}} {
		f := scene()
		opts := testOptions()
		opts.Reopen, opts.LastTopic = true, tc.last
		m := newTestModel(t, f, opts, 120, 40)
		if m.topics.open != tc.want || len(m.chat.posts) == 0 && tc.want == "t-main" {
			t.Fatalf("last %q: open %q, want %q", tc.last, m.topics.open, tc.want)
		}
		if n := len(f.remembered); n == 0 || f.remembered[n-1] != tc.want {
			t.Fatalf("last %q: remembered %v", tc.last, f.remembered)
		}
	}
	f := newFake()
	opts := testOptions()
	opts.Reopen, opts.LastTopic = true, "gone"
	if m := newTestModel(t, f, opts, 120, 40); m.topics.open != "new-1" {
		t.Fatalf("no topics: open %q, want a new one", m.topics.open)
	}
}

// The list is a share of the screen, grown with it to show names whole
// (issue 14: 16 cells at 250 columns), never with its names (issue 35: a
// first post's rename widened it and resized every seat's pane); a name
// that does not fit is cut with "…".
func TestTopicListWidthIgnoresItsNames(t *testing.T) {
	t.Parallel()
	f := scene()
	long := "Parser review: the tokenizer test fails on CRLF input files"
	f.topics["t-long"] = TopicInfo{ID: "t-long", Name: long, Indexed: true, LastActivity: testNow().Add(-time.Hour)}
	f.topics["t-seat"] = TopicInfo{ID: "t-seat", Indexed: true, LastActivity: testNow()}
	opts := testOptions()
	opts.StartTopic = "t-main"
	m := newTestModel(t, f, opts, 200, 40)
	if m.layout.Topics.W != 48 {
		t.Fatalf("topic list %d wide at 200 columns", m.layout.Topics.W)
	}
	v := plain(m)
	if !strings.Contains(v, "Fix the flaky test 🧪") || !strings.Contains(v, "Parser review: the tokenizer test fail…") {
		t.Fatalf("names not shown whole, or cut without …:\n%s", v)
	}
	send(t, m, tea.WindowSizeMsg{Width: 100, Height: 40})
	if m.layout.Topics.W != 25 || !strings.Contains(plain(m), "Parser review: … Today") {
		t.Fatalf("at 100 columns: %d wide\n%s", m.layout.Topics.W, plain(m))
	}
	// A first post names a topic (issue 35): the list keeps its width, the
	// chat and every pane keep their size.
	f = scene()
	f.topics["t-seat"] = TopicInfo{ID: "t-seat", Indexed: true, LastActivity: testNow()}
	m = newTestModel(t, f, opts, 200, 40)
	before := m.layout
	f.mu.Lock()
	f.topics["t-seat"] = TopicInfo{ID: "t-seat", Name: strings.Repeat("a very long first post ", 4), Indexed: true, LastActivity: testNow()}
	f.mu.Unlock()
	send(t, m, eventsMsg{evs: []Event{PostDelivered{Topic: "t-seat", Post: post("s1", "Lin", "a very long first post", 31)}}})
	if !m.topics.named("t-seat") || !reflect.DeepEqual(m.layout, before) {
		t.Fatalf("a rename moved the layout: %+v → %+v", before, m.layout)
	}
}

// A post another topic got is counted beside its name, "@" first when it
// is to the human; opening the topic clears both (issue 14).
func TestUnreadTopicsCountAndMarkPostsToTheHuman(t *testing.T) {
	t.Parallel()
	m := mainModel(t, scene())
	p1 := post("o1", "Lin", "a note", 31)
	send(t, m, eventsMsg{evs: []Event{PostDelivered{Topic: "t-old", Post: p1}}})
	if row := rowOf(plain(m), "設計の相談"); !strings.Contains(row, "(1)") || strings.Contains(row, "@") {
		t.Fatalf("one unaddressed post: %q", row)
	}
	p2 := post("o2", "Lin", "a question", 32)
	p2.To = []string{"Lay", "マスター"}
	send(t, m, eventsMsg{evs: []Event{PostDelivered{Topic: "t-old", Post: p2}}})
	if row := rowOf(plain(m), "設計の相談"); !strings.Contains(row, "@(2)") {
		t.Fatalf("a post to the human: %q", row)
	}
	m.switchTopic("t-old")
	send(t, m, nil)
	if row := rowOf(plain(m), "設計の相談"); strings.Contains(row, "(") {
		t.Fatalf("opened, still unread: %q", row)
	}
}

// rowOf is the first screen row holding s.
func rowOf(screen, s string) string {
	for _, row := range strings.Split(screen, "\n") {
		if strings.Contains(row, s) {
			return row
		}
	}
	return ""
}

// A notice expires after its time and at a topic switch, an error too (it
// stays in the messages overlay; issue 35: a stale error stayed in the
// next topic); one timer runs at a time (issue 14: "Renamed topic to …"
// stayed through topic switches).
func TestStatusNoticesExpire(t *testing.T) {
	t.Parallel()
	m := mainModel(t, scene())
	var armed []time.Duration
	var fire []tea.Msg
	m.status.after = func(d time.Duration, msg tea.Msg) tea.Cmd {
		armed, fire = append(armed, d), append(fire, msg)
		return nil
	}
	m.setStatus(stInfo, "first")
	send(t, m, nil)
	m.setStatus(stInfo, "second")
	send(t, m, nil)
	if len(armed) != 1 || armed[0] != 6*time.Second {
		t.Fatalf("timers armed: %v", armed)
	}
	send(t, m, fire[0]) // the first report's timer: the second gets its own
	if m.status.text != "second" || len(fire) != 2 {
		t.Fatalf("a stale timer cleared %q (timers %d)", m.status.text, len(fire))
	}
	send(t, m, fire[1])
	if m.status.text != "" || strings.Contains(plain(m), "second") {
		t.Fatalf("the notice did not expire: %q", m.status.text)
	}

	m.setStatus(stInfo, "Renamed topic to “x”.")
	send(t, m, press("alt+down"))
	if strings.Contains(plain(m), "Renamed topic") {
		t.Fatalf("a notice outlived the switch:\n%s", plain(m))
	}
	m.setStatus(stError, "it failed")
	send(t, m, nil)
	if armed[len(armed)-1] != 20*time.Second {
		t.Fatalf("an error's timer: %v", armed)
	}
	send(t, m, press("alt+down"))
	if m.status.text != "" || m.status.log[len(m.status.log)-1].text != "it failed" {
		t.Fatalf("an error after a switch: shown %q, last kept %q", m.status.text, m.status.log[len(m.status.log)-1].text)
	}
}

// An account row cuts its name with "…" and keeps its word whole (issue
// 14: the selected row read "› Claudia  runni").
func TestAccountRowKeepsItsWord(t *testing.T) {
	t.Parallel()
	e := &mainModel(t, scene()).env
	for _, w := range []int{12, 22, 28} {
		row := ansi.Strip(nameAndWord(e, e.th.text, "Claudia the careful reviewer", "running", toneDim, w))
		if ansi.StringWidth(row) != w || !strings.HasSuffix(row, " running") || !strings.Contains(row, "…") {
			t.Fatalf("%d cells: %q", w, row)
		}
	}
}

// Opening a topic with unread posts draws a "new" rule above the first of
// them (newcomer review: after "(2)" nothing in the chat said where the
// new posts begin); the next topic opened has none.
func TestOpenedTopicMarksWhereTheNewPostsBegin(t *testing.T) {
	t.Parallel()
	f := scene()
	m := mainModel(t, f)
	p1, p2 := post("o1", "Lin", "a note", 31), post("o2", "Lin", "a question", 32)
	f.history["t-old"] = append(f.history["t-old"], p1, p2)
	send(t, m, eventsMsg{evs: []Event{PostDelivered{Topic: "t-old", Post: p1}, PostDelivered{Topic: "t-old", Post: p2}}})
	for _, c := range m.switchTopic("t-old") {
		drive(t, m, c)
	}
	lines := strings.Split(plain(m), "\n")
	for i, l := range lines {
		if strings.Contains(l, "a note") {
			if i < 2 || !strings.Contains(lines[i-1]+lines[i-2], "── new ──") {
				t.Fatalf("no rule above the first unread post:\n%s", plain(m))
			}
			if strings.Count(plain(m), "── new ──") != 1 {
				t.Fatalf("more than one rule:\n%s", plain(m))
			}
			for _, c := range m.switchTopic("t-main") {
				drive(t, m, c)
			}
			if strings.Contains(plain(m), "── new ──") {
				t.Fatalf("a topic without unread posts has the rule:\n%s", plain(m))
			}
			return
		}
	}
	t.Fatalf("the unread posts are not shown:\n%s", plain(m))
}

// TestTopicDates: a topic's date as the spec says it (spec «トピックの一覧»
// #225, issue 34 item 23): today, the month and day this year, with the
// year before — the year alone when the full date would leave its name
// fewer than topicNameMin cells.
func TestTopicDates(t *testing.T) {
	t.Parallel()
	en, ja := testEnv(LangEnglish), testEnv(LangJapanese)
	today := testNow().Add(-5 * time.Hour)
	sep := time.Date(2026, 9, 28, 23, 59, 0, 0, testLoc)
	old := time.Date(2025, 3, 4, 5, 0, 0, 0, testLoc)
	for _, tc := range []struct {
		e    *env
		at   time.Time
		room int
		want string
	}{
		{en, today, 20, "Today"}, {ja, today, 20, "今日"},
		{en, sep, 20, "Sep 28"}, {ja, sep, 20, "9月28日"},
		{en, old, 20, "Mar 4, 2025"}, {ja, old, 20, "2025年3月4日"},
		{en, old, 10, "2025"}, {ja, old, 11, "2025年"},
		{en, sep, 2, "Sep 28"}, // this year's dates never shorten
		{en, time.Time{}, 20, ""},
	} {
		if got := shortDate(tc.e, tc.at, tc.room); got != tc.want {
			t.Errorf("%s %v in %d cells: %q, want %q", tc.e.tr.lang, tc.at, tc.room, got, tc.want)
		}
	}
}

// TestNewTopicRowMarksASeatStarting: while a seat starts or runs in the
// open topic before the start indexed it, "+ New topic" carries ● (spec
// «トピックの一覧» #141, issue 34 item 23); listed, the topic's own row
// does.
func TestNewTopicRowMarksASeatStarting(t *testing.T) {
	t.Parallel()
	f := scene()
	m := newTestModel(t, f, testOptions(), 120, 40)
	newRow := func() string { return rowOf(plain(m), "+ New topic") }
	if m.topics.open != "new-1" || strings.Contains(newRow(), "●") {
		t.Fatalf("open %q, new row %q: want new-1, no mark", m.topics.open, newRow())
	}
	toParticipants(t, m, "lin")
	_, cmd := m.Update(press("s")) // the start is asked, not answered yet
	if !m.seats.starting[seatKey{"new-1", "lin"}] || !strings.Contains(newRow(), "+ New topic ●") {
		t.Fatalf("a seat starting: new row %q, want it marked", newRow())
	}
	drive(t, m, cmd) // it runs; the index has not listed the topic yet
	if len(m.seats.starting) != 0 || !strings.Contains(newRow(), "●") {
		t.Fatalf("a seat running, the topic not listed yet: new row %q, want it marked", newRow())
	}
	f.mu.Lock()
	f.topics["new-1"] = TopicInfo{ID: "new-1", Indexed: true, Running: true, LastActivity: testNow()}
	f.mu.Unlock()
	send(t, m, eventsMsg{evs: []Event{SeatChanged{Topic: "new-1", Account: "lin", State: SeatRunning}}})
	if strings.Contains(newRow(), "●") || !strings.Contains(rowOf(plain(m), "Untitled"), "●") {
		t.Fatalf("listed: new row %q, want no mark; the topic's row carries it:\n%s", newRow(), plain(m))
	}
}
