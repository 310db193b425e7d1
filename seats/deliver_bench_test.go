//go:build unix

package seats

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/logstore"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats/pty"
	"github.com/pullcept/pullcept/testdata/fakecli"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// benchPace is the pause between two benchmark posts: a seat types a post's
// "\r" typingGap (200 ms) after its text, and the next text only once the
// PTY was quiet for another typingGap; 250 ms after the "\r" is past both,
// so a measured post never waits for a pause.
const benchPace = 250 * time.Millisecond

// benchWait bounds every wait of the benchmark's setup and of one post.
var benchWait = testkit.Slow(60 * time.Second)

// tagTimer is a seat's Proc whose writes that carry a tag report the time
// they returned: the moment the tag bytes were written on the PTY.
type tagTimer struct {
	pty.Proc
	tags chan time.Time
}

func (p tagTimer) Write(b []byte) (int, error) {
	n, err := p.Proc.Write(b)
	if err == nil && bytes.Contains(b, []byte(room.TagPrefix)) {
		select {
		case p.tags <- time.Now():
		default:
		}
	}
	return n, err
}

// BenchmarkDeliverToTagBytes8Seats measures the latency from the room's
// Deliver (an admin post through Hub.Post: floor, log append, typing
// enqueued for every seat) to the tag bytes written on the PTYs of 8 running
// seats (docs/design.md §2, §5), the typing pauses excluded.
//
// Everything is real but the CLI: the Manager starts the fake CLI (the
// re-executed test binary) in 8 real PTYs; the seats join the room through
// in-process connections (a sidecar's hello and ready); the topic log is on
// disk. The time is taken when the PTY write carrying the tag returns.
// deliver-ns is the time until all 8 seats have it, seat-ns the mean per
// seat. ns/op is not the latency: it includes the pause between posts
// (benchPace after the typing pauses), which keeps the run short.
func BenchmarkDeliverToTagBytes8Seats(b *testing.B) {
	const n = 8
	const topic = "bench-topic"
	dir := b.TempDir()
	store, err := logstore.Open(filepath.Join(dir, "data"), logstore.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	accounts := map[string]config.Account{"admin": {ID: "admin", Name: "Alice", Kind: config.KindAdmin}}
	for i := range n {
		id := fmt.Sprintf("seat%d", i)
		work := filepath.Join(dir, id)
		if err := os.Mkdir(work, 0o755); err != nil {
			b.Fatal(err)
		}
		accounts[id] = fakecli.Account(b, id, fmt.Sprintf("Seat%d", i), work, "")
	}
	lookup := func(id string) (config.Account, bool) { a, ok := accounts[id]; return a, ok }
	m, err := NewManager(ManagerOptions{Sessions: store, Accounts: lookup, PullceptPath: fakecli.Command(b), Environ: os.Environ})
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	tags := make(chan chan time.Time, 1)
	m.spawn = func(o pty.Options) (pty.Proc, error) {
		p, err := pty.Start(o)
		if err != nil {
			return nil, err
		}
		return tagTimer{Proc: p, tags: <-tags}, nil
	}
	// No sidecar runs: the room URL only has to be a loopback address.
	m.SetRoom(RoomEndpoint{URL: "ws://127.0.0.1:9/room", HooksURL: "http://127.0.0.1:9", Token: "t"})
	hub, err := room.NewHub(room.HubOptions{Log: store, Terminals: m, Accounts: benchKinds(accounts)})
	if err != nil {
		b.Fatal(err)
	}
	defer hub.Close()
	hub.SetAdmin(room.Hello{Name: "Alice", AccountID: "admin"})
	if err := hub.OpenRoom(topic); err != nil {
		b.Fatal(err)
	}
	seatTags := make([]chan time.Time, n)
	seats := make([]*Seat, n)
	for i := range n {
		id := fmt.Sprintf("seat%d", i)
		seatTags[i] = make(chan time.Time, 1)
		tags <- seatTags[i]
		if _, err := m.Start(topic, id, 200, 40); err != nil {
			b.Fatal(err)
		}
		seats[i], _ = m.Seat(topic, id)
		s := seats[i]
		testkit.EventuallyWithin(b, benchWait, id+"'s prompt", func() bool { return strings.Contains(s.Screen().Text(), fakecli.Ready) })
		c := hub.Connect()
		defer c.Close()
		if err := c.Hello(room.Hello{Protocol: room.Protocol, Name: accounts[id].Name, Room: topic, AccountID: id}); err != nil {
			b.Fatal(err)
		}
		c.Ready()
	}

	var all, perSeat time.Duration
	i := 0
	for b.Loop() {
		i++
		start := time.Now()
		if _, err := hub.Post(topic, room.Draft{Content: fmt.Sprintf("bench post %d", i)}); err != nil {
			b.Fatal(err)
		}
		var last time.Duration
		for k := range n {
			select {
			case at := <-seatTags[k]:
				d := at.Sub(start)
				perSeat += d
				last = max(last, d)
			case <-time.After(benchWait):
				b.Fatalf("post %d: no tag written on seat%d within %v", i, k, benchWait)
			}
		}
		all += last
		// Pace: every seat typed its "\r", then the quiet time passes.
		testkit.EventuallyWithin(b, benchWait, "every seat's queue empty", func() bool {
			for _, s := range seats {
				if st := s.typist.State(); st.Queued > 0 || st.Typing {
					return false
				}
			}
			return true
		})
		pace := time.NewTimer(benchPace)
		<-pace.C
	}
	b.ReportMetric(float64(all.Nanoseconds())/float64(b.N), "deliver-ns")
	b.ReportMetric(float64(perSeat.Nanoseconds())/float64(b.N*n), "seat-ns")
}

// benchKinds is room.Accounts over an account map.
type benchKinds map[string]config.Account

func (k benchKinds) AccountKind(id string) (string, bool) {
	a, ok := k[id]
	return string(a.Kind), ok
}
