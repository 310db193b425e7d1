package tui

import (
	"context"
	"sort"
	"strings"
	"unicode"
)

// SearchPosts searches the fake's histories like the app: smart case,
// newest posts first; searchGate, when set, holds every search until it
// is closed (or ctx ends), so tests can cancel one in flight.
func (f *fakeBackend) SearchPosts(ctx context.Context, query string, limit int) ([]PostHit, bool, error) {
	f.mu.Lock()
	gate := f.searchGate
	f.searches = append(f.searches, query)
	topics := make([]string, 0, len(f.history))
	for id := range f.history {
		topics = append(topics, id)
	}
	sort.Strings(topics)
	hist := map[string][]PostHitSource{}
	for _, id := range topics {
		for _, p := range f.history[id] {
			hist[id] = append(hist[id], PostHitSource{p.MessageID, p.Speaker, p.TS, p.Content})
		}
	}
	f.mu.Unlock()
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			return nil, false, ctx.Err()
		}
	}
	fold := !strings.ContainsFunc(query, unicode.IsUpper)
	var hits []PostHit
	for _, id := range topics {
		ps := hist[id]
		for i := len(ps) - 1; i >= 0; i-- {
			body, q := ps[i].Content, query
			if fold {
				body, q = strings.ToLower(body), strings.ToLower(q)
			}
			at := strings.Index(body, q)
			if at < 0 {
				continue
			}
			if len(hits) == limit {
				return hits, true, nil
			}
			h := PostHit{Topic: id, MessageID: ps[i].ID, Speaker: ps[i].Speaker, TS: ps[i].TS,
				Before: ps[i].Content[:at], Match: ps[i].Content[at : at+len(q)], After: ps[i].Content[at+len(q):], Later: len(ps) - 1 - i}
			if i+1 < len(ps) {
				h.Next = ps[i+1].ID
			}
			hits = append(hits, h)
		}
	}
	return hits, false, nil
}

// PostHitSource is one post as the fake search reads it.
type PostHitSource struct{ ID, Speaker, TS, Content string }
