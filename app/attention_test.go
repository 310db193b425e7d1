package app

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pullcept/pullcept/app/attention"
	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/room/pubsub"
	"github.com/pullcept/pullcept/testdata/testkit"
	"github.com/pullcept/pullcept/tui"
)

// attnHas waits for an AttentionChanged whose list has (want) or lacks
// (!want) an item of kind in topic, and returns that item.
func attnHas(t *testing.T, b *Backend, kind tui.AttentionKind, topic string, want bool) tui.AttentionItem {
	t.Helper()
	var got tui.AttentionItem
	nextEvent(t, b, func(e tui.AttentionChanged) bool {
		i := slices.IndexFunc(e.Items, func(it tui.AttentionItem) bool { return it.Kind == kind && it.Topic == topic })
		if i >= 0 {
			got = e.Items[i]
		}
		return (i >= 0) == want
	})
	return got
}

// TestAttentionFromTheRoom: a post addressed to the human and a braked
// topic reach every UI's list; the human seeing the post drops it, the
// brake's release drops the other (docs/design.md §17).
func TestAttentionFromTheRoom(t *testing.T) {
	a, b := openTest(t)
	topic, _ := b.NewTopic()
	if err := b.OpenRoom(topic); err != nil {
		t.Fatal(err)
	}
	c := a.hub.Connect()
	defer c.Close()
	if err := c.Hello(room.Hello{Protocol: room.Protocol, Name: "Shell", Room: topic, AccountID: "sh"}); err != nil {
		t.Fatal(err)
	}
	admin, _ := a.accounts.Admin()
	if _, err := c.Post(room.Draft{Content: "done: please look", To: []string{admin.DisplayName()}}); err != nil {
		t.Fatal(err)
	}
	post := attnHas(t, b, tui.AttnAddressed, topic, true)
	if post.Account != "sh" || post.Ref == "" {
		t.Fatalf("item %+v", post)
	}
	if err := b.SeenAttention([]uint64{post.ID}); err != nil {
		t.Fatal(err)
	}
	attnHas(t, b, tui.AttnAddressed, topic, false)

	for i := range config.DefaultBrake {
		if _, err := c.Post(room.Draft{Content: fmt.Sprintf("answer %d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	brake := attnHas(t, b, tui.AttnBraked, topic, true)
	if brake.Count != config.DefaultBrake {
		t.Fatalf("brake item %+v", brake)
	}
	if err := b.ReleaseBrake(topic); err != nil {
		t.Fatal(err)
	}
	attnHas(t, b, tui.AttnBraked, topic, false)
	// A second UI reads the same list.
	b2 := NewBackend(a)
	defer b2.Close()
	items, _, _ := b2.Attention()
	if len(items) != 0 {
		t.Fatalf("second UI lists %+v", items)
	}
}

// TestAttentionFailedSessionOperation: a failed operation is listed in the
// asking seat's topic with its action and reason, as the asking seat's
// item. Listed as its target's, it took the target's ring: a seat that
// makes a restart of a sibling fail (a .mcp.json it planted in the
// sibling's folder fails every restart, "it was left running") once a
// minute kept the sibling's own card from ringing — one seat rings once
// a cooldown.
func TestAttentionFailedSessionOperation(t *testing.T) {
	a, b := openTest(t)
	a.opFailed(room.SessionRecord{SessionOperation: room.SessionOperation{OperationID: "op1", Action: "restart",
		AccountID: "cc", TopicID: "t2"}, Requester: "sh", RequesterTopic: "t1", Error: "no such seat"})
	it := attnHas(t, b, tui.AttnOpFailed, "t1", true)
	if it.Account != "sh" || it.Detail != "restart: no such seat" {
		t.Fatalf("item %+v", it)
	}
}

// TestAttentionListsADeadMCPServerAtOpen: a local MCP server that could not
// start is listed by the time Open returns, before any UI reads the list:
// a UI that attaches then takes it as known and never rings for it.
func TestAttentionListsADeadMCPServerAtOpen(t *testing.T) {
	dir := t.TempDir()
	cfg := `{"accounts":[{"id":"admin","name":"Alice","kind":"admin"}]}`
	servers := `{"mcpServers":{"broken":{"command":` + jsonString(filepath.Join(t.TempDir(), "no-such-server")) + `}}}`
	for name, body := range map[string]string{config.FileName: cfg, config.MCPServersFileName: servers} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	a, err := Open(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	items, _ := a.attention.Items()
	if len(items) != 1 || items[0].Kind != attention.MCPDied || items[0].Account != config.MCPAccountIDPrefix+"broken" {
		t.Fatalf("listed at open: %+v", items)
	}
}

// takeNote is the next event of b's own queue, taken as NextEvents takes
// it (fromNotes).
func takeNote(t *testing.T, b *Backend) tui.Event {
	t.Helper()
	select {
	case e, open := <-b.noteSub.C():
		if !open {
			t.Fatalf("the note queue closed: %v", b.noteSub.Err())
		}
		evs, _ := b.fromNotes(e, open)
		return evs[0]
	case <-time.After(testkit.Wait):
		t.Fatal("no note queued")
		return nil
	}
}

// TestAStalledUIHoldsOneAttentionSnapshot: a UI that stops reading its
// events (a served window whose SSH link stalled) while a seat floods the
// list was sent the whole list (up to 200 items) at every change — 762
// snapshots in 6 s of a flood, ~25 000 items, and on to 65 536 snapshots
// (gigabytes) before the queue's cut-off. The forwarder sends the next
// snapshot only once the UI took the last, and it is the list as it is
// then.
func TestAStalledUIHoldsOneAttentionSnapshot(t *testing.T) {
	a, b := openTest(t)
	var last attention.Item
	for i := range 2000 {
		last = a.attention.Add(attention.Item{Kind: attention.Addressed, Topic: "t", Account: "bad", Ref: fmt.Sprint(i),
			Detail: strings.Repeat("x", 300)})
	}
	b.notes.Publish(tui.Notice{Text: "mark"})
	snapshots := 0
	for {
		e := takeNote(t, b)
		if n, ok := e.(tui.Notice); ok && n.Text == "mark" {
			break
		}
		if _, ok := e.(tui.AttentionChanged); ok {
			snapshots++
		}
	}
	if snapshots > 1 {
		t.Fatalf("%d snapshots of the list queued for a UI that read none", snapshots)
	}
	// Taken, the next one is the list now.
	for {
		if e, ok := takeNote(t, b).(tui.AttentionChanged); ok && slices.ContainsFunc(e.Items, func(it tui.AttentionItem) bool { return it.ID == last.ID }) {
			break
		}
	}
}

// TestAttentionAfterTheUIsQueueIsCutOff: the forwarder waits for the UI to
// take its last snapshot; when the UI's note queue is cut off for falling
// behind, that snapshot is dropped with it and never taken. The UI
// reloads the list (Resynced), and the list's next change still reaches
// it.
func TestAttentionAfterTheUIsQueueIsCutOff(t *testing.T) {
	a, b := openTest(t)
	a.attention.Add(attention.Item{Kind: attention.Braked, Topic: "t1", Count: 12})
	for range pubsub.DefaultMaxEvents + 1 {
		b.notes.Publish(tui.Notice{Text: "filler"})
	}
	testkit.Eventually(t, "the UI's note queue cut off", func() bool { return errors.Is(b.noteSub.Err(), pubsub.ErrOverflow) })
	nextEvent(t, b, func(tui.Resynced) bool { return true })
	a.attention.Add(attention.Item{Kind: attention.Braked, Topic: "t2", Count: 12})
	attnHas(t, b, tui.AttnBraked, "t2", true)
}
