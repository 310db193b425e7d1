package localmcp

import (
	"context"
	"fmt"
	"sync"
	"time"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/time/rate"
)

// The notice brake (docs/design.md §6 "Local MCP servers", issue 32): a
// server may push as fast as it writes (20 000 pushes of 16 KB took the
// app from 29 MB to 1.1 GB and queued 80 minutes of typing into every
// seat). Each run lets Options.NoticeBurst pushes through at once, then
// one per Options.NoticeEvery; a push over that rate is not kept (its
// event stays unprocessed on the server) but counted, and the count goes
// out as one fold (Options.OnFolded) once the server was quiet for
// Options.FoldCalm, or Options.FoldEvery after the first push it folded
// while the flood goes on: never one per push.

// Defaults of the brake's Options.
const (
	DefaultNoticeBurst = 20
	DefaultNoticeEvery = 3 * time.Second
	DefaultFoldCalm    = 5 * time.Second
	DefaultFoldEvery   = time.Minute
)

// maxQueuedBytes bounds the content of the pushes waiting for their
// notice, per run: with the count (Options.QueueLen) it caps what a
// server holds in Pullcept's memory.
const maxQueuedBytes = 1 << 20

// noticeBrake is one run's rate and the count it folded. The pump calls
// admit and fold; the notice worker takes the count (due).
type noticeBrake struct {
	lim  *rate.Limiter
	wake chan struct{} // capacity 1: a batch of folds started

	mu          sync.Mutex
	pending     uint64 // folded since the last fold went out
	first, last time.Time
}

func newNoticeBrake(o Options) *noticeBrake {
	return &noticeBrake{lim: rate.NewLimiter(rate.Every(o.NoticeEvery), o.NoticeBurst), wake: make(chan struct{}, 1)}
}

// admit reports whether one more push may become a notice now.
func (b *noticeBrake) admit() bool { return b.lim.Allow() }

// fold counts one push that will not become a notice.
func (b *noticeBrake) fold(now time.Time) {
	b.mu.Lock()
	if b.pending == 0 {
		b.first = now
		select {
		case b.wake <- struct{}{}:
		default:
		}
	}
	b.pending++
	b.last = now
	b.mu.Unlock()
}

// due returns the count to send now (calm since the last fold, or the
// batch is FoldEvery old), resetting it; else 0 and how long until it may be.
func (b *noticeBrake) due(now time.Time, calm, every time.Duration) (n uint64, wait time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.pending == 0 {
		return 0, 0
	}
	if now.Sub(b.last) >= calm || now.Sub(b.first) >= every {
		n, b.pending = b.pending, 0
		return n, 0
	}
	return 0, min(b.last.Add(calm).Sub(now), b.first.Add(every).Sub(now))
}

// take returns the whole count, resetting it (the run is ending).
func (b *noticeBrake) take() uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := b.pending
	b.pending = 0
	return n
}

// folding is the notice worker's side of the brake: the count to send
// when due, and the bytes a push leaves the queue with.
type folding struct {
	brake       *noticeBrake
	calm, every time.Duration
	send        func(n uint64)
	taken       func(p push)
}

// run handles every push from in until in is closed, in arrival order
// (notices.one), and sends the brake's folds when they are due; the last
// one after in closed. When ctx has ended (the run is stopping) the
// pushes still queued go out unmarked.
func (n *notices) run(ctx context.Context, in <-chan push) {
	f := n.fold
	var wake <-chan struct{}
	if f != nil {
		wake = f.brake.wake
	}
	var timer *time.Timer
	var due <-chan time.Time
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	arm := func(d time.Duration) {
		if timer == nil {
			timer = time.NewTimer(d)
		} else {
			timer.Reset(d)
		}
		due = timer.C
	}
	for {
		select {
		case p, ok := <-in:
			if !ok {
				if f != nil {
					f.send(f.brake.take())
				}
				return
			}
			if f != nil {
				f.taken(p)
			}
			if n.before != nil {
				n.before()
			}
			n.one(ctx, p)
		case <-wake:
			if due == nil {
				arm(f.calm)
			}
		case now := <-due:
			due = nil
			count, wait := f.brake.due(now, f.calm, f.every)
			f.send(count)
			if wait > 0 {
				arm(wait)
			}
		}
	}
}

// sendFolded logs n folded pushes and hands them to Options.OnFolded.
func (r *run) sendFolded(n uint64) {
	if n == 0 {
		return
	}
	o := r.sup.opts
	r.note(fmt.Sprintf("folded %d channel pushes: over the rate of %d at once, then one per %v (their events stay unprocessed)",
		n, o.NoticeBurst, o.NoticeEvery))
	if o.OnFolded != nil {
		o.OnFolded(r.srv.name, n)
	}
}

// FoldedText is the notice that says name's server pushed n notices more
// than its rate let through (docs/design.md §6 "Local MCP servers"), in
// lang ("ja" or English): "Lin's server: 14,993 more notices, folded".
func FoldedText(lang, name string, n uint64) string {
	if lang == "ja" {
		return message.NewPrinter(language.Japanese).Sprintf(
			"%s：ほかに %d 件の通知を折りたたみました（流量の上限を超えた分）。イベントはサーバ側で未処理のままです。", name, n)
	}
	return message.NewPrinter(language.English).Sprintf(
		"%s: %d more notices, folded (over the server's rate). Their events stay unprocessed on the server.", name, n)
}
