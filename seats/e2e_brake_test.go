//go:build linux || darwin

package seats_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/logstore"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats"
	"github.com/pullcept/pullcept/testdata/fakecli"
)

// e2eBrake is the brake of TestE2EBrakeStopsTwoEchoSeats: small, so a run
// takes a few seconds of typing.
const e2eBrake = 4

// TestE2EBrakeStopsTwoEchoSeats is the brake's acceptance test
// (docs/design.md §2 "The brake"): two seats whose fake CLI answers every
// post typed into it with say_to_room (fakecli -echo), in real PTYs with
// the real sidecar, hub, server and seat Manager. The human's post starts
// a run; the seats answer each other until N AI posts in a row, then the
// room stops typing AI posts, delivers one notice, and the log stops
// growing: in flight then are only the two answers to the notice (typed
// into both seats), of which the floor lets one through. The human's next
// post starts a new run that stops at N again. No post made while braked
// was ever typed into a seat.
func TestE2EBrakeStopsTwoEchoSeats(t *testing.T) {
	r := newRigBrake(t, nil, e2eBrake)
	r.setEnv(os.Environ())
	lines := map[string]string{}
	seatOf := map[string]*seats.Seat{}
	for _, id := range []string{"ping", "pong"} {
		lines[id] = filepath.Join(r.root, id+"-lines.jsonl")
		r.fakeCLIAccount(id, strings.ToUpper(id[:1])+id[1:], "-join -echo -lines "+config.QuoteWord(lines[id]))
		_, seatOf[id] = r.start(id)
	}
	for id, s := range seatOf {
		r.waitReady(id, s)
	}

	first := r.brakeRun(t, "go", seatOf)
	if !r.hub.Braked(e2eTopic) {
		t.Fatal("not braked after the first run")
	}
	second := r.brakeRun(t, "go on", seatOf)

	// Nothing else was said: the log is the two runs, nothing between or
	// after them.
	if got, want := recordIDs(r.logRecords()), append(first.ids(), second.ids()...); !slices.Equal(got, want) {
		t.Fatalf("topic log\n %q\nwant the two runs\n %q", got, want)
	}
	// Posts made while braked were never typed into a seat; the notices
	// were, into both (every line a seat read was typed before the second
	// run's end, which the seats answered).
	for id, path := range lines {
		read, err := fakecli.Lines(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, run := range []brakeRunLog{first, second} {
			for _, p := range []room.Post{run.chain[len(run.chain)-1], run.answer} {
				if typedLine(read, p.MessageID) {
					t.Errorf("%s read post %s (%q), made while braked", id, p.MessageID, p.Content)
				}
			}
			if !typedLine(read, run.notice.MessageID) {
				t.Errorf("%s never read the notice %s", id, run.notice.MessageID)
			}
		}
	}
}

// brakeRunLog is one run of TestE2EBrakeStopsTwoEchoSeats as delivered:
// the human's post, the AI posts that answered each other, the brake's
// notice and the one answer to the notice the floor let through.
type brakeRunLog struct {
	human  room.Post
	chain  []room.Post
	notice room.Post
	answer room.Post
}

// ids are the run's posts in delivery order.
func (b brakeRunLog) ids() []string {
	ids := []string{b.human.MessageID}
	for _, p := range b.chain {
		ids = append(ids, p.MessageID)
	}
	return append(ids, b.notice.MessageID, b.answer.MessageID)
}

// brakeRun posts content as the human, waits for the brake to engage and
// for both seats to have answered its notice (then nothing is in flight:
// the notice was the last post typed into them), and checks the run: the
// brake released by the human's post, exactly N AI posts each answering the
// one before (the first answers the human), BrakeChanged on at N, the
// notice right after the N-th, and one answer to the notice.
func (r *rig) brakeRun(t *testing.T, content string, seatOf map[string]*seats.Seat) brakeRunLog {
	t.Helper()
	wasBraked := r.hub.Braked(e2eTopic)
	mark := len(r.room.all())
	run := brakeRunLog{human: r.post(content)}
	if wasBraked {
		r.room.waitForAfter(t, "the brake released by the human's post", mark, func(e room.Event) bool {
			b, ok := e.(room.BrakeChanged)
			return ok && b.Topic == e2eTopic && !b.On
		})
	}
	on := r.room.waitForAfter(t, "the brake engaged", mark, func(e room.Event) bool {
		b, ok := e.(room.BrakeChanged)
		return ok && b.Topic == e2eTopic && b.On
	}).(room.BrakeChanged)
	if on.Count != e2eBrake {
		t.Errorf("BrakeChanged %+v, want Count %d", on, e2eBrake)
	}
	run.notice = r.room.waitForAfter(t, "the brake's notice", mark, func(e room.Event) bool {
		d, ok := e.(room.PostDelivered)
		return ok && d.Topic == e2eTopic && d.Post.Role == room.RoleApp
	}).(room.PostDelivered).Post
	r.see(run.notice)
	for id, s := range seatOf {
		e2eUntil(t, id+" answered the notice", func() bool {
			text := seatText(s)
			return strings.Contains(text, fakecli.Answered(run.notice.MessageID, true)) ||
				strings.Contains(text, fakecli.Answered(run.notice.MessageID, false))
		}, s.Done())
	}

	recs := r.logRecords()
	start := slices.IndexFunc(recs, func(rec logstore.Record) bool { return rec.MessageID == run.human.MessageID })
	if start < 0 {
		t.Fatalf("the human's post %s is not in the log", run.human.MessageID)
	}
	after := recs[start+1:]
	if len(after) != e2eBrake+2 {
		t.Fatalf("after the human's post the log holds %d posts, want %d AI posts, the notice and one answer:\n%+v",
			len(after), e2eBrake, after)
	}
	prev := run.human.MessageID
	for i, rec := range after[:e2eBrake] {
		if rec.FromApp || rec.Content != "re "+prev || (i > 0 && rec.Account == after[i-1].Account) {
			t.Fatalf("AI post %d of the run = %+v, want the other seat answering %s", i+1, rec, prev)
		}
		run.chain = append(run.chain, recordPost(rec))
		prev = rec.MessageID
	}
	if n := after[e2eBrake]; n.MessageID != run.notice.MessageID || n.Speaker != room.AppSpeaker || !n.FromApp || n.Account != "" {
		t.Fatalf("after the %d-th AI post: %+v, want the notice", e2eBrake, n)
	}
	run.answer = recordPost(after[e2eBrake+1])
	if run.answer.Content != "re "+run.notice.MessageID {
		t.Fatalf("last post %+v, want one answer to the notice", run.answer)
	}
	return run
}

// recordPost is the part of a post its log record keeps.
func recordPost(rec logstore.Record) room.Post {
	return room.Post{MessageID: rec.MessageID, Speaker: rec.Speaker, Account: rec.Account, FromApp: rec.FromApp, Content: rec.Content}
}

func recordIDs(recs []logstore.Record) []string {
	ids := make([]string, 0, len(recs))
	for _, rec := range recs {
		ids = append(ids, rec.MessageID)
	}
	return ids
}

// typedLine reports whether a fake CLI read the tag line of post
// messageID.
func typedLine(read []string, messageID string) bool {
	return slices.ContainsFunc(read, func(l string) bool {
		return strings.HasPrefix(l, room.TagPrefix) && strings.Contains(l, `"message_id":"`+messageID+`"`)
	})
}
