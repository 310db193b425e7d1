//go:build linux || darwin

package app

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/pullcept/pullcept/app/attention"
	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/tui"
)

// Not on Windows: the Claude seat that holds the card is this test binary
// behind cmd.exe, which Wine ends at once in some runs (stayFlag).

// TestAttentionResyncAfterACutOff: when the watcher's hub stream is cut
// off for falling behind (a seat flooding the room), the events it lost
// are gone. A lost PermissionClosed left its card listed for good — a
// card leaves only when it closes: "1 need you" and F5 to no card, in
// every window — and a lost PermissionAsked left a waiting card unlisted
// and unrung. Subscribed again, the watcher makes the list's cards (and
// brakes) what the room holds.
func TestAttentionResyncAfterACutOff(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir, work := t.TempDir(), t.TempDir()
	cfg := `{"accounts":[{"id":"admin","name":"Alice","kind":"admin"},
		{"id":"cc","name":"Lin","kind":"claude_code","cwd":` + jsonString(work) + `,"command":` + jsonString(self) +
		`,"launch_options":` + jsonString(stayFlag) + `}]}`
	if err := os.WriteFile(filepath.Join(dir, config.FileName), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	a, err := Open(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b := NewBackend(a)
	defer b.Close()
	topic, _ := b.NewTopic()
	if _, err := b.StartSeat(topic, "cc", 80, 24); err != nil {
		t.Fatal(err)
	}
	held, err := a.hub.AskPermission(topic, "cc", []byte(`{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"ls"}}`))
	if err != nil {
		t.Fatal(err)
	}
	asks := a.hub.PermissionAsks()
	if len(asks) != 1 || held.Holds() == 0 {
		t.Fatalf("open cards %+v", asks)
	}
	ref := fmt.Sprint(asks[0].ID)
	attnHas(t, b, tui.AttnCard, topic, true)
	// What the lost events leave: the open card unlisted, a closed one
	// and a released brake listed.
	a.attention.Remove(func(it attention.Item) bool { return it.Kind == attention.Card })
	a.attention.Add(attention.Item{Kind: attention.Card, Topic: topic, Account: "cc", Ref: "999", Detail: "Edit"})
	a.attention.Add(attention.Item{Kind: attention.Braked, Topic: topic, Count: 12})
	a.resyncRoom()
	items, _ := a.attention.Items()
	if len(items) != 1 || items[0].Kind != attention.Card || items[0].Ref != ref || items[0].Detail != "Bash" {
		t.Fatalf("after the resync: %+v", items)
	}
}
