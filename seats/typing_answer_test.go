package seats

import (
	"testing"
	"time"
)

// TestTypistNextPostWaitsForTheCLIToTakeTheEnter: after a post's "\r" the
// next post waits until the terminal showed output (the CLI ran and took
// its Enter), then for the quiet time from that output: a CLI starved
// across the gap never reads two posts and their "\r"s in one read. A CLI
// that draws nothing gets the next post AnswerWait after the "\r".
func TestTypistNextPostWaitsForTheCLIToTakeTheEnter(t *testing.T) {
	t.Parallel()
	const wait = 10 * time.Second
	for _, answered := range []bool{true, false} {
		c := newFakeClock()
		w := newRecWriter(c)
		ty := NewTypist(w, TypistOptions{Clock: c, Location: time.FixedZone("JST", 9*3600), Ready: true, AnswerWait: wait})
		ty.Enqueue(testPost("m1", "one"))
		ty.Enqueue(testPost("m2", "two"))
		w.waitN(t, 1)
		c.waitArmed(t, typingGap)
		c.Advance(typingGap)
		if ws := w.waitN(t, 2); ws[1].data != "\r" {
			t.Fatalf("write 2 = %q, want the first post's \\r", ws[1].data)
		}
		c.waitArmed(t, wait)
		// The CLI has drawn nothing: however quiet the PTY, post 2 waits.
		c.Advance(3 * typingGap)
		if got := settle(t, ty, w); len(got) != 2 {
			t.Fatalf("post 2 typed before the CLI took the first \\r: %q", datas(got))
		}
		if answered {
			ty.Output() // the CLI redrew: it took its Enter
			c.waitArmed(t, typingGap)
			if got := settle(t, ty, w); len(got) != 2 {
				t.Fatalf("post 2 typed without the quiet time after the CLI's answer: %q", datas(got))
			}
			c.Advance(typingGap)
		} else {
			c.Advance(wait) // a CLI that draws nothing for an Enter
		}
		if ws := w.waitN(t, 3); ws[2].data != payload("m2", "two") {
			t.Fatalf("write 3 = %q, want post 2", ws[2].data)
		}
		_ = ty.Close()
	}
}

// TestTypistOutputBeforeAPostIsNoAnswer: output seen before a post's "\r"
// (the CLI drawing the pasted text) does not count as taking that Enter.
func TestTypistOutputBeforeAPostIsNoAnswer(t *testing.T) {
	t.Parallel()
	c := newFakeClock()
	w := newRecWriter(c)
	ty := NewTypist(w, TypistOptions{Clock: c, Location: time.UTC, Ready: true, AnswerWait: time.Minute})
	t.Cleanup(func() { _ = ty.Close() })
	ty.Enqueue(testPost("m1", "one"))
	ty.Enqueue(testPost("m2", "two"))
	w.waitN(t, 1)
	ty.Output() // the paste drawn
	c.waitArmed(t, typingGap)
	c.Advance(typingGap)
	w.waitN(t, 2)
	c.waitArmed(t, time.Minute)
	c.Advance(typingGap)
	if got := settle(t, ty, w); len(got) != 2 {
		t.Fatalf("post 2 typed on output from before the \\r: %q", datas(got))
	}
}

// echoWriter is a recWriter whose terminal answers a "\r" while it is
// being written, as a cooked terminal's echo does.
type echoWriter struct {
	*recWriter
	ty *Typist
}

func (w *echoWriter) Write(p []byte) (int, error) {
	if string(p) == "\r" && w.ty != nil {
		w.ty.Output()
	}
	return w.recWriter.Write(p)
}

// TestTypistAnswerDuringTheEnterWrite: output that comes while the "\r" is
// being written is the CLI's answer (the terminal echoed it), not output
// from before: the next post does not wait AnswerWait for another.
func TestTypistAnswerDuringTheEnterWrite(t *testing.T) {
	t.Parallel()
	c := newFakeClock()
	w := &echoWriter{recWriter: newRecWriter(c)}
	ty := NewTypist(w, TypistOptions{Clock: c, Location: time.FixedZone("JST", 9*3600), Ready: true, AnswerWait: time.Minute})
	w.ty = ty
	t.Cleanup(func() { _ = ty.Close() })
	ty.Enqueue(testPost("m1", "one"))
	ty.Enqueue(testPost("m2", "two"))
	w.waitN(t, 1)
	c.waitArmed(t, typingGap)
	c.Advance(typingGap)
	w.waitN(t, 2)
	c.waitArmed(t, time.Minute)
	c.waitArmed(t, typingGap) // the quiet time after the answer, not the minute
	c.Advance(typingGap)
	if ws := w.waitN(t, 3); ws[2].data != payload("m2", "two") {
		t.Fatalf("write 3 = %q, want post 2", ws[2].data)
	}
}
