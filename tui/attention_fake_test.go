package tui

import "slices"

// attnFake is the fake's Attention part: the list, and every id the UI
// said it saw (in order).
type attnFake struct {
	items []AttentionItem
	seen  []uint64
}

func (f *fakeBackend) Attention() ([]AttentionItem, uint64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.attn.items), 0, nil
}

func (f *fakeBackend) SeenAttention(ids []uint64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.attn.seen = append(f.attn.seen, ids...)
	f.attn.items = slices.DeleteFunc(f.attn.items, func(it AttentionItem) bool {
		return slices.Contains(ids, it.ID) && it.Kind != AttnCard
	})
	return nil
}

// seenIDs is what the UI said it saw so far.
func (f *fakeBackend) seenIDs() []uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.attn.seen)
}
