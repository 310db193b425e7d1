// Package textcut is the one place Pullcept cuts text to a cap without
// splitting a character. It imports nothing of ours, so every package may
// use it: the domain, app, and tui (which may import only room and its
// subpackages, docs/architecture.md).
//
// A character here is what utf8.DecodeRuneInString reads: a whole UTF-8
// sequence, or one byte of an invalid one. So a cut of valid UTF-8 is valid
// UTF-8, and a cut of anything never splits a sequence it could decode.
// That is the boundary a cap needs: caps bound what a seat, a server or a
// file can make us hold, log, send or type, and a grapheme cluster has no
// size bound ("e" and a megabyte of combining marks are one cluster).
//
// What is shown is cut by cells instead, which never splits a cluster:
// x/ansi's Truncate, TruncateLeft and Cut in tui, and displaywidth's
// TruncateString in a domain package (logstore.TopicName); x/ansi measures
// with displaywidth, so both agree. The UI cuts again by cells whatever a
// domain cap let through.
//
// Why not a library: x/ansi, displaywidth and uniseg cut by cells or walk
// clusters, and nothing in golang.org/x/text cuts at a byte count.
// strings.ToValidUTF8(s[:n], "") is right for valid input only (it drops
// invalid bytes anywhere, so the result is no longer a prefix), scans the
// whole prefix and copies it whenever the cut split a character; Bytes
// looks at the last three bytes and never allocates.
package textcut

import "unicode/utf8"

// Bytes is the longest prefix of s of at most n bytes that does not end
// inside a character; s itself when it fits, "" when n <= 0.
func Bytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	if start, end := around(s, n); start < n && end > n {
		return s[:start]
	}
	return s[:n]
}

// LastBytes is the longest suffix of s of at most n bytes that does not
// start inside a character; s itself when it fits, "" when n <= 0.
func LastBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	i := len(s) - n
	if start, end := around(s, i); start < i && end > i {
		return s[end:]
	}
	return s[i:]
}

// Runes is s's first n characters (runes, as a range loop counts them);
// s itself when it has no more, "" when n <= 0. Unlike
// string([]rune(s)[:n]) it keeps s's bytes and copies nothing.
func Runes(s string, n int) string {
	if len(s) <= n { // n runes take at least n bytes
		return s
	}
	if n <= 0 {
		return ""
	}
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// around returns where the character holding byte i of s starts and ends
// (0 < i < len(s)). A character is at most utf8.UTFMax bytes, so its start
// is among the last three bytes before i, or i is a boundary.
func around(s string, i int) (start, end int) {
	for j := i; j >= 0 && j > i-utf8.UTFMax; j-- {
		if utf8.RuneStart(s[j]) {
			_, size := utf8.DecodeRuneInString(s[j:])
			return j, j + size
		}
	}
	return i, i + 1 // a stray continuation byte is a character of its own
}
