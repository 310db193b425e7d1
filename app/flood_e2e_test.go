//go:build linux || darwin

package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pullcept/pullcept/app/localmcp"
	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/testdata/fakecli"
	"github.com/pullcept/pullcept/testdata/fakemcp"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// floodHeapBound is the heap the App may hold, after a GC, while a local
// MCP server floods it (issue 32: the flood took the app from 29 MB to
// 1,145 MB RSS). Measured after the brake: under 20 MiB.
const floodHeapBound = 64 << 20

// TestNoticeFloodStaysBounded (issue 32): a local MCP server pushes 20 000
// notices of 16 KB as fast as it can while a generic seat sits in the
// room. The App's heap after a GC stays under floodHeapBound, the seat's
// typing queue never holds more than its bound, the room gets the brake's
// burst and one fold notice of Pullcept's own ("GitHub: 19,980 more
// notices, folded"), and the human's post, made during the flood, is
// typed into the seat with at most the burst and the fold ahead of it.
// Before the brake every push became a notice typed into the seat.
func TestNoticeFloodStaysBounded(t *testing.T) {
	flood, size := 20000, 16<<10
	if v, err := strconv.Atoi(os.Getenv("PULLCEPT_FLOOD_NOTICES")); err == nil && v > 0 {
		flood = v // a shorter run while working on it
	}
	work := t.TempDir()
	dir := t.TempDir()
	lines := filepath.Join(work, "lines.jsonl")
	start := filepath.Join(work, "go")
	l := fakemcp.Command(t, fakemcp.Config{Flood: flood, FloodBytes: size, FloodAfter: start})
	fakecli.WriteConfig(t, dir, nil,
		fakecli.ConfigAccount{ID: "lin", Name: "Lin", Kind: "cli", Cwd: work, Command: fakecli.Command(t),
			Options: "-join -lines " + lines, Env: fakecli.SeatEnv()},
		fakecli.ConfigAccount{ID: mcpRigAccount, Name: mcpRigSpeaker, Kind: "mcp", Server: mcpRigServer})
	b, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		mcpRigServer: map[string]any{"command": l.Command, "args": l.Args, "env": l.EnvMap()}}})
	if err := os.WriteFile(filepath.Join(dir, config.MCPServersFileName), b, 0o600); err != nil {
		t.Fatal(err)
	}
	// One notice an hour after the burst: what is typed ahead of the
	// human's post does not depend on how fast this machine reads.
	a, err := openApp(dir, "test", openOptions{pullceptPath: fakecli.PullceptBinary(t), noticeEvery: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	topic := a.store.NewTopicID()
	if err := a.hub.OpenRoom(topic); err != nil {
		t.Fatal(err)
	}
	if _, err := a.seats.Start(topic, "lin", 120, 40); err != nil {
		t.Fatal(err)
	}
	testkit.EventuallyWithin(t, testkit.Slow(60*time.Second), "the seat in the room", func() bool {
		return slices.Contains(a.hub.RoomsWithSeats(), topic) && a.mcp.State(mcpRigServer).Phase == localmcp.Running
	})
	if err := os.WriteFile(start, nil, 0o600); err != nil {
		t.Fatal(err)
	}

	var peakHeap uint64
	var peakQueued, peakBytes int
	var sampled time.Time
	sample := func() { // a GC costs the flood CPU: a few a second at most
		if time.Since(sampled) < 250*time.Millisecond {
			return
		}
		sampled = time.Now()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		peakHeap = max(peakHeap, ms.HeapInuse)
		st := opsSeat(a, topic, "lin").Typing
		peakQueued, peakBytes = max(peakQueued, st.Queued), max(peakBytes, st.QueuedBytes)
	}
	testkit.EventuallyWithin(t, testkit.Slow(2*time.Minute), "half the flood read", func() bool {
		sample()
		st := a.mcp.State(mcpRigServer)
		return st.Received+st.Folded+st.Dropped >= uint64(flood/2)
	})
	typedBefore := len(typedTags(t, lines))
	// The floor judges the human's post too: it goes once the human saw
	// what came before it, as the chat's input does.
	human := room.Result{}
	for seen := ""; !human.Delivered; {
		human, err = a.hub.Post(topic, room.Draft{Content: "the human, during the flood", LastSeen: seen})
		if err != nil {
			t.Fatal(err)
		}
		if n := len(human.Missed); n > 0 {
			seen = human.Missed[n-1].MessageID
		}
	}
	testkit.EventuallyWithin(t, testkit.Slow(3*time.Minute), "the whole flood read", func() bool {
		sample()
		st := a.mcp.State(mcpRigServer)
		return st.Received+st.Folded+st.Dropped == uint64(flood)
	})
	var ahead int
	t.Cleanup(func() {
		if t.Failed() {
			tags := typedTags(t, lines)
			t.Logf("seat %+v; %d tags typed, the last %q", opsSeat(a, topic, "lin").Typing, len(tags), tags[max(len(tags)-1, 0):])
		}
	})
	testkit.EventuallyWithin(t, testkit.Slow(2*time.Minute), "the human's post typed into the seat", func() bool {
		sample()
		tags := typedTags(t, lines)
		i := slices.IndexFunc(tags, func(tag string) bool { return strings.Contains(tag, `"message_id":"`+human.Post.MessageID+`"`) })
		ahead = i - typedBefore
		return i >= 0
	})
	st := a.mcp.State(mcpRigServer)
	t.Logf("flood of %d × %d KiB: %d notices, %d folded, %d dropped; heap peak %d MiB; seat queue peak %d posts, %d KiB; %d typed ahead of the human's post",
		flood, size>>10, st.Received, st.Folded, st.Dropped, peakHeap>>20, peakQueued, peakBytes>>10, ahead)
	if peakHeap > floodHeapBound {
		t.Errorf("heap in use peaked at %d MiB, bound %d MiB", peakHeap>>20, floodHeapBound>>20)
	}
	if peakQueued > 64+2 || peakBytes > 1<<20+64<<10 {
		t.Errorf("the seat's queue peaked at %d posts, %d KiB", peakQueued, peakBytes>>10)
	}
	if ahead > localmcp.DefaultNoticeBurst+1 {
		t.Errorf("%d posts typed ahead of the human's post", ahead)
	}
	testkit.EventuallyWithin(t, testkit.Slow(30*time.Second), "the fold notice", func() bool {
		hist, _, _ := a.hub.History(topic, "", 50)
		return slices.ContainsFunc(hist, func(p room.Post) bool {
			return p.Role == room.RoleApp && strings.HasPrefix(p.Content, mcpRigSpeaker+": ") && strings.Contains(p.Content, "more notices, folded")
		})
	})
}

// typedTags are the tag lines the fake CLI read from its terminal so far.
func typedTags(t *testing.T, path string) []string {
	t.Helper()
	got, err := fakecli.Lines(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var tags []string
	for _, l := range got {
		if i := strings.Index(l, room.TagPrefix); i >= 0 {
			tags = append(tags, l[i:])
		}
	}
	return tags
}
