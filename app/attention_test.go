package app

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pullcept/pullcept/app/attention"
	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
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
// asking seat's topic with its action and reason.
func TestAttentionFailedSessionOperation(t *testing.T) {
	a, b := openTest(t)
	a.opFailed(room.SessionRecord{SessionOperation: room.SessionOperation{OperationID: "op1", Action: "restart",
		AccountID: "cc", TopicID: "t2"}, RequesterTopic: "t1", Error: "no such seat"})
	it := attnHas(t, b, tui.AttnOpFailed, "t1", true)
	if it.Account != "cc" || it.Detail != "restart: no such seat" {
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
