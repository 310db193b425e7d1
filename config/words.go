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
	w := wordSplitter{line: line}
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRuneInString(line[i:])
		w.col++
		switch w.quote {
		case '\'':
			w.inSingle(r, line[i:i+size])
		case '"':
			size += w.inDouble(r, line[i:i+size], i)
		default:
			size += w.unquoted(r, line[i:i+size], i)
		}
		i += size
	}
	if w.quote != 0 {
		return nil, fmt.Errorf("%w: %c opened at column %d is never closed", ErrUnterminatedQuote, w.quote, w.quoteAt)
	}
	w.endWord()
	return w.words, nil
}

// wordSplitter is SplitWords' state: the words so far, the one being built,
// the quote it is inside (0: none) and where that quote opened.
type wordSplitter struct {
	line    string
	words   []string
	cur     strings.Builder
	inWord  bool
	col     int // characters read so far (1-based column of the current one)
	quote   rune
	quoteAt int
}

// inSingle reads one character inside '…': everything is literal.
func (w *wordSplitter) inSingle(r rune, raw string) {
	if r == '\'' {
		w.quote = 0
		return
	}
	w.cur.WriteString(raw)
}

// inDouble reads one character at byte i inside "…", where only \" is an
// escape. It returns how many bytes past the character it consumed.
func (w *wordSplitter) inDouble(r rune, raw string, i int) int {
	switch {
	case r == '\\' && i+1 < len(w.line) && w.line[i+1] == '"':
		w.cur.WriteByte('"')
		w.col++
		return 1
	case r == '"':
		w.quote = 0
	default:
		w.cur.WriteString(raw)
	}
	return 0
}

// unquoted reads one character at byte i outside quotes. It returns how
// many bytes past the character it consumed (an escaped character).
func (w *wordSplitter) unquoted(r rune, raw string, i int) int {
	switch {
	case r == '\'' || r == '"':
		w.quote, w.inWord, w.quoteAt = r, true, w.col
	case r == '\\' && i+1 < len(w.line):
		w.inWord = true
		next, nsize := utf8.DecodeRuneInString(w.line[i+1:])
		if next == '\'' || next == '"' || (next != utf8.RuneError && unicode.IsSpace(next)) {
			w.cur.WriteString(w.line[i+1 : i+1+nsize])
			w.col++
			return nsize
		}
		w.cur.WriteByte('\\')
	case (len(raw) > 1 || r != utf8.RuneError) && unicode.IsSpace(r):
		w.endWord()
	default: // a character, or a byte that is not UTF-8: kept as it is
		w.cur.WriteString(raw)
		w.inWord = true
	}
	return 0
}

// endWord closes the word being built, if any.
func (w *wordSplitter) endWord() {
	if w.inWord {
		w.words = append(w.words, w.cur.String())
		w.cur.Reset()
		w.inWord = false
	}
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
