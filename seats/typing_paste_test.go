package seats

import (
	"sync/atomic"
	"testing"
	"time"
)

// TestTypistBracketedPasteWhenAsked: a post goes between the paste markers
// exactly when the program has bracketed paste on at the moment of typing,
// and its "\r" stays a separate write typingGap later.
func TestTypistBracketedPasteWhenAsked(t *testing.T) {
	t.Parallel()
	c := newFakeClock()
	w := newRecWriter(c)
	var on atomic.Bool
	ty := NewTypist(w, TypistOptions{Clock: c, Location: time.FixedZone("JST", 9*3600), Ready: true,
		BracketedPaste: on.Load})
	t.Cleanup(func() { _ = ty.Close() })

	on.Store(true)
	ty.Enqueue(testPost("m1", "one\r\ntwo"))
	ty.Enqueue(testPost("m2", "three"))
	ws := w.waitN(t, 1)
	if want := "\x1b[200~" + payload("m1", "one\r\ntwo") + "\x1b[201~"; ws[0].data != want {
		t.Fatalf("first write %q, want %q", ws[0].data, want)
	}
	c.waitArmed(t, typingGap)
	on.Store(false) // the program turned it off: decided per post
	c.Advance(typingGap)
	if ws := w.waitN(t, 2); ws[1].data != "\r" {
		t.Fatalf("second write %q, want the lone \\r", ws[1].data)
	}
	c.waitArmed(t, typingGap) // quiet after the "\r"
	c.Advance(typingGap)
	if ws := w.waitN(t, 3); ws[2].data != payload("m2", "three") {
		t.Fatalf("third write %q, want the unmarked post", ws[2].data)
	}
}
