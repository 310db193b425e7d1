package app

import (
	"github.com/pullcept/pullcept/app/attention"
	"github.com/pullcept/pullcept/tui"
)

// Attention returns the App's list as the UI's plain data.
func (b *Backend) Attention() ([]tui.AttentionItem, uint64, error) {
	items, dropped := b.a.attention.Items()
	return uiAttention(items), dropped, nil
}

// SeenAttention records that this UI's human saw the items.
func (b *Backend) SeenAttention(ids []uint64) error {
	b.a.attention.Seen(ids)
	return nil
}

func uiAttention(items []attention.Item) []tui.AttentionItem {
	out := make([]tui.AttentionItem, len(items))
	for i, it := range items {
		out[i] = tui.AttentionItem{ID: it.ID, Kind: tui.AttentionKind(it.Kind), Topic: it.Topic, Account: it.Account,
			Ref: it.Ref, Detail: it.Detail, Count: it.Count, At: it.At, Seen: it.Seen}
	}
	return out
}

// watchAttention forwards the list to this UI as tui.AttentionChanged after
// each change, coalesced: it sends the next snapshot only once the UI took
// the last (tookAttention), so a UI that stops reading (a served window
// whose link stalled) holds one snapshot of at most 200 items, not one per
// change of a flood. Owner: the Backend; ends at Backend.Close.
func (b *Backend) watchAttention() {
	defer b.mcpWait.Done()
	defer func() {
		if r := recover(); r != nil {
			b.a.logger.Error("attention forwarder panic", "panic", r)
		}
	}()
	var seen uint64
	for {
		gen, ok := b.a.attention.WaitChange(b.done, seen)
		if !ok {
			return
		}
		seen = gen
		items, dropped := b.a.attention.Items()
		b.notes.Publish(tui.AttentionChanged{Items: uiAttention(items), Dropped: dropped})
		select {
		case <-b.attnTaken:
		case <-b.done:
			return
		}
	}
}

// tookAttention lets watchAttention send the next snapshot.
func (b *Backend) tookAttention() {
	select {
	case b.attnTaken <- struct{}{}:
	default:
	}
}
