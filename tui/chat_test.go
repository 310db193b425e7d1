package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/pullcept/pullcept/room"
)

func TestNoticesFoldAndExpand(t *testing.T) {
	t.Parallel()
	m := mainModel(t, scene())
	v := plain(m)
	if !strings.Contains(v, "▸ github (3)") || strings.Contains(v, "CI passed on #12") {
		t.Fatalf("notices not folded:\n%s", v)
	}
	send(t, m, press("tab")) // chat focus, last item selected
	for m.chat.sel >= 0 && !m.chat.items[m.chat.sel].fold {
		send(t, m, press("up"))
	}
	send(t, m, press("enter"))
	v = plain(m)
	if !strings.Contains(v, "▾ github (3)") || !strings.Contains(v, "CI passed on #12") || !strings.Contains(v, "PR #12 merged") {
		t.Fatalf("fold did not expand:\n%s", v)
	}
	// A new notice from the same server joins the fold that ends the chat.
	n := post("p9", "github", "deploy done", 500)
	n.Role, n.Account = room.RoleMCP, "gh"
	m2 := mainModel(t, scene())
	send(t, m2, eventsMsg{evs: []Event{PostDelivered{Topic: "t-main", Post: n}}})
	n2 := n
	n2.MessageID = "p10"
	send(t, m2, eventsMsg{evs: []Event{PostDelivered{Topic: "t-main", Post: n2}}})
	if !strings.Contains(plain(m2), "▸ github (2)") {
		t.Fatalf("consecutive live notices not folded:\n%s", plain(m2))
	}
	// A click on the fold line expands it too.
	for row := 0; row < m2.layout.Chat.H; row++ {
		if i := m2.chat.itemAt(row); i >= 0 && m2.chat.items[i].fold && m2.chat.items[i].key() == "p9" {
			send(t, m2, mouseClick(m2.layout.Chat.X+3, m2.layout.Chat.Y+row))
			break
		}
	}
	if !strings.Contains(plain(m2), "▾ github (2)") {
		t.Fatalf("click did not expand the fold")
	}
}

func TestScrollingToTheTopPagesOlderPosts(t *testing.T) {
	t.Parallel()
	f := newFake()
	for i := 0; i < 130; i++ {
		f.history["long"] = append(f.history["long"], post(fmt.Sprintf("m%03d", i), "Lin", fmt.Sprintf("投稿 %d", i), i))
	}
	opts := testOptions()
	opts.StartTopic = "long"
	m := newTestModel(t, f, opts, 100, 30)
	if len(m.chat.posts) != historyPage || f.historyReqs[0] != "long||50" {
		t.Fatalf("opening read %d posts with %v", len(m.chat.posts), f.historyReqs)
	}
	for i := 0; i < 40 && len(m.chat.posts) < 130; i++ {
		send(t, m, press("pgup"))
	}
	if len(m.chat.posts) != 130 {
		t.Fatalf("after scrolling up: %d posts, requests %v", len(m.chat.posts), f.historyReqs)
	}
	if f.historyReqs[1] != "long|m080|50" || f.historyReqs[2] != "long|m030|50" {
		t.Fatalf("paging requests = %v", f.historyReqs)
	}
	for i := 0; i < 40; i++ {
		send(t, m, press("pgup"))
	}
	v := plain(m)
	if !strings.Contains(v, "beginning of the topic") || !strings.Contains(v, "投稿 0\n") && !strings.Contains(v, "投稿 0 ") {
		t.Fatalf("top of the topic not shown:\n%s", v)
	}
	if len(f.historyReqs) != 3 {
		t.Fatalf("paged past the beginning: %v", f.historyReqs)
	}
	if m.chat.newest != "m129" {
		t.Fatalf("paging moved the watermark: %q", m.chat.newest)
	}
	// A live post while reading old ones keeps the reader's place.
	before := plain(m)
	send(t, m, eventsMsg{evs: []Event{PostDelivered{Topic: "long", Post: post("live", "Lay", "今来た", 999)}}})
	if plain(m) != before {
		t.Fatalf("a new post moved the view while scrolled up")
	}
	send(t, m, press("tab"))
	send(t, m, press("end"))
	if !strings.Contains(plain(m), "今来た") {
		t.Fatalf("end did not jump to the latest post")
	}
	// The wheel scrolls too.
	send(t, m, mouseWheel(m.layout.Chat.X+2, m.layout.Chat.Y+2, true))
	if m.chat.scroll != chatWheelRows {
		t.Fatalf("wheel scroll = %d", m.chat.scroll)
	}
}

func TestDeliveredPostsAreDeduplicated(t *testing.T) {
	t.Parallel()
	m := mainModel(t, scene())
	p := post("p2", "Lin", "了解です 👍 まずテストを全部回します。", 1)
	send(t, m, eventsMsg{evs: []Event{PostDelivered{Topic: "t-main", Post: p}, PostDelivered{Topic: "t-main", Post: p}}})
	if n := strings.Count(plain(m), "まずテストを全部回します"); n != 1 {
		t.Fatalf("drawn %d times", n)
	}
}

func TestWideCharactersWrapAtTheirWidth(t *testing.T) {
	t.Parallel()
	for _, w := range []int{8, 13, 20, 37} {
		for _, s := range []string{"日本語のテキストは空白なしで折り返す必要があります", "emoji 👍👍👍👍👍👍👍👍 mixed 日本 text", "short"} {
			for _, l := range wrapText(s, w) {
				if got := ansi.StringWidth(l); got > w {
					t.Fatalf("wrap %q at %d: line %q is %d wide", s, w, l, got)
				}
			}
			if strings.ReplaceAll(strings.Join(wrapText(s, w), ""), " ", "") != strings.ReplaceAll(s, " ", "") {
				t.Fatalf("wrap lost text: %q at %d", s, w)
			}
		}
	}
	for _, s := range []string{"日本語", "👍x", "abc\x1b[31mred\x1b[m", "マスター（あなた）"} {
		for w := 1; w < 12; w++ {
			if got := ansi.StringWidth(fit(s, w)); got != w {
				t.Fatalf("fit(%q,%d) is %d wide", s, w, got)
			}
		}
	}
	if got := sanitize("a\x1b[2Jb\r\nc\td\x07"); got != "a[2Jb\nc    d" {
		t.Fatalf("sanitize = %q", got)
	}
}

func TestEveryScreenRowHasTheScreenWidth(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}, {61, 17}} {
		m := sceneModel(t, scene(), size[0], size[1], LangJapanese)
		lines := strings.Split(m.View().Content, "\n")
		if len(lines) != size[1] {
			t.Fatalf("%v: %d lines", size, len(lines))
		}
		for i, l := range lines {
			if w := ansi.StringWidth(l); w != size[0] {
				t.Fatalf("%v: line %d is %d wide: %q", size, i, w, ansi.Strip(l))
			}
		}
	}
}

// TestChatLetsOldPostsGo: while the reader follows the live end, the chat
// holds at most chatKeep+historyPage posts (a seat posting in a loop, or a
// topic open for days, grew it without bound); the ones let go page back in
// from the log when the reader scrolls up to them.
func TestChatLetsOldPostsGo(t *testing.T) {
	t.Parallel()
	f := newFake()
	var all []room.Post
	for i := range 1500 {
		all = append(all, post(fmt.Sprintf("m%04d", i), "Lin", fmt.Sprintf("投稿 %d", i), i))
	}
	f.history["live"] = all[:10]
	opts := testOptions()
	opts.StartTopic = "live"
	m := newTestModel(t, f, opts, 100, 30)
	for _, p := range all[10:] {
		send(t, m, eventsMsg{evs: []Event{PostDelivered{Topic: "live", Post: p}}})
		if n := len(m.chat.posts); n > chatKeep+historyPage {
			t.Fatalf("the chat holds %d posts, bound %d", n, chatKeep+historyPage)
		}
	}
	if !m.chat.hasMore || m.chat.newest != "m1499" || !strings.Contains(plain(m), "投稿 1499") {
		t.Fatalf("after trimming: hasMore %v newest %q\n%s", m.chat.hasMore, m.chat.newest, plain(m))
	}
	f.history["live"] = all // the log has them all
	oldest := m.chat.oldest
	for i := 0; i < 400 && m.chat.oldest == oldest; i++ {
		send(t, m, press("pgup"))
	}
	if m.chat.oldest == oldest {
		t.Fatalf("scrolling up did not page the let-go posts back in: %v", f.historyReqs)
	}
	if got := f.historyReqs[len(f.historyReqs)-1]; got != "live|"+oldest+"|50" {
		t.Fatalf("paged with %q, want before %s", got, oldest)
	}
}

// TestLongPostShowsWhereTheRestIs: a long post arrives clipped; under its
// body the chat says how long it is and which file holds it whole, in
// English and Japanese.
func TestLongPostShowsWhereTheRestIs(t *testing.T) {
	t.Parallel()
	p := post("p9", "Lin", "最初の部分", 500)
	p.Size, p.BodyFile = 3<<20, "/data/attachments/t/post p9.txt"
	m := mainModel(t, scene())
	send(t, m, eventsMsg{evs: []Event{PostDelivered{Topic: "t-main", Post: p}}})
	v := strings.Join(strings.Fields(plain(m)), " ")
	if !strings.Contains(v, "… 3.0 MiB in all; the whole post: /data/attachments/t/post p9.txt") {
		t.Fatalf("no clip note:\n%s", plain(m))
	}
}

// TestChatStaysBoundedWhileReadingOlderPosts: while the reader is up among
// older posts and the chat is full, newer posts are left in the log (the
// chat grew without bound and each redraw walked every line below the
// view: 3 ms → 43 ms a post, breaker review); the way back says how many
// wait, and End reads the tail again with them.
func TestChatStaysBoundedWhileReadingOlderPosts(t *testing.T) {
	t.Parallel()
	f := newFake()
	var all []room.Post
	for i := range 3000 {
		all = append(all, post(fmt.Sprintf("m%04d", i), "Lin", fmt.Sprintf("投稿 %d", i), i))
	}
	f.history["live"] = all[:historyPage]
	opts := testOptions()
	opts.StartTopic = "live"
	m := newTestModel(t, f, opts, 100, 30)
	for _, p := range all[historyPage : chatKeep+historyPage] { // the chat fills up (the first page came from the log)
		send(t, m, eventsMsg{evs: []Event{PostDelivered{Topic: "live", Post: p}}})
	}
	send(t, m, press("tab"))
	send(t, m, press("pgup"))
	f.history["live"] = all
	for _, p := range all[chatKeep+historyPage:] {
		send(t, m, eventsMsg{evs: []Event{PostDelivered{Topic: "live", Post: p}}})
	}
	if n := len(m.chat.posts); n > chatKeep+historyPage {
		t.Fatalf("the chat holds %d posts while the reader is up, bound %d", n, chatKeep+historyPage)
	}
	want := fmt.Sprintf("↓ %d newer posts (End)", len(all)-chatKeep-historyPage)
	if !strings.Contains(plain(m), want) {
		t.Fatalf("no %q:\n%s", want, plain(m))
	}
	send(t, m, press("end"))
	if m.chat.behind != 0 || m.chat.newest != "m2999" || !strings.Contains(plain(m), "投稿 2999") {
		t.Fatalf("End did not read the tail: behind %d newest %q\n%s", m.chat.behind, m.chat.newest, plain(m))
	}
}

// TestLatePageIsDropped: a page asked for before the chat let its anchor
// go (the reader went back to the live end and posts kept coming) is
// dropped instead of being glued on top, which left a hole of 102 posts
// that never paged back in (breaker review).
func TestLatePageIsDropped(t *testing.T) {
	t.Parallel()
	m := mainModel(t, scene())
	before := len(m.chat.posts)
	oldest := m.chat.oldest
	send(t, m, historyDoneMsg{topic: "t-main", before: "gone", posts: []room.Post{post("old1", "Lin", "古い", -100)}, hasMore: true})
	if len(m.chat.posts) != before || m.chat.oldest != oldest || m.chat.loading {
		t.Fatalf("a stale page was taken: %d posts (was %d), oldest %q (was %q)", len(m.chat.posts), before, m.chat.oldest, oldest)
	}
}

// TestReusedIDIsStillShown: a post whose id an older post already has (the
// room remembers only its recent ids) is drawn, not hidden behind the old
// one; the same post arriving twice is drawn once.
func TestReusedIDIsStillShown(t *testing.T) {
	t.Parallel()
	m := mainModel(t, scene())
	old := m.chat.posts[0]
	reuse := post(old.MessageID, "Kai", "同じ id の別の発言", 900)
	send(t, m, eventsMsg{evs: []Event{PostDelivered{Topic: "t-main", Post: reuse}, PostDelivered{Topic: "t-main", Post: reuse}}})
	if n := strings.Count(plain(m), "同じ id の別の発言"); n != 1 {
		t.Fatalf("the post reusing %s is drawn %d times", old.MessageID, n)
	}
}

// TestOwnPostsRunAsOneBlock: the screen's own posts said one after the
// other are one block: the addressees at the head of the one that has
// some, the time only under the last of the run; another's post or a day
// rule between ends the run (spec «画面の人の発言は右に寄せる» #225, issue
// 34 item 23). A post joining the run while the reader is up among older
// posts keeps their place.
func TestOwnPostsRunAsOneBlock(t *testing.T) {
	t.Parallel()
	own := func(id, body string, min int, to ...string) room.Post {
		p := post(id, "マスター", body, min)
		p.Role, p.Account, p.To = room.RoleAdmin, "admin", to
		return p
	}
	const day = 24 * 60
	f := scene()
	f.history["own"] = []room.Post{
		own("o1", "first", -day, "Lin"),
		own("o2", "second", -day+1),
		post("l1", "Lin", "answer", -day+2),
		own("o3", "third", -day+3),
		own("o4", "fourth", 0), // the next day
	}
	opts := testOptions()
	opts.StartTopic = "own"
	m := newTestModel(t, f, opts, 120, 40)
	rowsFrom := func(first string) []string {
		rows := chatRows(m)
		i := slices.IndexFunc(rows, func(l string) bool { return strings.Contains(l, first) })
		if i < 0 {
			t.Fatalf("no %q in the chat:\n%s", first, strings.Join(rows, "\n"))
		}
		out := make([]string, 0, len(rows)-i)
		for _, r := range rows[i:] {
			if r = strings.TrimSpace(r); r != "" {
				out = append(out, r)
			}
		}
		return out
	}
	want := []string{"→ Lin", "first", "second", "09:01", "Lin  09:02", "answer", "third", "09:03",
		"─── Today ───", "fourth", "09:00"}
	if got := rowsFrom("→ Lin"); !sameRows(got, want) {
		t.Fatalf("own posts drawn as\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// A live post joins the run: the time moves under it.
	send(t, m, eventsMsg{evs: []Event{PostDelivered{Topic: "own", Post: own("o5", "fifth", 1)}}})
	if got, want := rowsFrom("fourth"), []string{"fourth", "fifth", "09:01"}; !sameRows(got, want) {
		t.Fatalf("after a live own post:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// The reader is up among older posts: an own post joining the run
	// below moves nothing they read.
	send(t, m, tea.WindowSizeMsg{Width: 80, Height: 16})
	for i := range 20 {
		send(t, m, eventsMsg{evs: []Event{PostDelivered{Topic: "own", Post: post(fmt.Sprintf("f%d", i), "Lin", fmt.Sprintf("filler %d", i), 2+i)}}})
	}
	send(t, m, eventsMsg{evs: []Event{PostDelivered{Topic: "own", Post: own("o6", "sixth", 30)}}})
	send(t, m, press("tab"))
	send(t, m, press("pgup"))
	if m.chat.scroll == 0 {
		t.Fatal("pgup did not scroll the chat up")
	}
	before := chatRows(m)
	send(t, m, eventsMsg{evs: []Event{PostDelivered{Topic: "own", Post: own("o7", "seventh", 31)}}})
	if after := chatRows(m); !slices.Equal(before[:len(before)-1], after[:len(after)-1]) {
		t.Fatalf("the reader's place moved:\n%s\n---\n%s", strings.Join(before, "\n"), strings.Join(after, "\n"))
	}
}

// sameRows reports whether got matches want row by row, a want row of
// "─── X ───" matching any rule around X.
func sameRows(got, want []string) bool {
	if len(got) < len(want) {
		return false
	}
	for i, w := range want {
		if strings.HasPrefix(w, "─── ") {
			if !strings.HasPrefix(got[i], "─") || !strings.Contains(got[i], " "+strings.Trim(w, "─ ")+" ") {
				return false
			}
			continue
		}
		if got[i] != w {
			return false
		}
	}
	return true
}
