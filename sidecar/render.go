package sidecar

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/room/blank"
)

// bodyQuote starts every body line in a tool result. The header of each post
// is its tag line, exactly as it would be typed into a terminal; quoting the
// body keeps a body line that imitates a tag from passing for a header.
const bodyQuote = "> "

// renderPosts writes posts (oldest first) as a tag line each, followed by the
// body quoted line by line, with a blank line between posts. loc is the zone
// for the tags' "at" (nil = time.Local).
func renderPosts(b *strings.Builder, posts []room.Post, loc *time.Location) {
	for i, p := range posts {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(room.Tag(p, loc))
		b.WriteByte('\n')
		// Tag-like lines marked and what draws nothing shown as its code,
		// as when typed (docs/design.md §4, §16).
		body, _ := blank.Show(room.QuoteTagLines(strings.ReplaceAll(strings.ReplaceAll(p.Content, "\r\n", "\n"), "\r", "\n")))
		for _, line := range strings.Split(body, "\n") {
			if line == "" {
				b.WriteString(strings.TrimSpace(bodyQuote))
			} else {
				b.WriteString(bodyQuote + line)
			}
			b.WriteByte('\n')
		}
		if note := room.ClipNote(p); note != "" {
			// Unquoted: the room's words, not the post's.
			b.WriteString(note)
			b.WriteByte('\n')
		}
	}
}

// deliveredText is say_to_room's answer for a delivered post (docs/design.md §7).
func deliveredText(messageID string) string {
	return "Delivered to the room. message_id: " + messageID
}

// rejectedText is say_to_room's answer when the floor rejected the post:
// the posts the seat had not seen, and how the kept draft can be re-sent.
func rejectedText(missed []room.Post, loc *time.Location) string {
	var b strings.Builder
	switch len(missed) {
	case 0:
		// The room always names what was missed; say so plainly if it did not.
		b.WriteString("Not delivered: the room has posts you had not seen (it listed none).\n")
	case 1:
		b.WriteString("Not delivered: 1 newer post you had not seen. It is not an error; it is the room's order.\n\n")
	default:
		fmt.Fprintf(&b, "Not delivered: %d newer posts you had not seen (oldest first). It is not an error; it is the room's order.\n\n", len(missed))
	}
	renderPosts(&b, missed, loc)
	b.WriteString("\nYour draft (content and to) is kept. Read the posts above and decide again: ")
	b.WriteString("call say_to_room without content to send the draft as it is, or with new content; ")
	if len(missed) > 0 {
		fmt.Fprintf(&b, "either way pass last_seen %q. ", missed[len(missed)-1].MessageID)
	} else {
		b.WriteString("either way pass the newest message_id you have seen as last_seen. ")
	}
	b.WriteString("Not sending is also fine if it was already said.")
	return b.String()
}

// historyText is read_room_history's answer: the page oldest first, whether
// older posts exist and how to page back, and that none of it was addressed
// to the caller (spec «トピック»).
func historyText(res room.HistoryResultFrame, before string, loc *time.Location) string {
	var b strings.Builder
	if len(res.Posts) == 0 {
		if before != "" {
			fmt.Fprintf(&b, "No posts before message_id %s in this topic.", before)
		} else {
			b.WriteString("Nothing has been said in this topic yet.")
		}
		return b.String()
	}
	fmt.Fprintf(&b, "%d posts from this topic's log, oldest first. They are the record, not addressed to you: nothing here asks you to answer.\n", len(res.Posts))
	if res.HasMore {
		fmt.Fprintf(&b, "has_more: true — older posts exist; call read_room_history with before %q to read further back.\n\n", res.Posts[0].MessageID)
	} else {
		b.WriteString("has_more: false — this reaches the start of the topic.\n\n")
	}
	renderPosts(&b, res.Posts, loc)
	return strings.TrimRight(b.String(), "\n")
}

// usageWindow is the shape the room is expected to give a usage window
// (Claude Code's statusLine rate_limits: used_percentage, resets_at as epoch
// seconds or RFC 3339; received_at, when the room got that figure).
// Anything else is shown as the room sent it.
type usageWindow struct {
	UsedPercentage *float64        `json:"used_percentage"`
	ResetsAt       json.RawMessage `json:"resets_at"`
	ReceivedAt     string          `json:"received_at"`
}

// usageText is my_usage's answer from a usage_result without error: one line
// per window ("5h: 85% used, resets …"; a window without its reset time
// says so), context if reported, each with when the room received it, and
// the received time of the whole answer when no figure carries its own
// (spec «席が自分の利用上限を読む»). now is the current time (for "N min
// ago").
func usageText(res room.UsageResultFrame, now time.Time, loc *time.Location) string {
	if loc == nil {
		loc = time.Local
	}
	if len(res.FiveHour) == 0 && len(res.SevenDay) == 0 && len(res.Context) == 0 && res.ReceivedAt == "" {
		return "No usage figures received for this seat yet."
	}
	var b strings.Builder
	b.WriteString("Your own usage (this seat only), as last reported:\n")
	own := writeWindow(&b, "5h", res.FiveHour, true, now, loc)
	own = writeWindow(&b, "week", res.SevenDay, true, now, loc) || own
	own = writeWindow(&b, "context", res.Context, false, now, loc) || own
	if res.ReceivedAt != "" && !own {
		fmt.Fprintf(&b, "received %s\n", receivedText(res.ReceivedAt, now, loc, false))
	}
	return strings.TrimRight(b.String(), "\n")
}

// writeWindow writes one usage window line; a window the room left out is
// "not reported" (never 0%). resets: the window has a reset time, said
// missing when the room sent none. It reports whether the line carried its
// own received time.
func writeWindow(b *strings.Builder, label string, raw json.RawMessage, resets bool, now time.Time, loc *time.Location) bool {
	if len(raw) == 0 || string(raw) == "null" {
		fmt.Fprintf(b, "%s: not reported\n", label)
		return false
	}
	var w usageWindow
	if err := json.Unmarshal(raw, &w); err != nil || w.UsedPercentage == nil {
		fmt.Fprintf(b, "%s: %s\n", label, compactJSON(raw))
		return false
	}
	fmt.Fprintf(b, "%s: %s%% used", label, strconv.FormatFloat(*w.UsedPercentage, 'f', -1, 64))
	if at, ok := resetTime(w.ResetsAt); ok {
		// The tag's time form, so every time a seat reads looks the same
		// (spec «発言は端末へ入る», «席が自分の利用上限を読む»).
		fmt.Fprintf(b, ", resets %s", at.In(loc).Format(room.TagAtLayout))
	} else if resets {
		b.WriteString(", reset time not reported")
	}
	if w.ReceivedAt != "" {
		fmt.Fprintf(b, " (received %s)", receivedText(w.ReceivedAt, now, loc, true))
	}
	b.WriteByte('\n')
	return w.ReceivedAt != ""
}

// receivedText is a received time in the tag's form and how long ago it
// was, as "2026-10-10T18:48+09:00 (12 min ago)" (inline: "…, 12 min ago");
// one that does not parse is shown as the room sent it, cleaned.
func receivedText(s string, now time.Time, loc *time.Location, inline bool) string {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return strings.Map(func(r rune) rune {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || unicode.Is(unicode.Bidi_Control, r) {
				return -1
			}
			return r
		}, s)
	}
	ago := int(math.Max(0, now.Sub(t).Minutes()))
	if inline {
		return fmt.Sprintf("%s, %d min ago", t.In(loc).Format(room.TagAtLayout), ago)
	}
	return fmt.Sprintf("%s (%d min ago)", t.In(loc).Format(room.TagAtLayout), ago)
}

// resetTime reads resets_at as epoch seconds or an RFC 3339 string.
func resetTime(raw json.RawMessage) (time.Time, bool) {
	if len(raw) == 0 {
		return time.Time{}, false
	}
	var secs float64
	if err := json.Unmarshal(raw, &secs); err == nil {
		return time.Unix(int64(secs), 0), true
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// compactJSON renders raw JSON on one line (as received when it does not
// compact). The figures come from a seat's hooks: DEL, C1 and bidi
// controls, which JSON leaves raw in strings, are written as \u escapes
// (still the same JSON), so the line holds no control character.
func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		b.Reset()
		b.Write(raw)
	}
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || unicode.Is(unicode.Bidi_Control, r) {
			return -1
		}
		return r
	}, escapeControls(b.String()))
}

// escapeControls writes DEL, C1 and bidi controls as \u escapes.
func escapeControls(s string) string {
	var out strings.Builder
	for _, r := range s {
		if r == 0x7f || (r >= 0x80 && r <= 0x9f) || unicode.Is(unicode.Bidi_Control, r) {
			fmt.Fprintf(&out, "\\u%04x", r)
			continue
		}
		out.WriteRune(r)
	}
	return out.String()
}
