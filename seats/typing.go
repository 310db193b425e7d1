package seats

import (
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/room/blank"
)

// typingGap is the pause between a post's text and its "\r" (paste, then
// Enter). Claude Code drops a "\r" that arrives in the same read as the text
// and Codex takes it as a newline of the paste; a separate "\r" 0–100 ms
// later submits in both (docs/clis.md). 200 ms is the margin measured as
// safe with both.
//
// typingGap is also the quiet time before a post's text: the text is
// written only once nothing has been written to the PTY for typingGap (a
// human key, an emulator reply, the previous post's "\r"), so it starts a
// read of its own. A CLI that reads a "\r" together with unmarked text
// after it takes the chunk as one paste, "\r" as a newline (measured with
// Claude Code 2.1.328 before posts were marked: the human's "partial text"
// + Enter and a held post typed right after it arrived as ONE user message
// "partial text\n[pullcept] …"; two posts typed back to back arrived as one
// message holding both tags). Marked posts (see postPasteStart) kept apart
// in both real CLIs even without the wait; it stays for programs that do
// not ask for bracketed paste, at the cost of typingGap between posts.
const typingGap = 200 * time.Millisecond

// answerWait bounds how long the next post waits for the terminal to show
// that the CLI took the previous post's "\r" (TypistOptions.AnswerWait): a
// CLI that draws nothing for an Enter (none measured) gets its next post
// this long after the "\r". Long enough for a CLI starved for seconds — it
// draws nothing while it is not scheduled, which is when two posts would
// reach it in one read — and short enough that a silent program is only
// slow, never stuck.
const answerWait = 10 * time.Second

// readyFallback is how long after its sidecar's hello a seat's queue waits
// for the `ready` frame before typing anyway (docs/design.md §7 "Startup
// race"): a CLI has listed its tools within a few seconds of the hello in
// every measured start, and a sidecar that never sends ready (an older one, a
// lost frame) must not hold posts forever.
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
	// OnChange is called when what State reports may have changed: posts
	// queued or typed, a hold set or released, the human's unsent text
	// appearing or gone, the seat becoming ready. It is called without the
	// Typist's lock, from the caller's goroutine or the writer's, and must
	// not block (the Manager publishes an event). Nil: not called.
	OnChange func()
	// BracketedPaste reports, when a post is about to be typed, whether
	// the program in the terminal enabled bracketed paste (xterm ?2004;
	// Screen tracks it). Then the post's text goes between the paste
	// markers (see postPasteStart). Nil: never. Called on the writer
	// goroutine; it must not block.
	BracketedPaste func() bool
	// AnswerWait makes the next post wait, after a post's "\r", until the
	// terminal showed output after that "\r" (Output: the CLI ran and took
	// its Enter — both real CLIs redraw their input box), or AnswerWait
	// passed (answerWait for a seat). Only time separated two posts before:
	// a CLI starved across the gap (measured with Claude Code 2.1.328
	// stopped 1.5 s from a post's write) read post, "\r", post, "\r" in
	// one read and took the first "\r" as a newline of one long paste, so
	// two posts reached its model as one message. 0: no wait (tests of the
	// gap alone).
	AnswerWait time.Duration
	// Confirm makes the queue confirm each post with the CLI
	// (docs/design.md §5 "Confirmed delivery"): after a post's "\r" the
	// next post waits until Submitted reports a submit that starts with its
	// tag, and no post is typed while Busy says the CLI is in a turn. A
	// post not confirmed within ConfirmWait is examined (InComposer); one
	// still unconfirmed after that is marked (TypistState.Unconfirmed) and
	// the queue waits for the human. Off: a kind that cannot confirm
	// (a generic CLI) is typed as before.
	Confirm bool
	// ConfirmWait bounds each wait for a confirmation (confirmWait).
	ConfirmWait time.Duration
	// InComposer reads the CLI's input box off its screen and says
	// whether it holds exactly text (a post as typed: tag, "\n", body) —
	// then one more "\r" may submit it —, nothing, or something else or
	// unknown. Nil: always unknown. Called on the writer goroutine; it
	// must not block.
	InComposer func(text string) Composer
	// OnDelivery is called when a post is confirmed, goes unconfirmed, or
	// a submit held more than one post (fused). Called without the
	// Typist's lock; it must not block. Nil: not called.
	OnDelivery func(Delivery)
	// OnTyped is called as each write of the human's keys or of a post
	// (its text, its Enter) starts and as it ends — not for the
	// emulator's replies: what the terminal shows right after is the
	// answer to it (cli.EchoWindow). Called on the writer goroutine
	// without the Typist's lock; it must not block. Nil: not called.
	OnTyped func()
}

// Delivery is what OnDelivery reports about posts typed into a seat.
type Delivery struct {
	Kind DeliveryKind
	// IDs are the posts' message ids: one for Confirmed and Unconfirmed,
	// every post of the submit for Fused.
	IDs []string
}

// DeliveryKind says what happened to a typed post.
type DeliveryKind int

// Delivery kinds.
const (
	// DeliveryConfirmed: the CLI took the post as a submit of its own
	// (also late, after it was marked unconfirmed).
	DeliveryConfirmed DeliveryKind = iota + 1
	// DeliveryUnconfirmed: the CLI did not confirm the post in time, also
	// after one more Enter when the post sat in its input box.
	DeliveryUnconfirmed
	// DeliveryFused: one submit held more than one post typed here.
	DeliveryFused
	// DeliveryRetried: the post sat in the CLI's input box unconfirmed and
	// one more Enter was typed.
	DeliveryRetried
)

// Composer is what a CLI's input box holds (TypistOptions.InComposer).
type Composer int

// Composer answers.
const (
	// ComposerUnknown: something else, or the box was not found: a post
	// typed now could be glued to what it holds.
	ComposerUnknown Composer = iota
	// ComposerEmpty: the box is empty.
	ComposerEmpty
	// ComposerHolds: the box holds exactly the post and nothing else.
	ComposerHolds
)

// confirmWait bounds how long a typed post waits for the CLI to confirm it
// before it is examined, and again after one more Enter. Claude Code's
// UserPromptSubmit hook and Codex's thread note come within a second of the
// Enter when the machine is calm; the bound is for a CLI starved for
// seconds on a loaded machine, and a late confirmation still counts.
const confirmWait = 15 * time.Second

// maxUnconfirmed bounds the unconfirmed posts a Typist remembers for the
// UI (oldest dropped first); maxRecent the recent posts it matches a fused
// submit against.
const (
	maxUnconfirmed = 16
	maxRecent      = 16
)

// postPasteStart and postPasteEnd mark a post's text as one paste when the
// program asked for bracketed paste. Measured with Claude Code 2.1.328 and
// Codex 0.169.0 (both enable ?2004): when a CLI reads a post's text and its
// "\r" in one read — its reader starved for more than typingGap, as under
// heavy load; reproduced by stopping the CLI (SIGSTOP) across the two writes
// — unmarked text leaves the post in the input box, never submitted (both
// CLIs take the "\r" as part of the paste), while marked text is submitted
// and reaches the model as the same one text "tag\nbody" (4 of 4, also with
// markers, text and "\r" in a single write). A program that did not ask for
// bracketed paste gets the text unmarked, as docs/design.md §5 first chose.
var (
	postPasteStart = []byte("\x1b[200~")
	postPasteEnd   = []byte("\x1b[201~")
)

// TypistState is a Typist's queue as the UI shows it. Holds lists the
// reasons given to Hold (sorted); Unsent is the human's unsent-input state;
// Queued counts posts not typed yet; Typing is true between a post's text
// and its "\r"; Err is the write error that stopped the queue, if any.
type TypistState struct {
	Ready  bool
	Holds  []string
	Unsent bool
	Queued int
	// QueuedBytes is the text of the queued posts; Folded counts the posts
	// not queued since the seat started, over the queue's bound: each
	// marker typed in their place says how many (docs/design.md §5 "The
	// queue").
	QueuedBytes int
	Folded      int
	Typing      bool
	Err         error
	// Confirming is true for a seat whose CLI confirms each post
	// (TypistOptions.Confirm); the fields below are kept only then.
	Confirming bool
	// Turn: the seat's CLI is in a turn (Busy), so the next post waits for
	// it to end (docs/design.md §5 "Confirmed delivery").
	Turn bool
	// Pending is the message id of the post typed and not confirmed yet
	// ("" none); the next post waits for it.
	Pending string
	// Stuck is the message id of a post the CLI did not confirm in time:
	// the queue waits until it is confirmed late or the human submits or
	// clears the seat's input line ("" none).
	Stuck string
	// Confirmed is the newest confirmed post's message id and when.
	Confirmed   string
	ConfirmedAt time.Time
	// Unconfirmed are the posts the CLI never confirmed, oldest first (at
	// most maxUnconfirmed): the chat marks them.
	Unconfirmed []string
	// Fused counts submits that held more than one post typed here.
	Fused int
}

// Typist is one terminal's typing queue and the only writer of its PTY
// (docs/design.md §5, §14 "One writer per PTY"). Human keys, the emulator's
// replies and room posts all go through its FIFO and one writer goroutine;
// no method ever blocks on the PTY.
//
// Keys and replies are written at once, in order, never held. A post is typed
// as its tag line, "\n" and its normalized body in ONE write (between
// bracketed-paste markers when the program asked for them), then "\r"
// typingGap later in a separate write; the next post waits for that "\r",
// then for the terminal to show output after it (the CLI took its Enter,
// TypistOptions.AnswerWait), and any post's text waits until nothing was
// written to the PTY for typingGap (see typingGap). A post is held — and typed in order later — while the seat
// is not ready (its sidecar has not reported `ready`, docs/design.md §7),
// while any Hold reason is set (a permission prompt), or while the human has
// unsent text on the line (UnsentInput). Whether to hold is decided when the
// post reaches the head of the queue, after every key written before it, and
// again after the quiet time; posts arriving meanwhile queue behind the held
// ones. The app's own "\r" also submits whatever the human typed during the
// gap, so after it the line is empty. For a CLI that confirms
// (TypistOptions.Confirm) a post is also held while the CLI is in a turn
// and until the previous post is confirmed (docs/design.md §5 "Confirmed
// delivery").
type Typist struct {
	w      io.Writer
	clock  Clock
	loc    *time.Location
	paste  func() bool // TypistOptions.BracketedPaste
	change func()      // TypistOptions.OnChange
	answer time.Duration

	// outputs counts the PTY reads that brought output (Output); answering
	// is set while the writer waits for one after a post's "\r".
	outputs   atomic.Uint64
	answering atomic.Bool

	confirm     bool
	confirmWait time.Duration
	inComposer  func(text string) Composer
	onDelivery  func(Delivery)
	onTyped     func() // TypistOptions.OnTyped

	mu    sync.Mutex
	input []keys   // keys and replies not written yet
	posts []queued // posts not written yet
	// replyBytes is the emulator's replies in input (maxQueuedReplies).
	replyBytes int
	// queuedBytes is the text of posts; folded counts the posts not
	// queued, foldSeq the markers made (typebound.go).
	queuedBytes int
	folded      int
	foldSeq     int
	// Confirmed delivery (TypistOptions.Confirm): the post typed and not
	// confirmed, the one that failed to be, whether the CLI is in a turn,
	// and what the UI shows of it.
	pending     string
	pendingText []byte // the pending post as typed, for InComposer
	stuck       string
	stuckText   []byte // the stuck post as typed, for InComposer
	busy        bool
	humanSent   bool // the human sent a line; its turn not reported yet
	confirmed   string
	confirmedAt time.Time
	unconfirmed []string
	recent      []string // message ids typed, newest last (maxRecent)
	fused       int
	ready       bool
	joined      bool
	holds       map[string]bool
	unsent      UnsentInput // written by the writer goroutine only, under mu
	typing      bool
	waiting     bool // the writer is blocked in its select (see quiet)
	stopped     bool // the writer goroutine has ended (Close or a write error)
	err         error
	seen        stateSig // what OnChange last reported

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
	if o.ConfirmWait <= 0 {
		o.ConfirmWait = confirmWait
	}
	t := &Typist{
		w:      w,
		clock:  o.Clock,
		loc:    o.Location,
		ready:  o.Ready,
		paste:  o.BracketedPaste,
		change: o.OnChange,
		answer: o.AnswerWait,
		holds:  map[string]bool{},

		confirm:     o.Confirm,
		confirmWait: o.ConfirmWait,
		inComposer:  o.InComposer,
		onDelivery:  o.OnDelivery,
		onTyped:     o.OnTyped,
		wake:        make(chan struct{}, 1),
		quit:        make(chan struct{}),
		done:        make(chan struct{}),
	}
	go t.run()
	return t
}

// Enqueue queues p to be typed: room.Tag(p) + "\n" + NormalizeBody(p.Content)
// (docs/design.md §4, §5), and for a long post room.ClipNote after the body. It never blocks; after Close it does nothing.
func (t *Typist) Enqueue(p room.Post) {
	if t.foldEarly(p) {
		t.changed()
		return
	}
	text := p.Content
	if note := room.ClipNote(p); note != "" {
		// A long post arrives clipped: the seat is told where the rest is.
		text += "\n" + note
	}
	payload := []byte(room.Tag(p, t.loc) + "\n" + keepEnter(NormalizeBody(text)))
	t.mu.Lock()
	if !t.stopped {
		t.queueLocked(p, payload) // bounded: typebound.go
	}
	t.mu.Unlock()
	t.poke()
	t.changed()
}

// Human queues the bytes of keys the human typed into the pane. They are
// written at once, never held, and read by the unsent-input tracker. Never
// blocks; b is copied.
func (t *Typist) Human(b []byte) { t.push(keys{b: b, tracked: true}) }

// Answer queues the human's key that answers a dialog the CLI shows (a
// permission prompt): written at once like Human, but not read by the
// unsent-input tracker — the key goes to the dialog, not the input line, so
// posts do not wait for a submit that will never come.
func (t *Typist) Answer(b []byte) { t.push(keys{b: b}) }

// Reply queues the emulator's bytes for the child: its replies (cursor
// position, device attributes, mode reports). Like Human: written at once,
// never held; the tracker reads them too (replies are escape sequences,
// which change nothing). Wire it as the Screen's reply function. A reply
// is not typed (TypistOptions.OnTyped).
func (t *Typist) Reply(b []byte) { t.push(keys{b: b, tracked: true, reply: true}) }

// queued is a post not written yet: its message id and its text (tag +
// "\n" + body), or a marker for fold posts not queued (typebound.go).
type queued struct {
	id   string
	b    []byte
	fold int
}

// keys is one write of keys or replies; tracked ones are fed to the
// unsent-input tracker; reply marks the emulator's.
type keys struct {
	b       []byte
	tracked bool
	reply   bool
}

// maxQueuedReplies bounds the emulator's replies waiting to be written: a
// child that floods the terminal with queries (DSR, DA, DECRQM) and reads
// none of the answers would otherwise grow the queue for as long as it
// prints. A real terminal answers what its child reads; past the bound the
// replies are dropped, the human's keys never.
const maxQueuedReplies = 64 << 10

// push queues k, its bytes copied.
func (t *Typist) push(k keys) {
	if len(k.b) == 0 {
		return
	}
	t.mu.Lock()
	if t.stopped || k.reply && t.replyBytes+len(k.b) > maxQueuedReplies {
		t.mu.Unlock()
		return
	}
	k.b = slices.Clone(k.b)
	if k.reply {
		t.replyBytes += len(k.b)
	}
	t.input = append(t.input, k)
	t.mu.Unlock()
	t.poke()
}

// Output notes that the terminal showed output: the PTY reader calls it
// for every read that brought bytes. Cheap (one atomic add); it wakes the
// writer only while a post waits for the CLI to take the previous "\r"
// (TypistOptions.AnswerWait).
func (t *Typist) Output() {
	t.outputs.Add(1)
	if t.answering.Load() {
		t.poke()
	}
}

// Ready releases the not-ready hold: the seat's sidecar reported `ready`
// (docs/design.md §7).
func (t *Typist) Ready() {
	t.mu.Lock()
	t.ready = true
	t.mu.Unlock()
	t.poke()
	t.changed()
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

// Hold holds room typing for reason (a permission dialog reported by the
// seat's hooks, docs/design.md §5) until Release(reason): no post's text is
// written, and a post already written does not get its "\r" — typed into a
// dialog it would answer it. Reasons are a set: holding one twice needs one
// Release.
func (t *Typist) Hold(reason string) {
	t.mu.Lock()
	t.holds[reason] = true
	t.mu.Unlock()
	t.changed()
}

// Release drops a Hold reason; held posts are typed once no reason is left.
func (t *Typist) Release(reason string) {
	t.mu.Lock()
	delete(t.holds, reason)
	t.mu.Unlock()
	t.poke()
	t.changed()
}

// Busy reports whether the seat's CLI is in a turn (its activity: thinking,
// a tool, a permission dialog). With Confirm, no post's text is written
// while it is: typed into a running turn a post is queued by the CLI and
// sent with the next one as one message (Claude Code 2.1.328), or folded
// into the turn (Codex 0.169.0), never a turn of its own
// (docs/design.md §5 "Confirmed delivery").
func (t *Typist) Busy(busy bool) {
	t.mu.Lock()
	moved := t.busy != busy
	t.busy = busy
	if busy {
		t.humanSent = false // the turn the human's line started is reported
	}
	t.mu.Unlock()
	if moved {
		t.poke()
		t.changed()
	}
}

// Submitted reports a submit the CLI took as a user message of its own
// (Claude Code's UserPromptSubmit prompt, Codex's user message), its text
// as the CLI saw it. The post typed and not confirmed (or stuck) whose tag
// opens it is confirmed, and the next post may go; a text holding more
// than one post typed here is a fused submit, counted and reported. Text
// that carries no tag of ours changes nothing (the human's own prompt).
func (t *Typist) Submitted(text string) {
	if !t.confirm {
		return
	}
	ids := room.TagIDs(text)
	if len(ids) == 0 {
		return
	}
	var out []Delivery
	t.mu.Lock()
	// A fusion is a later post of ours after the first: a tag quoted in
	// a body can only name a post typed earlier (breaker review).
	ours, first := 0, slices.Index(t.recent, ids[0])
	for _, id := range ids[1:] {
		if i := slices.Index(t.recent, id); first >= 0 && i > first {
			ours++
		}
	}
	if ours > 0 {
		ours++ // with the first
	}
	// Only the first tag confirms: a post starts with its own tag, and a
	// tag quoted in a body (a seat can write one) must not clear the mark
	// of a post the CLI never took. The second post of a fused submit is
	// therefore not confirmed by it: it is marked, as it never was a turn
	// of its own (a false alarm rather than a mark a seat could clear).
	if t.confirmLocked(ids[0]) {
		out = append(out, Delivery{Kind: DeliveryConfirmed, IDs: ids[:1]})
	}
	if ours > 1 {
		t.fused++
		out = append(out, Delivery{Kind: DeliveryFused, IDs: ids})
	}
	t.mu.Unlock()
	if len(out) == 0 {
		return
	}
	t.poke()
	t.changed()
	t.deliver(out...)
}

// confirmLocked confirms post id if it is pending, stuck or marked
// unconfirmed, and reports whether it was. Caller holds t.mu.
func (t *Typist) confirmLocked(id string) bool {
	switch {
	case id == t.pending:
		t.pending, t.pendingText = "", nil
	case id == t.stuck:
		t.stuck, t.stuckText = "", nil
	case !slices.Contains(t.unconfirmed, id):
		return false
	}
	t.unconfirmed = slices.DeleteFunc(t.unconfirmed, func(u string) bool { return u == id })
	t.confirmed, t.confirmedAt = id, t.clock.Now()
	return true
}

// deliver calls OnDelivery; without the lock.
func (t *Typist) deliver(ds ...Delivery) {
	if t.onDelivery == nil {
		return
	}
	for _, d := range ds {
		t.onDelivery(d)
	}
}

// stateSig is the part of State the UI shows; OnChange fires when it moves.
type stateSig struct {
	ready, unsent, busy   bool
	holds, queued, fused  int
	folded                int
	pending, stuck, confd string
	unconfirmed           int
}

// changed calls OnChange when the state the UI shows moved since the last
// call. Called without t.mu.
func (t *Typist) changed() {
	if t.change == nil {
		return
	}
	t.mu.Lock()
	sig := stateSig{ready: t.ready, unsent: !t.unsent.Empty(), busy: t.busy, holds: len(t.holds), queued: len(t.posts),
		folded: t.folded, fused: t.fused, pending: t.pending, stuck: t.stuck, confd: t.confirmed, unconfirmed: len(t.unconfirmed)}
	moved := sig != t.seen
	t.seen = sig
	t.mu.Unlock()
	if moved {
		t.change()
	}
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
	st := TypistState{Ready: t.ready, Holds: holds, Unsent: !t.unsent.Empty(),
		Queued: len(t.posts), QueuedBytes: t.queuedBytes, Folded: t.folded,
		Typing: t.typing, Err: t.err, Confirming: t.confirm}
	if t.confirm {
		st.Turn, st.Pending, st.Stuck = t.busy, t.pending, t.stuck
		st.Confirmed, st.ConfirmedAt = t.confirmed, t.confirmedAt
		st.Unconfirmed, st.Fused = slices.Clone(t.unconfirmed), t.fused
	}
	return st
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
	w := writerState{t: t}
	for w.turn() {
	}
}

// writerState is what the writer goroutine keeps between two wake-ups: the
// pauses running (each nil while not), and what it wrote last. Only run's
// goroutine uses it.
type writerState struct {
	t         *Typist
	gap       <-chan time.Time // typingGap after a post's text: its "\r" is due
	silence   <-chan time.Time // the quiet time before a post's text is over
	fallback  <-chan time.Time // readyFallback after Joined: ready anyway
	armed     bool             // the ready fallback was started (once per Typist)
	enterDue  bool             // the gap is over: the post's "\r" goes next
	lastWrite time.Time        // of a key, reply or "\r" (zero: none yet)
	// answerAt is the output count when the last post's "\r" was written
	// and answerBy its AnswerWait (nil: not waiting for the CLI to take it).
	answerAt uint64
	answerBy <-chan time.Time
	// confirmBy is the bound on the wait for the CLI to confirm the
	// pending post (nil: none runs); retried is set once one more "\r"
	// was typed for it.
	confirmBy <-chan time.Time
	retried   bool
	// stuckBy is the next look at the input box while a post is stuck:
	// once it is empty (the human closed what held it: Claude's history
	// search, a menu), the queue goes on.
	stuckBy <-chan time.Time
	// humanBy bounds the wait for the turn a line the human sent starts.
	humanBy <-chan time.Time
}

// humanWait bounds how long posts wait, after the human sent a line in
// the pane, for the CLI to report the turn it starts (a slash command
// starts none).
const humanWait = 3 * time.Second

// stuckLook is how often the input box is read while a post is stuck.
const stuckLook = 2 * time.Second

// turn writes what is due, then waits for the next wake-up or pause. It
// reports false once the writer must end (Close or a write error).
func (w *writerState) turn() bool {
	if w.confirmBy != nil && w.t.pendingID() == "" {
		w.confirmBy = nil // confirmed (Submitted)
	}
	if !w.writeInput() || !w.writeEnter() {
		return false
	}
	w.armFallback()
	if !w.typePost() {
		return false
	}
	return w.wait()
}

// writeInput writes the queued keys and replies, in order. They come first:
// they are never held, and the hold decision of typePost must see every key
// written before it.
func (w *writerState) writeInput() bool {
	t := w.t
	for {
		select {
		case <-t.quit: // Close while keys stream in: end here
			t.stop(nil)
			return false
		default:
		}
		k, ok := t.nextInput()
		if !ok {
			return true
		}
		feed := func() {
			if k.tracked {
				ends, sent := t.unsent.ends, t.unsent.sent
				t.unsent.Feed(k.b)
				if t.confirm && t.unsent.sent != sent {
					// The human sent a line: it starts a turn, whose
					// report may come after the quiet time (breaker
					// review). Posts wait for it, or for humanWait.
					t.humanSent = true
					w.humanBy = t.clock.After(humanWait)
				}
				if t.unsent.ends != ends {
					// The human sent or cleared the line: the stuck
					// post went with it.
					t.stuck, t.stuckText = "", nil
				}
			}
		}
		if !t.writeAs(k.b, !k.reply, feed) {
			return false
		}
		w.lastWrite = t.clock.Now()
		t.changed()
	}
}

// writeEnter writes a post's "\r" once its gap is over. It also submits
// whatever the human typed during the gap, so the line is empty after it.
// While a Hold reason is set the "\r" waits for its Release: a dialog that
// opened during the gap would take it as its answer.
func (w *writerState) writeEnter() bool {
	if !w.enterDue || w.t.held() {
		return true
	}
	w.enterDue = false
	t := w.t
	// Counted before the write: the answer may come while it runs (a
	// cooked terminal echoes inside the write itself).
	at := t.outputs.Load()
	if !t.write([]byte{'\r'}, func() { t.unsent.Reset(); t.typing = false }) {
		return false
	}
	w.lastWrite = t.clock.Now()
	if t.answer > 0 {
		w.answerAt, w.answerBy = at, t.clock.After(t.answer)
		t.answering.Store(true)
	}
	if t.pendingID() != "" {
		w.confirmBy, w.retried = t.clock.After(t.confirmWait), false
	}
	t.changed()
	return true
}

// stuckDue reads the input box while a post is stuck: empty, the queue
// goes on (the post stays marked); anything else, another look later. A
// key alone is no sign: Claude's Esc closes its history search but leaves
// the box as it was (breaker review).
func (w *writerState) stuckDue() {
	t := w.t
	w.stuckBy = nil
	t.mu.Lock()
	id, text := t.stuck, t.stuckText
	t.mu.Unlock()
	if id == "" {
		return
	}
	if t.inComposer == nil || t.inComposer(string(text)) != ComposerEmpty {
		w.stuckBy = t.clock.After(stuckLook)
		return
	}
	t.mu.Lock()
	if t.stuck == id {
		t.stuck, t.stuckText = "", nil
	}
	t.mu.Unlock()
	t.changed()
}

// pendingID is the post typed and not confirmed yet ("" none).
func (t *Typist) pendingID() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.pending
}

// confirmDue runs when the wait for the CLI to confirm the pending post
// is over (docs/design.md §5 "Confirmed delivery"): when its input box holds
// exactly that post, one more "\r" (once); when the box is empty, the post
// is marked unconfirmed and the queue goes on (nothing can be glued to
// it); otherwise it is marked and stuck: the queue waits until the CLI
// confirms it late or the human sends or clears the line.
func (w *writerState) confirmDue() bool {
	t := w.t
	w.confirmBy = nil
	t.mu.Lock()
	id, text := t.pending, t.pendingText
	mayRetry := !w.retried && len(t.holds) == 0 && t.unsent.Empty() && !t.busy
	t.mu.Unlock()
	if id == "" {
		return true
	}
	box := ComposerUnknown
	if t.inComposer != nil {
		box = t.inComposer(string(text))
	}
	if box == ComposerHolds && mayRetry && !t.held() {
		// No turn began and no dialog opened meanwhile: the Enter goes
		// to the box.
		if !t.write([]byte{'\r'}, func() { t.unsent.Reset() }) {
			return false
		}
		w.lastWrite, w.retried = t.clock.Now(), true
		w.confirmBy = t.clock.After(t.confirmWait)
		t.deliver(Delivery{Kind: DeliveryRetried, IDs: []string{id}})
		return true
	}
	t.mu.Lock()
	if t.pending == id {
		t.pending, t.pendingText = "", nil
		if box != ComposerEmpty {
			t.stuck, t.stuckText = id, text
			w.stuckBy = t.clock.After(stuckLook)
		}
		t.unconfirmed = append(t.unconfirmed, id)
		if len(t.unconfirmed) > maxUnconfirmed {
			t.unconfirmed = slices.Delete(t.unconfirmed, 0, len(t.unconfirmed)-maxUnconfirmed)
		}
	}
	t.mu.Unlock()
	t.changed()
	t.deliver(Delivery{Kind: DeliveryUnconfirmed, IDs: []string{id}})
	return true
}

// answered reports whether the next post may go as far as the last one's
// "\r" is concerned: nothing waits, or the terminal showed output since
// (then the quiet time before the next text starts again, from now: the CLI
// is still drawing its answer).
func (w *writerState) answered() bool {
	t := w.t
	if w.answerBy == nil {
		return true
	}
	if t.outputs.Load() == w.answerAt {
		return false
	}
	w.answerDone()
	w.lastWrite = t.clock.Now()
	return true
}

// answerDone ends the wait for the CLI to take the last "\r".
func (w *writerState) answerDone() {
	w.answerBy = nil
	w.t.answering.Store(false)
}

// armFallback starts the ready fallback once, at the first turn after
// Joined while the seat is not ready (docs/design.md §7).
func (w *writerState) armFallback() {
	t := w.t
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.joined && !t.ready && !w.armed {
		w.armed = true
		w.fallback = t.clock.After(readyFallback)
	}
}

// typePost writes the head post's text when nothing holds it, no post is
// between its text and its "\r", and the PTY was quiet for typingGap; until
// then it starts the quiet time, and the hold is decided again when that is
// over (docs/design.md §5).
func (w *writerState) typePost() bool {
	t := w.t
	if w.gap != nil || w.silence != nil || !w.answered() || !t.postDue() {
		return true
	}
	if wait := typingGap - t.clock.Now().Sub(w.lastWrite); !w.lastWrite.IsZero() && wait > 0 {
		w.silence = t.clock.After(wait)
		return true
	}
	post, ok := t.nextPost()
	if !ok {
		return true
	}
	// The previous post's bound is over: it was confirmed (a timer still
	// armed for it must not judge this one, breaker review).
	w.confirmBy, w.retried = nil, false
	if t.paste != nil && t.paste() {
		post = slices.Concat(postPasteStart, post, postPasteEnd)
	}
	t.changed() // pending
	if !t.write(post, func() { t.typing = true }) {
		return false
	}
	w.gap = t.clock.After(typingGap)
	t.changed()
	return true
}

// wait blocks until a call pokes the writer, a pause ends or Close.
func (w *writerState) wait() bool {
	t := w.t
	t.setWaiting(true)
	defer t.setWaiting(false)
	select {
	case <-t.wake:
	case <-w.gap:
		w.gap, w.enterDue = nil, true
	case <-w.silence:
		w.silence = nil
	case <-w.answerBy:
		w.answerDone() // the CLI drew nothing for its Enter: go on
	case <-w.confirmBy:
		return w.confirmDue()
	case <-w.stuckBy:
		w.stuckDue()
	case <-w.humanBy:
		w.humanBy = nil
		t.mu.Lock()
		t.humanSent = false
		t.mu.Unlock()
	case <-w.fallback:
		w.fallback = nil
		t.mu.Lock()
		t.ready = true
		t.mu.Unlock()
		t.changed()
	case <-t.quit:
		t.stop(nil)
		return false
	}
	return true
}

func (t *Typist) setWaiting(w bool) {
	t.mu.Lock()
	t.waiting = w
	t.mu.Unlock()
}

// nextInput pops the oldest key or reply.
func (t *Typist) nextInput() (keys, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.input) == 0 {
		return keys{}, false
	}
	k := t.input[0]
	t.input[0] = keys{}
	t.input = t.input[1:]
	if k.reply {
		t.replyBytes -= len(k.b)
	}
	return k, true
}

// held reports whether a Hold reason is set.
func (t *Typist) held() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.holds) > 0
}

// postDue reports whether the head post may be typed: nothing holds it.
func (t *Typist) postDue() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.mayTypeLocked()
}

// mayTypeLocked reports whether the head post may be typed now: nothing
// holds it, and with Confirm the previous post is confirmed (or marked),
// none is stuck and the CLI is not in a turn. Caller holds t.mu.
func (t *Typist) mayTypeLocked() bool {
	if len(t.posts) == 0 || !t.ready || len(t.holds) > 0 || !t.unsent.Empty() {
		return false
	}
	return !t.confirm || (t.pending == "" && t.stuck == "" && !t.busy && !t.humanSent)
}

// nextPost pops the head post if nothing holds it (decided now,
// docs/design.md §5).
func (t *Typist) nextPost() ([]byte, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.mayTypeLocked() {
		return nil, false
	}
	p := t.popLocked()
	if t.confirm && p.id != "" {
		// Pending from before its text is written: a confirmation can
		// come as soon as the CLI reads it.
		t.pending, t.pendingText = p.id, p.b
		t.recent = append(t.recent, p.id)
		if len(t.recent) > maxRecent {
			t.recent = slices.Delete(t.recent, 0, len(t.recent)-maxRecent)
		}
	}
	return p.b, true
}

// write types b (TypistOptions.OnTyped) into the PTY outside the lock,
// then applies after under it. On a write error the queue stops and write
// reports false.
func (t *Typist) write(b []byte, after func()) bool { return t.writeAs(b, true, after) }

// writeAs is write; typed is false for the emulator's replies.
func (t *Typist) writeAs(b []byte, typed bool, after func()) bool {
	typed = typed && t.onTyped != nil
	if typed {
		t.onTyped()
	}
	_, err := t.w.Write(b)
	if typed {
		t.onTyped()
	}
	if err != nil {
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
	t.input, t.posts, t.queuedBytes, t.replyBytes = nil, nil, 0, 0
	t.pending, t.pendingText = "", nil
	if err != nil && t.err == nil {
		t.err = err
	}
}

// enterTaker matches the end of a typed text whose Enter Claude Code
// 2.1.328 takes for something else (breaker review, issue 30): a trailing
// backslash continues the line, and an emoji shortcode (":+1", ":smi")
// opens its completion, which takes the Enter. The post then sat in the
// input box, stuck.
var enterTaker = regexp.MustCompile(`(\\|(^|\s):[\w+\-]+)$`)

// keepEnter ends text with a space when its end would take the Enter
// (enterTaker); the log keeps the exact body, and with the space both were
// taken (measured).
func keepEnter(text string) string {
	if enterTaker.MatchString(text) {
		return text + " "
	}
	return text
}

// NormalizeBody prepares a post's body for typing (docs/design.md §5): "\r\n"
// and "\r" become "\n" and every other control character (C0 including tab,
// DEL, C1) is dropped, because the terminal reads each of them as a key: a
// "\r" would submit half the post, a tab would complete or switch modes in
// the CLI's input. Tabs are dropped rather than expanded: the body in the log
// keeps them, and a seat reads exact text with read_room_history. Bytes that
// are not UTF-8 become U+FFFD, never a raw 0x80–0x9F byte an 8-bit parser
// would take as a control (0x9B is CSI). What draws nothing — a bidi
// control, tag characters, fillers (room/blank, docs/design.md §16) —
// becomes its code ("<U+202E>", "<12 tag characters>"): the model never
// reads words the human could not see. A line that would read as a tag
// gets room.TagQuote (room.QuoteTagLines).
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
	// Marked first, so a line that hides its start behind invisible
	// characters is marked too; then every one of them shown.
	shown, _ := blank.Show(room.QuoteTagLines(b.String()))
	return shown
}
