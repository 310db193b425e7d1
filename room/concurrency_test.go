package room

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// TestConcurrentPosters: 16 sockets post 50 posts each at once through the
// real server, re-sending (new message_id, last_seen = the newest missed
// post) after every rejection. Every post is eventually delivered exactly
// once, and both subscribers and the log see one identical order.
func TestConcurrentPosters(t *testing.T) {
	const (
		clients = 16
		each    = 50
		total   = clients * each
	)
	log := newMemLog()
	terms := newFakeTerms()
	for i := range clients {
		terms.seated[fmt.Sprintf("t/acct-%d", i)] = true
	}
	h := newTestHub(t, log, terms, nil)
	mustOpen(t, h, "t")
	s := newTestServer(t, h, ServerOptions{})

	collected := collectPosts(h, 2, total)
	conns := make([]*client, clients)
	for i := range conns {
		conns[i] = dialRoom(t, s, bearer(s))
		conns[i].hello(fmt.Sprintf("seat-%d", i), "t", fmt.Sprintf("acct-%d", i))
	}
	waitRoster(t, h, "t", clients)

	delivered, rejections := postConcurrently(t, conns, each)
	seen := collected()
	if t.Failed() {
		return
	}
	logIDs := log.ids("t")
	if len(logIDs) != total {
		t.Fatalf("log has %d posts, want %d", len(logIDs), total)
	}
	checkSubscribersFollowLog(t, logIDs, seen)
	checkDeliveredLogged(t, delivered, each, logIDs)
	// Every post was typed into every other seat, never its own.
	checkTypedIntoOthers(t, terms, total*(clients-1))
	t.Logf("%d posts delivered, %d rejections re-sent", total, rejections)
}

// collectPosts subscribes n times to h and collects each subscription's
// PostDelivered events until it has total of them (or two minutes
// passed). The returned func waits for the collectors and returns them.
func collectPosts(h *Hub, n, total int) func() [][]PostDelivered {
	seen := make([][]PostDelivered, n)
	var collect sync.WaitGroup
	for i := range n {
		sub := h.Subscribe()
		collect.Add(1)
		go func() {
			defer collect.Done()
			deadline := time.After(testkit.Slow(2 * time.Minute))
			for len(seen[i]) < total {
				select {
				case e, ok := <-sub.C():
					if !ok {
						return
					}
					if pd, is := e.(PostDelivered); is {
						seen[i] = append(seen[i], pd)
					}
				case <-deadline:
					return
				}
			}
		}()
	}
	return func() [][]PostDelivered {
		collect.Wait()
		return seen
	}
}

// postConcurrently has every client post each posts at once, re-sending
// after a rejection with the newest missed post as last_seen, and returns
// the ids each client got delivered and the number of rejections.
func postConcurrently(t *testing.T, conns []*client, each int) (delivered [][]string, rejections int) {
	t.Helper()
	delivered = make([][]string, len(conns))
	rejected := make([]int, len(conns))
	var wg sync.WaitGroup
	for i, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			watermark := ""
			for n := range each {
				for attempt := 0; ; attempt++ {
					id := fmt.Sprintf("c%d-p%d-a%d", i, n, attempt)
					fr, err := c.tryPost(id, fmt.Sprintf("post %d of seat %d", n, i), watermark)
					if err != nil {
						t.Errorf("client %d: %v", i, err)
						return
					}
					if fr.Error != "" {
						t.Errorf("client %d post %s: error %s", i, id, fr.Error)
						return
					}
					if fr.Delivered {
						delivered[i] = append(delivered[i], id)
						break
					}
					if len(fr.Missed) == 0 {
						t.Errorf("client %d post %s: rejected without missed posts", i, id)
						return
					}
					rejected[i]++
					watermark = fr.Missed[len(fr.Missed)-1].MessageID
				}
			}
		}()
	}
	wg.Wait()
	for _, r := range rejected {
		rejections += r
	}
	return delivered, rejections
}

// checkSubscribersFollowLog checks that every subscriber saw the log's
// posts, in the log's order, with seqs 1, 2, ….
func checkSubscribersFollowLog(t *testing.T, logIDs []string, seen [][]PostDelivered) {
	t.Helper()
	for i := range seen {
		if len(seen[i]) != len(logIDs) {
			t.Fatalf("subscriber %d saw %d posts, want %d", i, len(seen[i]), len(logIDs))
		}
		var ids []string
		for j, pd := range seen[i] {
			if pd.Seq != uint64(j+1) {
				t.Fatalf("subscriber %d event %d has seq %d", i, j, pd.Seq)
			}
			ids = append(ids, pd.Post.MessageID)
		}
		if !slices.Equal(ids, logIDs) {
			t.Fatalf("subscriber %d order differs from the log", i)
		}
	}
}

// checkDeliveredLogged checks that each client got each posts delivered
// and that the delivered ids are exactly the logged ones.
func checkDeliveredLogged(t *testing.T, delivered [][]string, each int, logIDs []string) {
	t.Helper()
	var all []string
	for i := range delivered {
		if len(delivered[i]) != each {
			t.Fatalf("client %d delivered %d", i, len(delivered[i]))
		}
		all = append(all, delivered[i]...)
	}
	slices.Sort(all)
	if !slices.Equal(all, slices.Sorted(slices.Values(logIDs))) {
		t.Fatal("delivered ids and logged ids differ")
	}
}

// checkTypedIntoOthers checks that terms got want typing calls, none of
// them a post typed back into its own speaker's seat.
func checkTypedIntoOthers(t *testing.T, terms *fakeTerms, want int) {
	t.Helper()
	terms.mu.Lock()
	defer terms.mu.Unlock()
	if got := len(terms.calls); got != want {
		t.Fatalf("%d typing calls, want %d", got, want)
	}
	for _, c := range terms.calls {
		if c.post.Account == c.account {
			t.Fatalf("post %s typed back into its own seat", c.post.MessageID)
		}
	}
}

// tryPost is post without t.Fatal (usable from goroutines).
func (c *client) tryPost(id, content, lastSeen string) (PostResultFrame, error) {
	if err := c.ws.WriteJSON(PostFrame{Type: FramePost, MessageID: id, Content: content, LastSeen: lastSeen}); err != nil {
		return PostResultFrame{}, err
	}
	_ = c.ws.SetReadDeadline(time.Now().Add(testkit.Slow(time.Minute)))
	var fr PostResultFrame
	if err := c.readJSON(&fr); err != nil {
		return fr, err
	}
	if fr.Type != FramePostResult || fr.MessageID != id {
		return fr, fmt.Errorf("want post_result %s, got %+v", id, fr)
	}
	return fr, nil
}
