package room

import (
	"strings"
	"unicode/utf8"
)

// MentionSpan is one mention TakeMentions takes from a line: bytes
// [Start, End) hold the '@' (or '＠') and the name as written; Name is spelt
// as in the roster.
type MentionSpan struct {
	Start, End int
	Name       string
}

// MentionSpans finds the mentions TakeMentions would take from line (one
// line, without '\n') with roster, by the same rule (mentionCandidates,
// matchName), so the input bar marks exactly the names the room will
// address (docs/design.md §10, issue 14). nil when none.
func MentionSpans(line string, roster []string) []MentionSpan {
	if !strings.ContainsAny(line, "@＠") {
		return nil
	}
	names := mentionCandidates(roster)
	if len(names) == 0 {
		return nil
	}
	var out []MentionSpan
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRuneInString(line[i:])
		if r == '@' || r == '＠' {
			if name, n, ok := matchName(line[i+size:], names); ok {
				out = append(out, MentionSpan{Start: i, End: i + size + n, Name: name})
				i += size + n
				continue
			}
		}
		i += size
	}
	return out
}
