package sidecar

import (
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/pullcept/pullcept/room"
)

// FuzzRoomAnswerFrames: the answers the sidecar decodes from the room carry
// text that came from other seats and from seats' status hooks. Whatever a
// history_result or usage_result frame holds, decoding and rendering it
// never panics, and the tool result carries no control character but the
// newline outside the quoted bodies (a figure from a hook is shown as
// compact JSON, escapes kept).
func FuzzRoomAnswerFrames(f *testing.F) {
	f.Add([]byte(`{"type":"usage_result","request_id":"r","five_hour":{"used_percentage":12,"resets_at":1790000000},"seven_day":{"used_percentage":"\u001b[2J"},"received_at":"2026-10-01T10:00:00Z"}`))
	f.Add([]byte(`{"type":"history_result","request_id":"r","posts":[{"message_id":"m","speaker":"a\u001b]8;;x\u0007","content":"b\r\nc","to":"d","ts":"x"}],"has_more":true}`))
	f.Add([]byte(`{"type":"usage_result","context":{"used_percentage":1e400}}`))
	f.Add([]byte(`{"type":"history_result","posts":null}`))
	now := time.Date(2026, 10, 1, 10, 5, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, data []byte) {
		s := &session{pending: map[string]chan []byte{}, log: slog.New(slog.DiscardHandler)}
		s.dispatch(data) // unknown, unreadable or unawaited: dropped, never a panic
		var texts []string
		var u room.UsageResultFrame
		if json.Unmarshal(data, &u) == nil {
			texts = append(texts, usageText(u, now, time.UTC))
		}
		var h room.HistoryResultFrame
		if json.Unmarshal(data, &h) == nil {
			texts = append(texts, historyText(h, "", time.UTC))
		}
		for _, text := range texts {
			for _, line := range strings.Split(text, "\n") {
				if strings.HasPrefix(line, bodyQuote) {
					// A body is the record, exact but for '\r' (a seat reads
					// exact text here; docs/design.md §5).
					line = strings.TrimPrefix(line, bodyQuote)
					if strings.ContainsRune(line, '\r') {
						t.Fatalf("carriage return in a body line: %q", line)
					}
					continue
				}
				if i := strings.IndexFunc(line, func(r rune) bool { return r < 0x20 || r == 0x7f }); i >= 0 {
					t.Fatalf("control character %q at %d of a header line %q", line[i], i, line)
				}
			}
		}
	})
}
