package config

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// SplitWords splits a launch-options or resume line into argv words the way
// the account editor documents it (spec «起動オプション», «再開コマンド»:
// one rule for both fields). It is shell-like but keeps Windows paths whole:
//
//   - unquoted whitespace separates words;
//   - '…' is literal up to the next single quote;
//   - "…" is literal up to the next unescaped double quote; inside it only
//     \" is an escape (a double quote);
//   - outside quotes a backslash escapes only whitespace and quotes (\  \' \");
//     every other backslash is kept, so C:\Users\me and \\server\share stay
//     as written;
//   - quoted and unquoted parts next to each other join ("--x="a b"" is one
//     word), and a pair of quotes with nothing inside is an empty word;
//   - nothing is expanded: no variables, globs, ~ or {session_id} here.
//
// Bytes that are not valid UTF-8 are kept as they are. An unclosed quote is
// an error wrapping ErrUnterminatedQuote that names the column (1-based, in
// characters) of the opening quote.
func SplitWords(line string) ([]string, error) {
	var (
		words   []string
		cur     strings.Builder
		inWord  bool
		col     int
		quoteAt int
	)
	const (
		none = iota
		single
		double
	)
	state := none
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRuneInString(line[i:])
		raw := line[i : i+size]
		col++
		switch state {
		case single:
			if r == '\'' {
				state = none
			} else {
				cur.WriteString(raw)
			}
		case double:
			switch {
			case r == '\\' && i+1 < len(line) && line[i+1] == '"':
				cur.WriteByte('"')
				i++
				col++
			case r == '"':
				state = none
			default:
				cur.WriteString(raw)
			}
		default:
			switch {
			case r == '\'':
				state, inWord, quoteAt = single, true, col
			case r == '"':
				state, inWord, quoteAt = double, true, col
			case r == '\\' && i+1 < len(line):
				next, nsize := utf8.DecodeRuneInString(line[i+1:])
				if next == '\'' || next == '"' || (next != utf8.RuneError && unicode.IsSpace(next)) {
					cur.WriteString(line[i+1 : i+1+nsize])
					i += nsize
					col++
				} else {
					cur.WriteByte('\\')
				}
				inWord = true
			case size > 1 || r != utf8.RuneError:
				if unicode.IsSpace(r) {
					if inWord {
						words = append(words, cur.String())
						cur.Reset()
						inWord = false
					}
					break
				}
				cur.WriteString(raw)
				inWord = true
			default: // a byte that is not UTF-8: keep it
				cur.WriteString(raw)
				inWord = true
			}
		}
		i += size
	}
	if state != none {
		q := `'`
		if state == double {
			q = `"`
		}
		return nil, fmt.Errorf("%w: %s opened at column %d is never closed", ErrUnterminatedQuote, q, quoteAt)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// JoinWords renders argv as one line that SplitWords reads back to the same
// words (for any strings), quoting only where needed: a word of letters,
// digits and _ @ % + = : , . / - { } \ (not ending in \) is written bare;
// anything else is wrapped in single quotes, each ' inside written as the
// four characters quote, backslash, quote, quote. It is also how previews
// show a launch line (POSIX-shell compatible quoting).
func JoinWords(words []string) string {
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(QuoteWord(w))
	}
	return b.String()
}

// QuoteWord quotes one word as JoinWords does.
func QuoteWord(w string) string {
	if bareWord(w) {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

func bareWord(w string) bool {
	if w == "" || strings.HasSuffix(w, `\`) || !utf8.ValidString(w) {
		return false
	}
	for _, r := range w {
		switch {
		case r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'):
		case strings.ContainsRune(`_@%+=:,./-{}\`, r):
		case r >= utf8.RuneSelf && unicode.IsPrint(r) && !unicode.IsSpace(r):
		default:
			return false
		}
	}
	return true
}

// RemoveFlag drops every occurrence of flag from words, with its value:
// "--flag value" (two words; a trailing "--flag" alone is dropped too) and
// "--flag=value" (one word). It returns the remaining words and the removed
// occurrences as written (for a warning), or words itself when nothing was
// removed.
func RemoveFlag(words []string, flag string) (kept, removed []string) {
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w == flag:
			if i+1 < len(words) {
				removed = append(removed, w+" "+QuoteWord(words[i+1]))
				i++
			} else {
				removed = append(removed, w)
			}
		case strings.HasPrefix(w, flag+"="):
			removed = append(removed, QuoteWord(w))
		default:
			kept = append(kept, w)
		}
	}
	if removed == nil {
		return words, nil
	}
	return kept, removed
}

// HasFlag reports whether words carry flag as "--flag" or "--flag=…".
func HasFlag(words []string, flag string) bool {
	for _, w := range words {
		if w == flag || strings.HasPrefix(w, flag+"=") {
			return true
		}
	}
	return false
}
