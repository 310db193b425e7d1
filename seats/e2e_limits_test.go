//go:build linux || darwin

package seats_test

import (
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/testdata/fakeapi"
)

// TestE2EClaudeUsageLimit: the real Claude Code 2.1.328 is refused on its
// plan's limit (the fake answers the 429 Claude writes its refusal entry
// for, docs/clis.md §2.17). Pullcept reads the stop from the transcript:
// the room gets a notice (not typed into the seat), the panel shows the
// seat limited with its reset, the resume prompt is typed into the seat
// once the reset and the grace passed (the Manager's clock is moved past
// them), and the seat's next normal answer is the recovery.
func TestE2EClaudeUsageLimit(t *testing.T) {
	var refused atomic.Bool
	script := fakeapi.Script{}
	// The reset an hour ahead: Claude itself waits for and retries a near
	// one (measured); the test moves the Manager's clock past it.
	var reset atomic.Int64
	respond := func(req *fakeapi.Request) fakeapi.Reply {
		posts := req.NewPosts()
		if len(posts) > 0 && posts[len(posts)-1].FirstLine() == "hello" && !refused.Swap(true) {
			at := time.Now().Add(time.Hour).Truncate(time.Second)
			reset.Store(at.Unix())
			return fakeapi.ClaudeRateLimit(at)
		}
		if len(posts) > 0 && posts[len(posts)-1].Tag.Role == string(room.RoleApp) {
			return fakeapi.TextReply("back at work")
		}
		return script.Decide(withoutSeatPosts(req))
	}
	limits := claudeLimits()
	r := newRigWith(t, fakeapi.Options{Respond: respond, ClaudeLimits: &limits}, 0)
	env, _ := fakeapi.ClaudeEnv(t, r.base, r.root)
	r.setEnv(gateway(env))
	ada := r.claudeAccount("ada", "Ada")
	_, s := r.start(ada.ID)
	r.waitReady(ada.ID, s)

	r.post("hello @Ada")
	stop := r.waitPost("the stop notice", func(p room.Post) bool {
		return p.FromApp && strings.Contains(p.Content, "Ada stopped on its usage limit")
	})
	if !strings.HasSuffix(stop.Content, "(no reply needed)") || stop.Role != room.RoleApp || stop.Speaker != room.AppSpeaker {
		t.Errorf("stop notice %+v", stop)
	}
	in := r.seatInfo(ada.ID)
	if !in.Limit.Limited || in.Limit.ResetsAt.Unix() != reset.Load() {
		t.Errorf("panel while stopped: %+v (reset %d)", in.Limit, reset.Load())
	}
	r.skip.Store(int64(time.Hour + 5*time.Second)) // past the reset and the grace
	typed := r.waitPost("the prompt notice", func(p room.Post) bool {
		return p.FromApp && strings.Contains(p.Content, "types a resume prompt")
	})
	e2eUntil(t, "the resume prompt reached the model", func() bool {
		return slices.ContainsFunc(r.fake.Exchanges(), func(ex fakeapi.Exchange) bool {
			return len(carrying(ex.Request, typed.MessageID)) > 0
		})
	}, s.Done())
	e2eUntil(t, "Ada recovered (a normal answer)", func() bool { return !r.seatInfo(ada.ID).Limit.Limited }, s.Done())
	// Neither notice was typed into Ada: only the prompt carries the id.
	for _, ex := range r.fake.Exchanges() {
		if len(carrying(ex.Request, stop.MessageID)) > 0 {
			t.Errorf("the stop notice was typed into Ada")
		}
	}
}
