package app

import (
	"slices"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/testdata/testkit"
	"github.com/pullcept/pullcept/tui"
)

// account returns the backend's view of account id.
func account(t *testing.T, b *Backend, id string) tui.AccountInfo {
	t.Helper()
	all, err := b.Accounts()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range all {
		if a.ID == id {
			return a
		}
	}
	t.Fatalf("no account %s", id)
	return tui.AccountInfo{}
}

// rosterNames is who sits in topic's room, in join order.
func rosterNames(t *testing.T, b *Backend, topic string) []string {
	t.Helper()
	r, err := b.Roster(topic)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range r {
		out = append(out, m.Name)
	}
	return out
}

// TestRenameReachesEveryTopicAtOnce renames a running seat's account (a
// nickname and a hue) and the human (a new name) through the UI backend,
// with the Shell account's seat running in two open topics, and sees at
// once, in both: the roster the panel and the @ popup are built from
// (RosterChanged), mention routing by the new name only, the next tag typed
// into the seat's terminal (the human's new name as from, the seat's own
// new name as you), and the human's and the seat's old posts read back
// under the names they were said under but with the same accounts — the UI
// draws them as the same people (own by account, colour by account). The
// seat keeps its floor position; a hello cannot rename it; a name already
// another account's is refused naming that account (docs/design.md §9
// "Identity").
func TestRenameReachesEveryTopicAtOnce(t *testing.T) {
	r := newRenameRig(t)
	t1, t2 := r.topics[0], r.topics[1]
	old := r.post(t1, room.Draft{Content: "@Shell look at this"})
	if !slices.Equal(old.To, []string{"Shell"}) {
		t.Fatalf("before the rename: to %v", old.To)
	}
	oldSeat := r.seatPost(t1, room.Draft{Content: "looking", LastSeen: old.MessageID})
	unread := r.post(t2, room.Draft{Content: "a post in the second topic"})

	r.rename()
	r.checkRefusals(t2)

	next := r.post(t2, room.Draft{Content: "@Shelly and @Shell, hello", LastSeen: unread.MessageID})
	if next.Speaker != "Alicia" || !slices.Equal(next.To, []string{"Shelly"}) || !strings.Contains(next.Content, "@Shell,") {
		t.Fatalf("after the rename: %+v", next)
	}
	r.checkTyped(t2, next.MessageID, `"role":"admin","from":"Alicia"`, `"to":["Shelly"],"you":"Shelly","your_full_name":"Shell"}`)
	if p := r.seatPost(t1, room.Draft{Content: "still me", LastSeen: oldSeat.MessageID}); p.Speaker != "Shelly" || p.FullName != "Shell" {
		t.Fatalf("the seat's post after the rename: %+v", p)
	}
	r.checkHistory(t1, []histWant{
		{"Alice", "", "admin", room.RoleAdmin},
		{"Shell", "", "sh", room.RoleCLI},
		{"Shelly", "Shell", "sh", room.RoleCLI},
	})
}

// renameRig is openTest's app with the Shell account's seat running in
// two open topics, each with its sidecar's connection seated and ready.
type renameRig struct {
	t      *testing.T
	a      *App
	b      *Backend
	topics []string
	conns  map[string]*room.Conn
}

func newRenameRig(t *testing.T) *renameRig {
	t.Helper()
	a, b := openTest(t)
	r := &renameRig{t: t, a: a, b: b, conns: map[string]*room.Conn{}}
	for range 2 {
		topic, _ := b.NewTopic()
		if err := b.OpenRoom(topic); err != nil {
			t.Fatal(err)
		}
		if _, err := b.StartSeat(topic, "sh", 200, 30); err != nil {
			t.Fatal(err)
		}
		c := a.hub.Connect() // the Shell seat's sidecar
		t.Cleanup(c.Close)
		if err := c.Hello(room.Hello{Protocol: room.Protocol, Name: "Shell", Room: topic, AccountID: "sh"}); err != nil {
			t.Fatal(err)
		}
		c.Ready()
		r.topics, r.conns[topic] = append(r.topics, topic), c
	}
	return r
}

// post delivers the human's draft and requires delivery.
func (r *renameRig) post(topic string, d room.Draft) room.Post {
	r.t.Helper()
	res, err := r.b.Post(topic, d)
	if err != nil || !res.Delivered {
		r.t.Fatalf("the human's post %q: %+v %v", d.Content, res, err)
	}
	return res.Post
}

// seatPost delivers the seat's draft in topic and requires delivery.
func (r *renameRig) seatPost(topic string, d room.Draft) room.Post {
	r.t.Helper()
	res, err := r.conns[topic].Post(d)
	if err != nil || !res.Delivered {
		r.t.Fatalf("the seat's post %q: %+v %v", d.Content, res, err)
	}
	return res.Post
}

// rename saves the Shell account as "Shelly" (a nickname and a hue) and the
// human as "Alicia", then requires both names at once in every topic's
// roster: the RosterChanged events the panel and the @ popup are built
// from, and Roster.
func (r *renameRig) rename() {
	t, b := r.t, r.b
	t.Helper()
	sh := account(t, b, "sh")
	sh.Nickname, sh.Hue = "Shelly", intPtr(160)
	if _, err := b.SaveAccount(sh); err != nil {
		t.Fatal(err)
	}
	me := account(t, b, "admin")
	me.Name = "Alicia"
	if _, err := b.SaveAccount(me); err != nil {
		t.Fatal(err)
	}
	want := []string{"Alicia", "Shelly"}
	renamed := map[string]bool{} // topics whose last RosterChanged names both anew
	nextEvent(t, b, func(e tui.RosterChanged) bool {
		var names []string
		for _, m := range e.Roster {
			names = append(names, m.Name)
		}
		renamed[e.Topic] = slices.Equal(names, want)
		return renamed[r.topics[0]] && renamed[r.topics[1]]
	})
	for _, topic := range r.topics {
		if got := rosterNames(t, b, topic); !slices.Equal(got, want) {
			t.Fatalf("%s: roster %v", topic, got)
		}
	}
}

// checkRefusals: a name already another account's is refused, naming
// that account; the seat cannot rename itself with a hello; it keeps its
// floor position (it has not read the human's post in topic).
func (r *renameRig) checkRefusals(topic string) {
	t, b := r.t, r.b
	t.Helper()
	me := account(t, b, "admin")
	me.Name = "shelly"
	if _, err := b.SaveAccount(me); err == nil || !strings.Contains(err.Error(), `"Shelly" (cli, id sh)`) {
		t.Fatalf("the human renamed to the seat's name: %v", err)
	}
	if err := r.conns[topic].Hello(room.Hello{Protocol: room.Protocol, Name: "Alicia", Room: topic, AccountID: "sh"}); err != nil {
		t.Fatal(err)
	}
	if got := rosterNames(t, b, topic); !slices.Equal(got, []string{"Alicia", "Shelly"}) {
		t.Fatalf("after the seat's own hello: %v", got)
	}
	if res, err := r.conns[topic].Post(room.Draft{Content: "hm"}); err != nil || res.Delivered || len(res.Missed) != 1 {
		t.Fatalf("the seat's unread post: %+v %v", res, err)
	}
}

// checkTyped waits for the post id in the seat's terminal in topic and
// requires its tag to hold each of wants.
func (r *renameRig) checkTyped(topic, id string, wants ...string) {
	r.t.Helper()
	if testkit.UnderWine() {
		// Only this check: the rest of the test runs under Wine too.
		r.t.Logf("under Wine: the tag in the seat's terminal is not read: Wine does not send a ConPTY child's output back")
		return
	}
	var screen string
	testkit.Eventually(r.t, "the post typed into the seat's terminal", func() bool {
		snap, ok := r.b.Snapshot(topic, "sh")
		screen = strings.Join(snap.Rows, "")
		return ok && strings.Contains(screen, id)
	})
	for _, want := range wants {
		if !strings.Contains(screen, want) {
			r.t.Fatalf("the tag in the seat's terminal lacks %s:\n%s", want, screen)
		}
	}
}

// histWant is one post as history must read it back.
type histWant struct {
	speaker, full, account string
	role                   room.Role
}

// checkHistory requires topic's posts, oldest first, to be wants: the
// names each was said under, and the account (and so the role) the UI
// draws it by.
func (r *renameRig) checkHistory(topic string, wants []histWant) {
	r.t.Helper()
	posts, _, err := r.b.History(topic, "", 10)
	if err != nil || len(posts) != len(wants) {
		r.t.Fatalf("history: %d posts, %v", len(posts), err)
	}
	for i, w := range wants {
		p := posts[i]
		if got := (histWant{p.Speaker, p.FullName, p.Account, p.Role}); got != w {
			r.t.Errorf("history %d: %+v, want %+v", i, got, w)
		}
	}
}

// TestKindOfARunningAccountStays: the backend refuses changing the kind
// of an account whose seat runs (spec «アカウント»), and allows it once the
// seat stopped.
func TestKindOfARunningAccountStays(t *testing.T) {
	_, b := openTest(t)
	topic, _ := b.NewTopic()
	if _, err := b.StartSeat(topic, "sh", 80, 24); err != nil {
		t.Fatal(err)
	}
	sh := account(t, b, "sh")
	sh.Kind = tui.KindClaudeCode
	if _, err := b.SaveAccount(sh); err == nil || !strings.Contains(err.Error(), "stop it before changing its kind") {
		t.Fatalf("kind change of a running account: %v", err)
	}
	if err := b.StopSeat(topic, "sh"); err != nil {
		t.Fatal(err)
	}
	nextEvent(t, b, func(e tui.SeatChanged) bool { return e.State == tui.SeatExited })
	if got, err := b.SaveAccount(sh); err != nil || got.Kind != tui.KindClaudeCode {
		t.Fatalf("kind change once stopped: %+v %v", got, err)
	}
}

// TestReservedNameIsTheAppSpeaker: config refuses as an account name the
// speaker the room gives its own notices.
func TestReservedNameIsTheAppSpeaker(t *testing.T) {
	if config.ReservedName != room.AppSpeaker {
		t.Fatalf("config.ReservedName %q, room.AppSpeaker %q", config.ReservedName, room.AppSpeaker)
	}
}

func intPtr(v int) *int { return &v }
