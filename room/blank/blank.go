// Package blank is the one classification of text that draws nothing
// (docs/design.md §16 "Invisible text"): characters a terminal shows as
// nothing, or as a blank, that a hostile seat or server uses to hide words
// from the human — on a permission card, in the chat, in what is typed into
// seats and in an export. Show writes each one as a visible code
// ("<U+2800>") and counts them; every surface calls it, so they agree.
//
// A character draws nothing (Hidden) when it is Default_Ignorable_Code_Point
// (format characters Cf, bidi controls, Unicode tag characters
// U+E0000–U+E0FFF, the Hangul fillers U+115F, U+1160, U+3164, U+FFA0, the
// combining grapheme joiner, variation selectors…; Prepended_Concatenation_Mark
// excepted: those draw), a blank that is not a space (U+2800 BRAILLE PATTERN
// BLANK, U+1D159 MUSICAL SYMBOL NULL NOTEHEAD, U+16FE4 KHITAN SMALL SCRIPT
// FILLER), the line and paragraph
// separators U+2028 and U+2029, or a noncharacter. A run of more than
// maxMarks combining marks is shown as its count too: it draws over
// other rows and carries what nobody can read. Unassigned and private-use
// code points are kept: a terminal draws them as a box or a font's glyph,
// never as nothing.
//
// Two of them are kept where they do their job, so emoji and joined scripts
// still read as written:
//   - a variation selector right after a visible character other than ASCII
//     (and the ASCII keycap bases # * 0–9) — "❤️", "葛󠄀"; a second one in a
//     row, one at the start, after a blank, after ASCII or after another
//     hidden character is out of place (the "emoji smuggling" of bytes in
//     runs of selectors);
//   - a zero-width joiner or non-joiner (U+200D, U+200C) between a visible
//     character other than ASCII (or a selector kept) and a visible character
//     — "👩‍💻", Persian and Indic text. Next to ASCII it is shown ("l‍s").
//
// This package imports nothing of ours (like room/textcut), so the domain,
// app and tui all use it.
package blank

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Hidden reports whether r draws nothing wherever it stands (the package
// doc lists what). Show keeps some of these in place; Hidden alone never
// does.
func Hidden(r rune) bool {
	if r < 0x80 {
		return false
	}
	switch {
	case r == 0x2800, r == 0x1D159, r == 0x16FE4, r == 0x2028, r == 0x2029:
		return true
	case unicode.Is(unicode.Prepended_Concatenation_Mark, r):
		return false
	}
	return unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) ||
		unicode.Is(unicode.Variation_Selector, r) || unicode.Is(unicode.Noncharacter_Code_Point, r)
}

// isTag reports a Unicode tag character (U+E0000–U+E007F): invisible ASCII,
// read by models, never drawn.
func isTag(r rune) bool { return r >= 0xE0000 && r <= 0xE007F }

// isBlank reports a space that draws as blank: ASCII space, tab, and the
// other space separators (Zs). Shown as written unless a run is long
// (ShowBlanks).
func isBlank(r rune) bool { return r == ' ' || r == '\t' || unicode.Is(unicode.Zs, r) }

// isMark reports a combining mark that draws (Mn, Me): on its own
// character a few are writing; a stack of them is not (maxMarks).
func isMark(r rune) bool { return unicode.In(r, unicode.Mn, unicode.Me) && !Hidden(r) }

// maxMarks is the longest run of combining marks Show keeps: Vietnamese,
// pointed Hebrew and Tibetan stacks use a handful. A longer one ("zalgo")
// draws over the rows around it, hiding them on terminals that do not
// clip a cell, and hundreds of marks on one letter carry bytes a model
// reads and a human sees as a smudge.
const maxMarks = 8

// sameRun is the run of one hidden character shown as one code with its
// count ("<U+2800×3000>"); tagRun the run of tag characters shown as their
// count ("<42 tag characters>").
const (
	sameRun = 3
	tagRun  = 3
)

// Show is s with every character that draws nothing written as its code
// ("<U+200B>"), a run of sameRun or more of one of them as one code and
// its count ("<U+2800×3000>"), a run of tagRun or more tag characters as
// their count ("<42 tag characters>"); hidden counts the characters
// replaced. Everything else, invalid UTF-8 and control characters included
// (each caller has its own rule for those), is kept byte for byte; s itself
// when nothing is hidden.
func Show(s string) (shown string, hidden int) { return ShowBlanks(s, 0) }

// ShowBlanks is Show, and a run of run or more blanks (spaces, tabs, other
// Zs) written as its count ("<3000 blanks>"), counted as hidden: a card
// must not let a run of spaces push the rest of a command out of view.
// run < 2 keeps blanks as they are (one blank is no run).
func ShowBlanks(s string, run int) (shown string, hidden int) { return show(s, run, false) }

// ShowAll is ShowBlanks keeping nothing in place: every variation selector
// and joiner is shown too. A permission card uses it: what it shows is cut
// into rows, and a row may end between a joiner and what it joined; a
// command has no need of emoji sequences.
func ShowAll(s string, run int) (shown string, hidden int) { return show(s, run, true) }

// show is ShowBlanks, or ShowAll when strict.
func show(s string, run int, strict bool) (shown string, hidden int) {
	if run < 2 {
		run = 0
	}
	i := firstSuspect(s, run)
	if i == len(s) {
		return s, 0
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	prev := rune(-1) // the last character kept raw; -1 after a code or at the start
	if i > 0 {
		prev, _ = utf8.DecodeLastRuneInString(s[:i])
	}
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case run > 0 && isBlank(r):
			i, prev, hidden = foldRun(&b, s, i, isBlank, run, "blanks", hidden)
			continue
		case isMark(r):
			i, prev, hidden = foldRun(&b, s, i, isMark, maxMarks+1, "combining marks", hidden)
			continue
		case !Hidden(r) || !strict && inPlace(s, i, r, n, prev):
			b.WriteString(s[i : i+n])
			prev = r
			if r == utf8.RuneError && n == 1 {
				prev = -1
			}
		case isTag(r):
			k, end := countRun(s, i, isTag)
			if k >= tagRun {
				fmt.Fprintf(&b, "<%d tag characters>", k)
			} else {
				for _, t := range s[i:end] {
					fmt.Fprintf(&b, "<U+%04X>", t)
				}
			}
			hidden += k
			prev = -1
			i = end
			continue
		default:
			k, end := countRun(s, i, func(x rune) bool { return x == r })
			if k >= sameRun {
				fmt.Fprintf(&b, "<U+%04X×%d>", r, k)
			} else {
				for range k {
					fmt.Fprintf(&b, "<U+%04X>", r)
				}
			}
			hidden += k
			prev = -1
			i = end
			continue
		}
		i += n
	}
	return b.String(), hidden
}

// firstSuspect is the index of the first byte Show may have to change:
// the first character that is not ASCII, or (run > 0) a space or tab;
// len(s) when there is none. ASCII text costs one pass and no copy.
func firstSuspect(s string, run int) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 || run > 0 && (c == ' ' || c == '\t') {
			return i
		}
	}
	return len(s)
}

// countRun counts the characters from s[i] on that match, and where they end.
func countRun(s string, i int, match func(rune) bool) (k, end int) {
	for end = i; end < len(s); {
		r, n := utf8.DecodeRuneInString(s[end:])
		if (r == utf8.RuneError && n == 1) || !match(r) {
			break
		}
		k++
		end += n
	}
	return k, end
}

// inPlace reports a hidden character kept where it does its job (the
// package doc): a variation selector after a visible base, a joiner
// between visible characters. prev is the character before it if that was
// kept raw (-1 otherwise).
func inPlace(s string, i int, r rune, n int, prev rune) bool {
	switch {
	case prev < 0 || isBlank(prev) || unicode.IsControl(prev):
		return false
	case unicode.Is(unicode.Variation_Selector, r):
		return base(prev)
	case r == 0x200C || r == 0x200D:
		if prev < 0x80 || (Hidden(prev) && !unicode.Is(unicode.Variation_Selector, prev)) {
			return false
		}
		next, m := utf8.DecodeRuneInString(s[i+n:])
		return m > 0 && !(next == utf8.RuneError && m == 1) && !Hidden(next) && !isBlank(next) &&
			!unicode.IsControl(next) && next != '\n'
	}
	return false
}

// base reports a character a variation selector may follow: a visible one
// other than ASCII, or an ASCII keycap base (# * 0–9: "1️⃣").
func base(r rune) bool {
	if r < 0x80 {
		return r == '#' || r == '*' || r >= '0' && r <= '9'
	}
	return !Hidden(r) && !unicode.Is(unicode.Zs, r)
}

// foldRun writes the run of in at s[i:] to b: as "<k label>" when it is at
// least min long (counted as hidden), else as written. It returns where
// the run ends, the last character kept raw (-1 after a code) and the new
// hidden count of show's loop.
func foldRun(b *strings.Builder, s string, i int, in func(rune) bool, min int, label string, hidden int) (int, rune, int) {
	k, end := countRun(s, i, in)
	if k >= min {
		fmt.Fprintf(b, "<%d %s>", k, label)
		return end, -1, hidden + k
	}
	b.WriteString(s[i:end])
	last, _ := utf8.DecodeLastRuneInString(s[i:end])
	return end, last, hidden
}
