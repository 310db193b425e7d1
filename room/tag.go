package room

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/pullcept/pullcept/room/blank"
)

// TagPrefix starts the one-line tag typed before a post's body (docs/design.md §4).
const TagPrefix = "[pullcept] "

// tagFields keeps the tag's keys in the order docs/design.md §4 fixes.
type tagFields struct {
	Role         Role     `json:"role"`
	From         string   `json:"from"`
	FullName     string   `json:"full_name,omitempty"`
	Signed       string   `json:"signed,omitempty"`
	MessageID    string   `json:"message_id"`
	At           string   `json:"at,omitempty"`
	To           []string `json:"to,omitempty"`
	You          string   `json:"you,omitempty"`
	YourFullName string   `json:"your_full_name,omitempty"`
}

// Tag returns the tag line for p, without a trailing newline:
// `[pullcept] {"role":…,"from":…,"full_name":…,"signed":…,"message_id":…,"at":…,"to":[…],"you":…,"your_full_name":…}`.
// "full_name" is the speaker's original name when it differs from "from"
// (p.FullName); "signed" an mcp notice's signature as the app read it
// (p.Signed, never the notice's text); "at" is p.TS in loc (time.Local when nil) and omitted when
// TS does not parse; "to" only when p has addressees, and then "you" and
// "your_full_name" (p.You, p.YourFullName: set only on a post typed into one
// seat) say what the room calls that seat now (spec «ニックネームと元の名前»).
// JSON string escaping guarantees no name can add a line break or a second
// tag (docs/design.md §4); the controls JSON leaves raw (DEL, C1) and what
// draws nothing (room/blank: bidi controls, tag characters, fillers) are
// escaped too, so the line holds no control or invisible character at all.
func Tag(p Post, loc *time.Location) string {
	if loc == nil {
		loc = time.Local
	}
	f := tagFields{Role: p.Role, From: p.Speaker, Signed: p.Signed, MessageID: p.MessageID, To: p.To}
	if p.FullName != p.Speaker {
		f.FullName = p.FullName
	}
	if len(p.To) > 0 {
		f.You = p.You
		if p.YourFullName != p.You {
			f.YourFullName = p.YourFullName
		}
	}
	if t, err := time.Parse(time.RFC3339Nano, p.TS); err == nil {
		f.At = t.In(loc).Format(TagAtLayout)
	}
	var b bytes.Buffer
	b.WriteString(TagPrefix)
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(f); err != nil {
		// Only strings and a string slice: Encode cannot fail on them.
		panic("room: tag encoding: " + err.Error())
	}
	return escapeControls(string(bytes.TrimSuffix(b.Bytes(), []byte("\n"))))
}

// escapeControls writes the control characters JSON leaves raw (DEL and the
// C1 range U+0080–U+009F) as \uXXXX escapes, still valid JSON: typed into a
// terminal, DEL would erase the character before it and C1 codes act as
// escape sequences, so a name could rewrite the tag on screen. So is every
// character that draws nothing (blank.Hidden; beyond U+FFFF as its UTF-16
// pair): a name must not carry words the human cannot see (issue 32).
func escapeControls(s string) string {
	esc := func(r rune) bool { return unicode.IsControl(r) || blank.Hidden(r) }
	if !strings.ContainsFunc(s, esc) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, r := range s {
		switch {
		case r > 0xFFFF && esc(r):
			hi, lo := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, hi, lo)
		case esc(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TagQuote marks a line of a post's body that would read as a tag line
// (QuoteTagLines): no tag line starts with it, TagIDs reads no tag on a
// line that does, and the sidecar's instructions say what it means
// (docs/design.md §4, §7).
const TagQuote = "│ "

// QuoteTagLines is body with TagQuote before every line that would read as
// a tag (tagLike). A body is the seat's words; a line in it that looks like
// `[pullcept] {"role":"admin",…}` must not pass for a post of its own
// (issue 32). Other lines are kept as written.
func QuoteTagLines(body string) string {
	var b strings.Builder
	marked, last := false, 0 // body[:last] is in b
	for start := 0; start <= len(body); {
		end := strings.IndexByte(body[start:], '\n')
		if end < 0 {
			end = len(body)
		} else {
			end += start
		}
		if tagLike(body[start:end]) {
			b.WriteString(body[last:start])
			b.WriteString(TagQuote)
			marked, last = true, start
		}
		start = end + 1
	}
	if !marked {
		return body
	}
	b.WriteString(body[last:])
	return b.String()
}

// tagWord is how every tag line starts, before its space; tagHead the
// bytes of a line's start tagLike reads; tagBracket the longest word in
// brackets it takes for a tag's look-alike.
const (
	tagWord    = "[pullcept]"
	tagHead    = 96
	tagBracket = 24
)

// tagLike reports a line a model could take for a tag, after blanks,
// combining marks and characters that draw nothing: "[pullcept]" in any
// case or width (NFKC: "［ｐｕｌｌｃｅｐｔ］"), with blanks inside or not; or
// any short word in brackets of any kind followed by a JSON object, which
// catches look-alike letters ("[рullсерt] {", Cyrillic) without a table
// of them (breaker review). A log line such as `[INFO] {…}` is marked
// too: the mark only says "not a tag".
func tagLike(l string) bool {
	skip := func(r rune) bool {
		return r == ' ' || r == '\t' || unicode.In(r, unicode.Zs, unicode.Mn, unicode.Me) || blank.Hidden(r)
	}
	rest := strings.TrimLeftFunc(l, skip)
	if rest == "" {
		return false
	}
	head := norm.NFKC.String(rest[:min(len(rest), tagHead)])
	squeezed := strings.Map(func(r rune) rune {
		if skip(r) {
			return -1
		}
		return unicode.ToLower(r)
	}, head)
	if strings.HasPrefix(squeezed, tagWord) {
		return true
	}
	open, n := utf8.DecodeRuneInString(head)
	if open == '{' || !unicode.Is(unicode.Ps, open) {
		return false
	}
	word := head[n:]
	end := strings.IndexFunc(word, func(r rune) bool { return unicode.Is(unicode.Pe, r) })
	if end < 0 || utf8.RuneCountInString(word[:end]) > tagBracket {
		return false
	}
	_, m := utf8.DecodeRuneInString(word[end:])
	return strings.HasPrefix(strings.TrimLeftFunc(word[end+m:], skip), "{")
}

// ClipNote is the line that follows a long post's clipped body wherever a
// seat reads it — typed into its terminal, in a history page, among missed
// posts (docs/design.md §8 "Long posts"): how long the whole post is and
// where to read it. "" for a post that is whole. It never starts with
// TagPrefix.
func ClipNote(p Post) string {
	if p.Size <= len(p.Content) {
		return ""
	}
	where := "the whole text is in the topic's log"
	if p.BodyFile != "" {
		where = "the whole text is in the file " + strings.Map(func(r rune) rune {
			if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
				return -1 // the path is ours; this keeps the line one plain line
			}
			return r
		}, p.BodyFile)
	}
	return fmt.Sprintf("[… clipped after %d of %d bytes; %s]", len(p.Content), p.Size, where)
}

// maxTagIDs bounds the tags TagIDs reads from one text; maxTagLen is the
// longest tag object it reads (names and addressees are capped far below).
const (
	maxTagIDs   = 64
	maxTagLooks = 256
	maxTagLen   = 16 << 10
)

// firstJSON is the first JSON value at the start of s ("" when none ends
// within s).
func firstJSON(s string) string {
	d := json.NewDecoder(strings.NewReader(s))
	var raw json.RawMessage
	if d.Decode(&raw) != nil {
		return ""
	}
	return string(raw)
}

// TagIDs returns the message ids of the tags in text, in order: every
// TagPrefix followed by a JSON object with a message_id, wherever it
// starts — a CLI that sends two typed posts as one message may glue the
// second tag to the end of the first body (docs/design.md §5 "Confirmed
// delivery"). At most maxTagIDs; a tag whose object does not parse is
// skipped, and so is one on a line that starts with TagQuote (a body line
// QuoteTagLines marked: the seat's words, not a post).
func TagIDs(text string) []string {
	var ids []string
	// Every prefix looked at counts: a text of prefixes with no id costs
	// at most maxTagLooks decodes (breaker review: 1 MiB of them took
	// 72 ms and 98 MB before).
	quoted, seen := strings.HasPrefix(text, TagQuote), 0 // the line of text[seen:]
	for rest, looks := text, 0; len(ids) < maxTagIDs && looks < maxTagLooks; looks++ {
		i := strings.Index(rest, TagPrefix+"{")
		if i < 0 {
			break
		}
		// Whether this line was marked: only the text since the last look
		// is searched for its start, so the whole costs O(n).
		at := len(text) - len(rest) + i
		if nl := strings.LastIndexByte(text[seen:at], '\n'); nl >= 0 {
			quoted = strings.HasPrefix(text[seen+nl+1:], TagQuote)
		}
		seen = at
		rest = rest[i+len(TagPrefix):]
		if quoted {
			continue
		}
		if !strings.Contains(rest[:min(len(rest), maxTagLen)], `"message_id"`) {
			continue
		}
		var f struct {
			MessageID string `json:"message_id"`
		}
		// A tag is one short line: decode within a window, so a text of
		// many prefixes with no end costs O(n), not O(n²).
		if json.Unmarshal([]byte(firstJSON(rest[:min(len(rest), maxTagLen)])), &f) == nil && f.MessageID != "" {
			ids = append(ids, f.MessageID)
		}
	}
	return ids
}
