package tui

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// catalogVerb matches a fmt verb, with its optional explicit argument index.
var catalogVerb = regexp.MustCompile(`%(?:\[(\d+)\])?[-+# 0]*\d*(?:\.\d+)?([a-zA-Z%])`)

// catalogArgs maps each argument a catalog text formats (1-based) to its
// verb, as fmt reads them: an explicit index sets the position.
func catalogArgs(s string) map[int]string {
	out := map[int]string{}
	next := 1
	for _, m := range catalogVerb.FindAllStringSubmatch(s, -1) {
		if m[2] == "%" {
			continue
		}
		if m[1] != "" {
			next, _ = strconv.Atoi(m[1])
		}
		out[next] = m[2]
		next++
	}
	return out
}

// TestCatalogVerbsMatch: every text formats the same arguments with the
// same verbs in both languages (a Japanese text may reorder them).
func TestCatalogVerbsMatch(t *testing.T) {
	t.Parallel()
	for k, e := range messages {
		en, ja := catalogArgs(e[0]), catalogArgs(e[1])
		if len(en) != len(ja) {
			t.Errorf("catalog key %d: %q and %q format different arguments", k, e[0], e[1])
			continue
		}
		for i, v := range en {
			if ja[i] != v {
				t.Errorf("catalog key %d: argument %d is %%%s in %q, %%%s in %q", k, i, v, e[0], ja[i], e[1])
			}
		}
	}
}

// deliverySeat is Lin's seat in the scene with every delivery field set:
// a post stuck, one pending, the last taken (p2, in the chat), two never
// taken (p6, and the notice p4), three fused submits.
func deliverySeat() SeatInfo {
	s := scene().seats["t-main"][0]
	s.Confirming = true
	s.Held, s.HeldFor = 2, HoldStuck
	s.Stuck, s.Pending = "p7", "p8"
	s.Confirmed, s.ConfirmedAt = "p2", time.Date(2026, 10, 2, 9, 2, 0, 0, testLoc)
	s.Unconfirmed = []string{"p4", "p6"}
	s.Fused = 3
	return s
}

// plainLines strips styles and the padding at the end of each line.
func plainLines(ls []string) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = strings.TrimRight(ansi.Strip(l), " ")
	}
	return out
}

// TestDeliveryDetails: the details of a seat whose CLI confirms each post
// say, in both languages, the post it did not take and what to do, the one
// typed and not taken yet, the last it took (its time and the start of its
// body), how many it never took, and fused submits; a seat that does not
// confirm has no such section and its rows stay as they were.
func TestDeliveryDetails(t *testing.T) {
	t.Parallel()
	s := deliverySeat()
	for _, tc := range []struct {
		lang Lang
		want []string
	}{
		{LangEnglish, []string{
			" ─ delivery ─",
			" stuck   a post not taken: Enter in its pane sends it, Ctrl+U clears it",
			" pending typed, not taken yet",
			` taken   09:02 "了解です 👍 まずテストを全部回します。"`,
			" missed  2 never taken; see the chat",
			" fused   3× posts merged in one submit",
		}},
		{LangJapanese, []string{
			" ─ 投稿の受け取り ─",
			" 詰まり   投稿が未受理。端末で Enter で送信、Ctrl+U で消去",
			" 受取待ち 打ち込み済み、受け取り待ち",
			" 受取     09:02「了解です 👍 まずテストを全部回します。」",
			" 未受理   2件・会話に印",
			" 結合     3回：複数の投稿を一度に送信",
		}},
	} {
		e := testEnv(tc.lang)
		got := plainLines(detailLines(e, "Lin", s, nil, "了解です 👍 まずテストを全部回します。", 100, 100))
		text := strings.Join(got, "\n")
		at := -1
		for _, w := range tc.want {
			i := slices.IndexFunc(got, func(l string) bool { return strings.HasPrefix(l, w) })
			if i <= at {
				t.Fatalf("%s: %q missing or out of order:\n%s", tc.lang, w, text)
			}
			at = i
		}
		// What is not there is not said.
		quiet := s
		quiet.Stuck, quiet.Pending, quiet.Unconfirmed, quiet.Fused, quiet.Confirmed = "", "", nil, 0, ""
		got = plainLines(detailLines(e, "Lin", quiet, nil, "", 100, 100))
		none := e.tr.t(mDetNone)
		if f := strings.Fields(got[len(got)-1]); !slices.Equal(f, []string{e.tr.t(mDetTaken), none}) ||
			strings.Contains(strings.Join(got, "\n"), e.tr.t(mDetStuck)) {
			t.Fatalf("%s: a quiet seat's delivery:\n%s", tc.lang, strings.Join(got, "\n"))
		}
		// A post the chat does not hold: its time only.
		got = plainLines(detailLines(e, "Lin", s, nil, "", 100, 100))
		if !slices.ContainsFunc(got, func(l string) bool { return strings.HasSuffix(l, " 09:02") }) {
			t.Fatalf("%s: the taken post without its body:\n%s", tc.lang, strings.Join(got, "\n"))
		}
		// Not confirming: the details as before, label column included.
		off := s
		off.Confirming = false
		before := SeatInfo{Topic: s.Topic, Account: s.Account, State: s.State}
		if a, b := detailLines(e, "Lin", off, nil, "x", 40, 100), detailLines(e, "Lin", before, nil, "", 40, 100); strings.Join(a, "\n") != strings.Join(b, "\n") {
			t.Fatalf("%s: details of a seat that does not confirm changed:\n%s", tc.lang, strings.Join(plainLines(a), "\n"))
		}
	}
}

// TestDeliveryDetailsInThePanel: the focused panel's details show the
// delivery of the selected seat, the last post it took looked up in the
// chat; every line fits the panel.
func TestDeliveryDetailsInThePanel(t *testing.T) {
	t.Parallel()
	for _, lang := range []Lang{LangEnglish, LangJapanese} {
		f := scene()
		f.seats["t-main"][0] = deliverySeat()
		m := sceneModel(t, f, 200, 60, lang)
		toParticipants(t, m, "lin")
		v := plain(m)
		want := `09:02 "了解です 👍 …"`
		if lang == LangJapanese {
			want = "09:02「了解です …」"
		}
		for _, w := range []string{want, m.env.tr.t(mDetDelivery), m.env.tr.t(mDetMissed), m.env.tr.t(mDetFused)} {
			if !strings.Contains(v, w) {
				t.Fatalf("%s: the panel lacks %q:\n%s", lang, w, v)
			}
		}
		for _, l := range m.accounts.panel.view {
			if ansi.StringWidth(l) != m.accounts.panel.w {
				t.Fatalf("%s: a panel line of %d cells in %d: %q", lang, ansi.StringWidth(l), m.accounts.panel.w, ansi.Strip(l))
			}
		}
	}
}

// chatRows are the chat's rows as plain text, without trailing blanks.
func chatRows(m *Model) []string { return plainLines(m.chat.view) }

// isClock reports whether s is a post's time alone ("09:06").
func isClock(s string) bool {
	_, err := time.Parse("15:04", s)
	return err == nil
}

// TestChatMarksPostsNotTaken: a post a seat of the topic never took has a
// line under it naming the seat (several: all of them), in the human's
// language, own posts and folded notices too; the line goes when the seat
// no longer lists it, and is within the chat's width.
func TestChatMarksPostsNotTaken(t *testing.T) {
	t.Parallel()
	f := scene()
	f.seats["t-main"][0] = deliverySeat()
	m := mainModel(t, f)
	rows := chatRows(m)
	under := func(body, line string) {
		t.Helper()
		i := slices.IndexFunc(rows, func(l string) bool { return strings.Contains(l, body) })
		if i >= 0 && i+1 < len(rows) && isClock(strings.TrimSpace(rows[i+1])) {
			i++ // an own post's time, its foot (spec #225)
		}
		if i < 0 || i+1 >= len(rows) || strings.TrimSpace(rows[i+1]) != line {
			t.Fatalf("no %q under %q:\n%s", line, body, strings.Join(rows, "\n"))
		}
	}
	under("line is long enough to wrap", "⚠ Lin did not take this post — see its pane")
	under("github (3)", "⚠ Lin did not take a notice here — open it to see which")
	if n := strings.Count(plain(m), "did not take"); n != 2 {
		t.Fatalf("%d lines say so", n)
	}
	// The body starts where the post's text does.
	i := slices.IndexFunc(rows, func(l string) bool { return strings.Contains(l, "⚠ Lin did not take this post") })
	if got, want := strings.Index(rows[i], "⚠"), strings.Index(rows[i-1], "line is"); got != want {
		t.Fatalf("the line starts at %d, the post's text at %d", got, want)
	}
	// The same lists again: nothing to redraw.
	gen := m.chat.untakenGen
	send(t, m, eventsMsg{evs: []Event{SeatUpdated{Topic: "t-main", Account: "lin"}}})
	if m.chat.untakenGen != gen {
		t.Fatal("the chat redrew for the same posts not taken")
	}
	// Two seats; an own post, on the right.
	f.seats["t-main"] = append(f.seats["t-main"], SeatInfo{Topic: "t-main", Account: "lay", State: SeatRunning, Confirming: true, Unconfirmed: []string{"p6", "p7"}})
	send(t, m, eventsMsg{evs: []Event{SeatUpdated{Topic: "t-main", Account: "lay"}}})
	rows = chatRows(m)
	under("line is long enough to wrap", "⚠ Lay, Lin did not take this post — see their panes")
	under("ありがとう。", "⚠ Lay did not take this post — see its pane")
	if j := slices.IndexFunc(rows, func(l string) bool { return strings.Contains(l, "⚠ Lay did not take") }); ansi.StringWidth(rows[j]) != ansi.StringWidth(rows[j-2]) {
		t.Fatalf("the own post's line is not at the right edge:\n%s\n%s", rows[j-1], rows[j])
	}
	// A seat renamed: its new name.
	accs := slices.Clone(m.accounts.list)
	for i := range accs {
		if accs[i].ID == "lay" {
			accs[i].Nickname = "Layla"
		}
	}
	send(t, m, accountsLoadedMsg{accounts: accs})
	if v := plain(m); !strings.Contains(v, "⚠ Layla did not take this post") {
		t.Fatalf("the renamed seat:\n%s", v)
	}
	// Taken after all, or a seat that does not confirm: no line.
	f.seats["t-main"] = f.seats["t-main"][:1]
	f.seats["t-main"][0].Unconfirmed = nil
	send(t, m, eventsMsg{evs: []Event{SeatUpdated{Topic: "t-main", Account: "lin"}}})
	if v := plain(m); strings.Contains(v, "did not take") {
		t.Fatalf("a line stayed:\n%s", v)
	}
	f.seats["t-main"][0].Unconfirmed, f.seats["t-main"][0].Confirming = []string{"p6"}, false
	send(t, m, eventsMsg{evs: []Event{SeatUpdated{Topic: "t-main", Account: "lin"}}})
	if v := plain(m); strings.Contains(v, "did not take") {
		t.Fatalf("a seat that does not confirm marked a post:\n%s", v)
	}
}

// TestChatNotTakenLineJapaneseAndNarrow: the line is in the human's
// language, and at 80 columns cut within the chat's width.
func TestChatNotTakenLineJapaneseAndNarrow(t *testing.T) {
	t.Parallel()
	f := scene()
	f.seats["t-main"][0] = deliverySeat()
	m := sceneModel(t, f, 120, 40, LangJapanese)
	if v := plain(m); !strings.Contains(v, "⚠ Lin はこの投稿を受け取っていません（端末を参照）") ||
		!strings.Contains(v, "⚠ Lin が受け取っていない通知があります（開いて確認）") {
		t.Fatalf("not in Japanese:\n%s", v)
	}
	for _, lang := range []Lang{LangEnglish, LangJapanese} {
		m := sceneModel(t, f, 80, 24, lang)
		for _, l := range m.chat.view {
			if ansi.StringWidth(l) != m.chat.w {
				t.Fatalf("%s: a chat row of %d cells in %d: %q", lang, ansi.StringWidth(l), m.chat.w, ansi.Strip(l))
			}
			if p := ansi.Strip(l); strings.Contains(p, "⚠ Lin") && strings.HasSuffix(strings.TrimRight(p, " "), "…") {
				t.Fatalf("%s: the line is cut at 80 columns: %q", lang, p)
			}
		}
		joined := strings.Join(chatRows(m), " ")
		if want := map[Lang]string{LangEnglish: "pane", LangJapanese: "参照"}[lang]; !strings.Contains(joined, "⚠ Lin") || !strings.Contains(joined, want) {
			t.Fatalf("%s: the line is not whole (wrapped) at 80 columns:\n%s", lang, strings.Join(chatRows(m), "\n"))
		}
	}
}

// TestCardSaysTheAnswerWent: after the human answers the focused card the
// keys go back at once (issue 35: they were swallowed by a box until Esc)
// and the status line confirms it, naming F7 while other cards wait —
// whichever of the answer and the card's close comes first, and however
// the close is told. A card that went by itself gives the keys to the
// input bar; one that went while its reason was typed says nothing more
// was sent and keeps the keys until F7 or Esc (its rest is never posted).
func TestCardSaysTheAnswerWent(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		lang                     Lang
		answered, more, wentAway string
	}{
		{LangEnglish, "Allowed Bash for Lin.", "F7: next card (1 waiting)", "nothing more was sent"},
		{LangJapanese, "Lin の Bash を許可しました。", "F7: 次のカード（残り 1）", "それ以上は送っていません"},
	} {
		// Answered, another card waiting: the answer returns first.
		_, m := cardScene(t, 120, 40, tc.lang, bashCard(1), bashCard(2))
		now := time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC)
		m.env.now = func() time.Time { return now }
		send(t, m, press("f7"))
		typeText(t, m, "y")
		if v := plain(m); !strings.Contains(v, tc.answered) || !strings.Contains(v, tc.more) || strings.Contains(v, tc.wentAway) || m.focus != FocusInput {
			t.Fatalf("%s: after y: focus %v\n%s", tc.lang, m.focus, v)
		}
		now = now.Add(time.Second) // past the double-press window
		typeText(t, m, "next")
		if m.focus != FocusInput || m.input.value() != "next" { // card 2 still shows, not focused
			t.Fatalf("%s: typing after the answer: focus %v, input %q", tc.lang, m.focus, m.input.value())
		}

		// Answered: the card's close comes before the answer returns, told
		// as answered elsewhere (the CLI saw its dialog answered).
		for _, end := range []PermissionEnd{PermissionAnswered, PermissionElsewhere} {
			_, m = cardScene(t, 120, 40, tc.lang, bashCard(1), bashCard(2))
			send(t, m, press("f7"))
			_, cmd := m.Update(tea.KeyPressMsg{Code: 'y', Text: "y"})
			send(t, m, eventsMsg{evs: []Event{PermissionClosed{ID: 1, Topic: "t-main", Account: "lin", End: end, Allowed: true}}})
			drive(t, m, cmd)
			if v := plain(m); strings.Contains(v, tc.wentAway) || m.focus != FocusInput {
				t.Fatalf("%s: end %v closed before the answer returned: focus %v\n%s", tc.lang, end, m.focus, v)
			}
			send(t, m, tea.PasteMsg{Content: "pasted"})
			if m.focus != FocusInput || m.input.value() != "pasted" {
				t.Fatalf("%s: a paste after the answer: focus %v, input %q", tc.lang, m.focus, m.input.value())
			}
		}

		// The last card answered: no box, the keys in the input bar.
		_, m = cardScene(t, 120, 40, tc.lang, bashCard(1))
		send(t, m, press("f7"))
		typeText(t, m, "y")
		if v := plain(m); !strings.Contains(v, tc.answered) || strings.Contains(v, tc.more) || m.focus != FocusInput {
			t.Fatalf("%s: the last card answered: focus %v\n%s", tc.lang, m.focus, v)
		}

		// Went by itself (answered in the pane, timed out, another UI):
		// the keys go to the input bar.
		for _, end := range []PermissionEnd{PermissionElsewhere, PermissionTimedOut, PermissionAnswered} {
			_, m = cardScene(t, 120, 40, tc.lang, bashCard(1), bashCard(2))
			send(t, m, press("f7"))
			send(t, m, eventsMsg{evs: []Event{PermissionClosed{ID: 1, Topic: "t-main", Account: "lin", End: end}}})
			if m.focus != FocusInput || strings.Contains(plain(m), tc.wentAway) {
				t.Fatalf("%s: end %v: focus %v\n%s", tc.lang, end, m.focus, plain(m))
			}
		}

		// Went while its reason was typed: held, the rest never posted.
		_, m = cardScene(t, 120, 40, tc.lang, bashCard(1), bashCard(2))
		send(t, m, press("f7"))
		typeText(t, m, "r")
		typeText(t, m, "not")
		send(t, m, eventsMsg{evs: []Event{PermissionClosed{ID: 1, Topic: "t-main", Account: "lin", End: PermissionTimedOut}}})
		v := plain(m)
		if !strings.Contains(v, tc.wentAway[:9]) || !strings.Contains(v, "Esc") || m.layout.Card.empty() {
			t.Fatalf("%s: held box not whole:\n%s", tc.lang, v)
		}
		typeText(t, m, "abc")
		if m.focus != FocusCard || m.input.value() != "" {
			t.Fatalf("%s: held keys reached focus %v, input %q", tc.lang, m.focus, m.input.value())
		}
		send(t, m, press("esc"))
		if m.focus != FocusInput {
			t.Fatalf("%s: Esc left focus %v", tc.lang, m.focus)
		}
	}
}

// TestCardRepeatWindow: after an answer (another card waiting), the key
// that answered pressed again at once is a double press (dropped); pressed
// later it is the start of typed text (it reaches the input bar).
func TestCardRepeatWindow(t *testing.T) {
	t.Parallel()
	for _, later := range []bool{false, true} {
		_, m := cardScene(t, 120, 40, LangEnglish, bashCard(1), bashCard(2))
		now := time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC)
		m.env.now = func() time.Time { return now }
		send(t, m, press("f7"))
		typeText(t, m, "y")
		if later {
			now = now.Add(repeatWindow + time.Millisecond)
		}
		typeText(t, m, "yes")
		want := "es"
		if later {
			want = "yes"
		}
		if m.input.value() != want {
			t.Fatalf("later %v: input %q, want %q", later, m.input.value(), want)
		}
	}
}

// TestNotTakenLineLongNames: long or many names are cut, the sentence
// stays (both languages).
func TestNotTakenLineLongNames(t *testing.T) {
	t.Parallel()
	for lang, want := range map[Lang]string{LangEnglish: "did not take", LangJapanese: "受け取っていません"} {
		e := testEnv(lang)
		for _, names := range [][]string{{strings.Repeat("長い名前", 16)}, slices.Repeat([]string{"Seat"}, 12)} {
			rows := untakenLine(e, names, 33)
			joined := ""
			for _, r := range rows {
				if w := ansi.StringWidth(r); w > 33 {
					t.Fatalf("%s: a row of %d cells", lang, w)
				}
				joined += ansi.Strip(r)
			}
			if !strings.Contains(joined, want) {
				t.Fatalf("%s: the sentence is gone: %q", lang, joined)
			}
		}
	}
}
