package app

import (
	"context"
	"strings"

	"github.com/pullcept/pullcept/room/textcut"
	"github.com/pullcept/pullcept/tui"
)

// Around a match, a hit keeps this much of the body on each side (bytes,
// cut at a character): enough for the widest finder row.
const (
	hitBefore = 120
	hitAfter  = 300
)

// SearchPosts searches every topic's log (logstore.Search) and cuts each
// hit's body down to one line around its match.
func (b *Backend) SearchPosts(ctx context.Context, query string, limit int) ([]tui.PostHit, bool, error) {
	hits, more, err := b.a.store.Search(ctx, query, limit)
	if err != nil {
		return nil, false, err
	}
	out := make([]tui.PostHit, 0, len(hits))
	for _, h := range hits {
		c := h.Record.Content
		out = append(out, tui.PostHit{Topic: h.Topic, MessageID: h.Record.MessageID, Speaker: h.Record.Speaker, TS: h.Record.TS,
			Before: oneLine(textcut.LastBytes(c[:h.Start], hitBefore)), Match: oneLine(c[h.Start:h.End]),
			After: oneLine(textcut.Bytes(c[h.End:], hitAfter)), Next: h.Next, Later: h.After})
	}
	return out, more, nil
}

// oneLine turns line breaks and tabs into spaces.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\t' {
			return ' '
		}
		return r
	}, s)
}
