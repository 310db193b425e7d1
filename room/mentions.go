package room

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Addressees normalises an explicit `to` list (docs/design.md §3, spec «部屋プロトコル»
// room_floor::addressees): each name is trimmed, empty names and repeats
// (compared case-insensitively, first spelling kept) are dropped. It returns
// nil when nothing remains, so the key is omitted (whole room).
func Addressees(to []string) []string {
	var out []string
	for _, name := range to {
		out = addName(out, strings.TrimSpace(name))
	}
	return out
}

// addName appends name to list unless it is empty or already there
// (case-insensitively).
func addName(list []string, name string) []string {
	if name == "" {
		return list
	}
	for _, have := range list {
		if strings.EqualFold(have, name) {
			return list
		}
	}
	return append(list, name)
}

// TakeMentions moves @mentions of roster names out of content (docs/design.md §3,
// spec «宛先は本文の中の @ で指定する», room_floor::take_mentions).
//
// roster holds the names the room knows (Member.Name: the nickname when set,
// else the name), possibly repeated. From each '@' or '＠', the longest roster
// name that matches case-insensitively and is followed by whitespace,
// punctuation or the end of the line is taken; anything may precede the '@'.
// The mention is removed together with the horizontal whitespace after it; at
// the end of a line the whitespace before it goes instead, and a line left
// empty by mentions disappears. Punctuation after a mention stays; when it
// follows the name directly and closes the text before ("ok @Ann!"), the
// whitespace before the mention goes too ("ok!"). A comma or colon that
// only separates addresses goes with the mention: after one that leads the
// line ("@Ann, @Bob: please" → "please") or before another ("Hi @Ann,
// @Bob!" → "Hi!"). Unmatched '@…' stays in the body.
//
// It returns the body and the mentioned names in order of appearance, spelt as
// in the roster, without repeats. mentions is nil when nothing matched (body
// is then content unchanged).
func TakeMentions(content string, roster []string) (body string, mentions []string) {
	names := mentionCandidates(roster)
	if len(names) == 0 || !strings.ContainsAny(content, "@＠") {
		return content, nil
	}
	lines := strings.Split(content, "\n")
	kept := lines[:0]
	for _, line := range lines {
		out, found, took := takeLine(line, names)
		mentions = append(mentions, found...)
		if took && out == "" {
			continue // a line that was only mentions disappears
		}
		kept = append(kept, out)
	}
	if len(mentions) == 0 {
		return content, nil
	}
	var dedup []string
	for _, m := range mentions {
		dedup = addName(dedup, m)
	}
	return strings.Join(kept, "\n"), dedup
}

// mentionCandidates returns the distinct roster names, longest (in runes)
// first so the first match is the longest one; names equal case-insensitively
// keep the roster's first spelling. Blank names and names that are not valid
// UTF-8 can never be written after an '@' and are skipped.
func mentionCandidates(roster []string) []string {
	var names []string
	for _, n := range roster {
		if strings.TrimSpace(n) == "" || !utf8.ValidString(n) {
			continue
		}
		names = addName(names, n)
	}
	slices.SortStableFunc(names, func(a, b string) int {
		return utf8.RuneCountInString(b) - utf8.RuneCountInString(a)
	})
	return names
}

// takeLine removes the mentions from one line (no '\n' inside). took reports
// whether at least one mention was taken.
func takeLine(line string, names []string) (out string, found []string, took bool) {
	if !strings.ContainsAny(line, "@＠") {
		return line, nil, false
	}
	var b strings.Builder
	b.Grow(len(line))
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRuneInString(line[i:])
		if r == '@' || r == '＠' {
			if name, n, ok := matchName(line[i+size:], names); ok {
				found = append(found, name)
				took = true
				j := i + size + n
				if k, ok := addressSep(line, j, b.String(), names); ok {
					i = k // "@Ann, @Bob: please" → "please"
					continue
				}
				for j < len(line) {
					r2, s2 := utf8.DecodeRuneInString(line[j:])
					if !isHSpace(r2) {
						break
					}
					j += s2
				}
				if j == len(line) || j == i+size+n && closesText(line[j:]) {
					// At the end of the line, or right before the
					// sentence's own punctuation ("ok @Ann!" → "ok!"),
					// the whitespace before goes instead: it separated
					// the mention from the text.
					trimmed := strings.TrimRightFunc(b.String(), isHSpace)
					b.Reset()
					b.WriteString(trimmed)
				}
				i = j
				continue
			}
		}
		b.WriteString(line[i : i+size]) // original bytes, even when invalid UTF-8
		i += size
	}
	return b.String(), found, took
}

// matchName returns the first of names (longest first) that s starts with,
// case-insensitively, followed by whitespace, punctuation or the end of s,
// and how many bytes of s it covers.
func matchName(s string, names []string) (name string, n int, ok bool) {
	for _, name := range names {
		n, ok := foldPrefix(s, name)
		if !ok {
			continue
		}
		if n == len(s) {
			return name, n, true
		}
		next, _ := utf8.DecodeRuneInString(s[n:])
		if unicode.IsSpace(next) || unicode.IsPunct(next) {
			return name, n, true
		}
	}
	return "", 0, false
}

// foldPrefix reports whether s starts with prefix under Unicode simple case
// folding, and the byte length of that start of s (it may differ from
// len(prefix), e.g. 'K' vs the Kelvin sign).
func foldPrefix(s, prefix string) (int, bool) {
	i := 0
	for _, pr := range prefix {
		if i >= len(s) {
			return 0, false
		}
		sr, size := utf8.DecodeRuneInString(s[i:])
		if sr == utf8.RuneError && size <= 1 {
			return 0, false // invalid UTF-8 never matches a name
		}
		if !equalFoldRune(sr, pr) {
			return 0, false
		}
		i += size
	}
	return i, true
}

// equalFoldRune is strings.EqualFold for one rune: true when a and b are in
// the same simple case-folding orbit.
func equalFoldRune(a, b rune) bool {
	if a == b {
		return true
	}
	for f := unicode.SimpleFold(a); f != a; f = unicode.SimpleFold(f) {
		if f == b {
			return true
		}
	}
	return false
}

// addressSep reports whether line[j:], right after a mention, starts with
// a comma or colon that only separates addresses — the mention leads the
// line (before holds nothing but whitespace: "@Ann, please look") or
// another mention follows it ("Hi @Ann, @Bob!") — and where the text
// resumes after it and the whitespace after it.
func addressSep(line string, j int, before string, names []string) (int, bool) {
	r, size := utf8.DecodeRuneInString(line[j:])
	switch r {
	case ',', ':', '、', '，', '：':
	default:
		return 0, false
	}
	k := j + size
	for k < len(line) {
		r2, s2 := utf8.DecodeRuneInString(line[k:])
		if !isHSpace(r2) {
			break
		}
		k += s2
	}
	if strings.TrimSpace(before) == "" {
		return k, true
	}
	at, s3 := utf8.DecodeRuneInString(line[k:])
	if at != '@' && at != '＠' {
		return 0, false
	}
	_, _, ok := matchName(line[k+s3:], names)
	return k, ok
}

// closesText reports whether s starts with punctuation that belongs to the
// text before it — a full stop, comma, "!", "?", a closing bracket or quote —
// rather than opening what follows (an opening bracket or quote, a dash, '@').
func closesText(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsPunct(r) && r != '@' && r != '＠' &&
		!unicode.In(r, unicode.Ps, unicode.Pi, unicode.Pd)
}

// isHSpace is whitespace that does not end a line.
func isHSpace(r rune) bool { return r != '\n' && unicode.IsSpace(r) }
