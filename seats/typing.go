package seats

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/pullcept/pullcept/room"
)

// typingGap is the pause between a post's text and its "\r" (paste, then
// Enter). Claude Code drops a "\r" that arrives in the same read as the text
// and Codex takes it as a newline of the paste; a separate "\r" 0–100 ms
// later submits in both (research/claude-code-e2e.md §5 and item 7,
// codex-e2e.md §4). 200 ms is the margin measured as safe with both.
const typingGap = 200 * time.Millisecond

// readyFallback is how long after its sidecar's hello a seat's queue waits
// for the `ready` frame before typing anyway (DESIGN §7 "Startup race"): a
// CLI has listed its tools within a few seconds of the hello in every
// measured start, and a sidecar that never sends ready (an older one, a lost
// frame) must not hold posts forever.
const readyFallback = 10 * time.Second

// Clock is the Typist's time source: Now for the record, After for the
// typing gap and the ready fallback. Tests inject a fake one.
type Clock interface {
	Now() time.Time
	After(d time.Duration) <-chan time.Time
}

type realClock struct{}

func (realClock) Now() time.Time                         { return time.Now() }
func (realClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// TypistOptions configures NewTypist. The zero value is right for a seat:
// real time, tags in the machine's local time, and typing held until Ready
// (or readyFallback after Joined). Set Ready for a seat without a sidecar.
type TypistOptions struct {
	Clock    Clock          // nil: real time
	Location *time.Location // the tag's "at" zone; nil: time.Local
	Ready    bool           // start ready (no sidecar to wait for)
}

// TypistState is a Typist's queue as the UI shows it. Holds lists the
// reasons given to Hold (sorted); Unsent is the human's unsent-input state;
// Queued counts posts not typed yet; Typing is true between a post's text
// and its "\r"; Err is the write error that stopped the queue, if any.
type TypistState struct {
	Ready  bool
	Holds  []string
	Unsent bool
	Queued int
	Typing bool
	Err    error
}

// Typist is one terminal's typing queue and the only writer of its PTY
// (DESIGN §5; STYLE "One writer per PTY"). Human keys, the emulator's
// replies and room posts all go through its FIFO and one writer goroutine;
// no method ever blocks on the PTY.
//
// Keys and replies are written at once, in order, never held. A post is
// typed as its tag line, "\n" and its normalized body in ONE write, then
// "\r" typingGap later in a separate write; the next post waits for that
// "\r". A post is held — and typed in order later — while the seat is not
// ready (its sidecar has not reported `ready`, DESIGN §7), while any Hold
// reason is set (a permission prompt), or while the human has unsent text
// on the line (UnsentInput). Whether to hold is decided when the post
// reaches the head of the queue, after every key written before it; posts
// arriving meanwhile queue behind the held ones. The app's own "\r" also
// submits whatever the human typed during the gap, so after it the line is
// empty.
type Typist struct {
	w     io.Writer
	clock Clock
	loc   *time.Location

	mu      sync.Mutex
	input   [][]byte // keys and replies not written yet
	posts   [][]byte // typed posts (tag + "\n" + body) not written yet
	ready   bool
	joined  bool
	holds   map[string]bool
	unsent  UnsentInput // written by the writer goroutine only, under mu
	typing  bool
	stopped bool // the writer goroutine has ended (Close or a write error)
	err     error

	wake chan struct{} // capacity 1: new work or a state change
	quit chan struct{} // closed by Close
	done chan struct{} // closed when the writer goroutine ends
	once sync.Once
}

// NewTypist starts the typing queue and its writer goroutine writing to w
// (the seat's Proc). It cannot fail; Close ends the goroutine.
func NewTypist(w io.Writer, o TypistOptions) *Typist {
	if o.Clock == nil {
		o.Clock = realClock{}
	}
	if o.Location == nil {
		o.Location = time.Local
	}
	t := &Typist{
		w:     w,
		clock: o.Clock,
		loc:   o.Location,
		ready: o.Ready,
		holds: map[string]bool{},
		wake:  make(chan struct{}, 1),
		quit:  make(chan struct{}),
		done:  make(chan struct{}),
	}
	go t.run()
	return t
}

// Enqueue queues p to be typed: room.Tag(p) + "\n" + NormalizeBody(p.Content)
// (DESIGN §4, §5). It never blocks; after Close it does nothing.
func (t *Typist) Enqueue(p room.Post) {
	payload := []byte(room.Tag(p, t.loc) + "\n" + NormalizeBody(p.Content))
	t.mu.Lock()
	if !t.stopped {
		t.posts = append(t.posts, payload)
	}
	t.mu.Unlock()
	t.poke()
}

// Human queues the bytes of keys the human typed into the pane. They are
// written at once, never held, and read by the unsent-input tracker. Never
// blocks; b is copied.
func (t *Typist) Human(b []byte) { t.push(b) }

// Reply queues the emulator's bytes for the child: its replies (cursor
// position, device attributes) and keys it encoded (Screen.SendKey, Paste).
// Like Human: written at once, never held; the tracker reads them too
// (replies are escape sequences, which change nothing). Wire it as the
// Screen's reply function.
func (t *Typist) Reply(b []byte) { t.push(b) }

func (t *Typist) push(b []byte) {
	if len(b) == 0 {
		return
	}
	t.mu.Lock()
	if !t.stopped {
		t.input = append(t.input, slices.Clone(b))
	}
	t.mu.Unlock()
	t.poke()
}

// Ready releases the not-ready hold: the seat's sidecar reported `ready`
// (DESIGN §7).
func (t *Typist) Ready() {
	t.mu.Lock()
	t.ready = true
	t.mu.Unlock()
	t.poke()
}

// Joined reports that the seat's sidecar said hello; if Ready does not
// follow within readyFallback, the queue becomes ready anyway. Later calls
// do not extend the wait.
func (t *Typist) Joined() {
	t.mu.Lock()
	t.joined = true
	t.mu.Unlock()
	t.poke()
}

// Hold holds room typing for reason (e.g. a permission prompt reported by
// hooks, DESIGN §5) until Release(reason). Reasons are a set: holding one
// twice needs one Release.
func (t *Typist) Hold(reason string) {
	t.mu.Lock()
	t.holds[reason] = true
	t.mu.Unlock()
}

// Release drops a Hold reason; held posts are typed once no reason is left.
func (t *Typist) Release(reason string) {
	t.mu.Lock()
	delete(t.holds, reason)
	t.mu.Unlock()
	t.poke()
}

// State reports the queue for the UI.
func (t *Typist) State() TypistState {
	t.mu.Lock()
	defer t.mu.Unlock()
	holds := make([]string, 0, len(t.holds))
	for r := range t.holds {
		holds = append(holds, r)
	}
	slices.Sort(holds)
	return TypistState{Ready: t.ready, Holds: holds, Unsent: !t.unsent.Empty(),
		Queued: len(t.posts), Typing: t.typing, Err: t.err}
}

// Close stops the writer goroutine and waits for it; queued posts are not
// typed (they are in the topic log). It returns the write error that stopped
// the queue, if any. If a write may be blocked (the child stopped reading),
// close the PTY first. Safe to call more than once.
func (t *Typist) Close() error {
	t.once.Do(func() { close(t.quit) })
	<-t.done
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.err
}

func (t *Typist) poke() {
	select {
	case t.wake <- struct{}{}:
	default:
	}
}

// run is the writer goroutine: the only caller of t.w.Write.
func (t *Typist) run() {
	defer close(t.done)
	defer func() {
		if r := recover(); r != nil {
			t.stop(fmt.Errorf("typing queue: panic: %v", r))
		}
	}()
	var gap, fallback <-chan time.Time
	armed := false // the ready fallback was started (once per Typist)
	enterDue := false
	for {
		// Keys and replies first, in order: they are never held, and the
		// decision below must see every key written before it.
		for {
			b, ok := t.nextInput()
			if !ok {
				break
			}
			if !t.write(b, func() { t.unsent.Feed(b) }) {
				return
			}
		}
		if enterDue {
			enterDue = false
			if !t.write([]byte{'\r'}, func() { t.unsent.Reset(); t.typing = false }) {
				return
			}
		}
		t.mu.Lock()
		if t.joined && !t.ready && !armed {
			armed = true
			fallback = t.clock.After(readyFallback)
		}
		t.mu.Unlock()
		if gap == nil {
			if post, ok := t.nextPost(); ok {
				if !t.write(post, func() { t.typing = true }) {
					return
				}
				gap = t.clock.After(typingGap)
			}
		}
		select {
		case <-t.wake:
		case <-gap:
			gap, enterDue = nil, true
		case <-fallback:
			fallback = nil
			t.mu.Lock()
			t.ready = true
			t.mu.Unlock()
		case <-t.quit:
			t.stop(nil)
			return
		}
	}
}

// nextInput pops the oldest key or reply.
func (t *Typist) nextInput() ([]byte, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.input) == 0 {
		return nil, false
	}
	b := t.input[0]
	t.input[0] = nil
	t.input = t.input[1:]
	return b, true
}

// nextPost pops the head post if nothing holds it (decided now, DESIGN §5).
func (t *Typist) nextPost() ([]byte, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.posts) == 0 || !t.ready || len(t.holds) > 0 || !t.unsent.Empty() {
		return nil, false
	}
	p := t.posts[0]
	t.posts[0] = nil
	t.posts = t.posts[1:]
	return p, true
}

// write writes b to the PTY outside the lock, then applies after under it.
// On a write error the queue stops and write reports false.
func (t *Typist) write(b []byte, after func()) bool {
	if _, err := t.w.Write(b); err != nil {
		t.stop(fmt.Errorf("type into terminal: %w", err))
		return false
	}
	t.mu.Lock()
	after()
	t.mu.Unlock()
	return true
}

// stop ends the queue: later Enqueue/Human/Reply calls are dropped.
func (t *Typist) stop(err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.stopped = true
	t.input, t.posts = nil, nil
	if err != nil && t.err == nil {
		t.err = err
	}
}

// NormalizeBody prepares a post's body for typing (DESIGN §5): "\r\n" and
// "\r" become "\n" and every other control character (C0 including tab, DEL,
// C1) is dropped, because the terminal reads each of them as a key: a "\r"
// would submit half the post, a tab would complete or switch modes in the
// CLI's input. Tabs are dropped rather than expanded: the body in the log
// keeps them, and a seat reads exact text with read_room_history. Bytes that
// are not UTF-8 become U+FFFD, never a raw 0x80–0x9F byte an 8-bit parser
// would take as a control (0x9B is CSI).
func NormalizeBody(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\r':
			b.WriteByte('\n')
			if i+1 < len(s) && s[i+1] == '\n' {
				n++
			}
		case r == '\n':
			b.WriteByte('\n')
		case r == utf8.RuneError && n == 1:
			b.WriteRune(utf8.RuneError)
		case unicode.IsControl(r):
			// dropped
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
