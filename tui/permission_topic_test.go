package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// cardTitleRow is the row of the card's top border.
func cardTitleRow(t *testing.T, m *Model) string {
	t.Helper()
	for _, l := range strings.Split(plain(m), "\n") {
		if strings.Contains(l, "╭─ ") && !strings.Contains(l, "@") {
			return l
		}
	}
	t.Fatalf("no card:\n%s", plain(m))
	return ""
}

// TestCardFromAnotherTopic (issue 35, a newcomer at 80×24): a card from
// a topic not open says which topic in its title — the "Permission"
// label and the topic's name give way before the tool — so y allows it
// at once; a card whose tool itself does not fit opens its text on y,
// says why on the status line, and once the drawing showed it all its
// keys offer y, which then allows (before: "All 4 rows read." over keys
// that still said "PgDn read on", and y did nothing and said nothing).
func TestCardFromAnotherTopic(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		lang         Lang
		topic, whole string
	}{
		{LangEnglish, "in Fix the", "All 3 rows read."},
		{LangJapanese, "トピック Fix", "全 3 行を読みました。"},
	} {
		t.Run(string(tc.lang), func(t *testing.T) {
			t.Parallel()
			c := bashCard(4)
			c.Topic, c.Summary, c.Suggestions = "t-run", "git status", nil
			f, m := cardScene(t, 80, 24, tc.lang, c)
			send(t, m, press("f7"))
			if title := cardTitleRow(t, m); !strings.Contains(title, tc.topic) || !strings.Contains(title, "Bash") {
				t.Fatalf("the title does not say the tool and the topic: %q", title)
			}
			typeText(t, m, "y")
			if got := f.permAnswers(); len(got) != 1 || !got[0].a.Allow {
				t.Fatalf("y on a card that showed its tool whole: %+v\n%s", got, plain(m))
			}

			long := bashCard(5)
			long.Topic, long.Summary, long.Suggestions = "t-run", "git status", nil
			long.Tool = "mcp__github__create_pull_request_review"
			f, m = cardScene(t, 80, 24, tc.lang, long)
			send(t, m, press("f7"))
			if title := cardTitleRow(t, m); !strings.Contains(title, tc.topic) {
				t.Fatalf("the title lost the topic: %q", title)
			}
			typeText(t, m, "y")
			if len(f.permAnswers()) != 0 {
				t.Fatal("y allowed a card whose tool did not show whole")
			}
			if m.status.level != stWarn || !strings.Contains(m.status.text, "y") {
				t.Fatalf("y said nothing on the status line: %q", m.status.text)
			}
			p := plain(m)
			if !strings.Contains(p, tc.whole) {
				t.Fatalf("the text does not show whole:\n%s", p)
			}
			if !strings.Contains(p, "y "+m.env.tr.t(mCardAllow)) || strings.Contains(p, "PgDn "+m.env.tr.t(mCardReadOn)) {
				t.Fatalf("the card says it was read, its keys do not offer y:\n%s", p)
			}
			typeText(t, m, "y")
			if got := f.permAnswers(); len(got) != 1 || !got[0].a.Allow {
				t.Fatalf("y after the card said it was all read: %+v\n%s", got, plain(m))
			}
		})
	}
}

// TestCardRefusedKeysSay: every card key that answers nothing says why on
// the status line: a (always) on a request with no rules to keep, a
// second answer while the first is on its way.
func TestCardRefusedKeysSay(t *testing.T) {
	t.Parallel()
	c := bashCard(6)
	c.Suggestions = nil
	f, m := cardScene(t, 120, 40, LangEnglish, c)
	send(t, m, press("f7"))
	typeText(t, m, "a")
	if len(f.permAnswers()) != 0 || !strings.Contains(m.status.text, "no rules to keep") {
		t.Fatalf("a with no suggestions: %+v, status %q", f.permAnswers(), m.status.text)
	}
	m.cards.sending = c.ID // as while AnswerPermission runs
	typeText(t, m, "n")
	if len(f.permAnswers()) != 0 || !strings.Contains(m.status.text, "on its way") {
		t.Fatalf("a second answer: %+v, status %q", f.permAnswers(), m.status.text)
	}
}

// TestCardTitleGivesWay: what the request does not carry gives way first
// — the label, then the topic's name, cut — and only a tool that cannot
// show whole marks the title hidden; the title never passes its width.
func TestCardTitleGivesWay(t *testing.T) {
	t.Parallel()
	e := testEnv(LangEnglish)
	card := PermissionCard{Tool: "Bash"}
	info := cardInfo{name: "Claude", topic: "second topic: refactor plan"}
	for _, tc := range []struct {
		w      int
		want   string
		hidden bool
	}{
		{80, "Permission · Claude · Bash · in second topic: refactor plan", false},
		{50, "Claude · Bash · in second topic: refactor plan", false},
		{30, "Claude · Bash · in second top…", false},
		{20, "Claud… · in second …", true},
	} {
		got, hidden := cardTitle(e, card, info, 1, 0, tc.w)
		if s := ansi.Strip(got); s != tc.want || hidden != tc.hidden || ansi.StringWidth(got) > tc.w {
			t.Errorf("at %d cells: %q hidden %v, want %q hidden %v", tc.w, s, hidden, tc.want, tc.hidden)
		}
	}
}

// TestGoldenPermissionCardOtherTopic: a card from a topic not open, at
// 80×24 and 200×60, English and Japanese — focused (the topic in its
// title), then, at 80×24, a card whose tool does not fit after y (its
// text read whole, the keys that allow, why on the status line).
func TestGoldenPermissionCardOtherTopic(t *testing.T) {
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
			c := bashCard(4)
			c.Topic, c.Summary = "t-run", "go test ./... -run Flaky -count 20"
			_, m := cardScene(t, tc.w, tc.h, tc.lang, c)
			send(t, m, press("f7"))
			t.Run("focused", func(t *testing.T) { golden.RequireEqual(t, m.View().Content) })
			if tc.w > 80 {
				return // the tool below fits: y allows at once
			}
			long := c
			long.ID, long.Tool, long.Suggestions = 5, "mcp__github__create_pull_request_review_with_comments_for_every_file", nil
			_, m = cardScene(t, tc.w, tc.h, tc.lang, long)
			send(t, m, press("f7"))
			typeText(t, m, "y")
			t.Run("read", func(t *testing.T) { golden.RequireEqual(t, m.View().Content) })
		})
	}
}
