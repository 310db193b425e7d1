package seats

import (
	"slices"
	"testing"
)

func TestUnsentInput(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		writes []string // one pane write each
		want   string   // the unsent text afterwards
	}{
		{"nothing", nil, ""},
		{"typed keys", []string{"h", "i"}, "hi"},
		{"submit", []string{"h", "i", "\r"}, ""},
		{"ctrl+c clears", []string{"abc", "\x03"}, ""},
		{"ctrl+u clears", []string{"abc", "\x15"}, ""},
		{"esc esc clears", []string{"abc", "\x1b", "\x1b"}, ""},
		{"esc esc in one write", []string{"abc", "\x1b\x1b"}, ""},
		{"one esc keeps", []string{"abc", "\x1b"}, "abc"},
		{"esc, key, esc keeps", []string{"abc", "\x1b", "d", "\x1b"}, "abcd"},
		{"backspace del", []string{"abc", "\x7f"}, "ab"},
		{"backspace ctrl+h", []string{"abc", "\x08"}, "ab"},
		{"backspace a wide char", []string{"日本", "\x7f"}, "日"},
		{"backspace to empty", []string{"a", "\x7f", "\x7f"}, ""},
		{"ctrl+w one word", []string{"git commit -m", "\x17"}, "git commit "},
		{"ctrl+w trailing spaces", []string{"git commit  ", "\x17"}, "git "},
		{"ctrl+w last word", []string{"word", "\x17"}, ""},
		{"arrows change nothing", []string{"ab", "\x1b[D", "\x1bOA", "\x1b[1;5C"}, "ab"},
		{"arrow on empty line", []string{"\x1b[A"}, ""},
		{"alt+key changes nothing", []string{"ab", "\x1bb"}, "ab"},
		{"lone tab key", []string{"\t"}, ""},
		{"lone newline key", []string{"\n"}, ""},
		{"other control key", []string{"ab", "\x01", "\x05"}, "ab"},
		{"multi-line paste is text", []string{"line one\nline two\r\tx"}, "line one\nline two\r\tx"},
		{"bracketed paste", []string{"\x1b[200~", "a\rb\x15\x7f", "\x1b[201~"}, "a\rb\x15\x7f"},
		{"bracketed paste in one write", []string{"\x1b[200~x\ny\x1b[201~"}, "x\ny"},
		{"cr after paste end, same write", []string{"\x1b[200~x\x1b[201~\r"}, "x\r"},
		{"submit after paste", []string{"\x1b[200~x\x1b[201~", "\r"}, ""},
		{"lone cr inside paste", []string{"\x1b[200~", "\r", "\x1b[201~"}, "\r"},
		{"emulator replies change nothing", []string{"\x1b[12;5R", "\x1b[?62;1;6;22c", "\x1b]11;rgb:0000/0000/0000\x1b\\", "\x1b[I"}, ""},
		{"reply while typing", []string{"ab", "\x1b[3;4R", "c"}, "abc"},
		{"osc ended by bel", []string{"\x1b]10;?\x07x"}, "x"},
		{"control inside csi", []string{"a\x1b[1\x15b"}, "b"},
		{"del inside csi is ignored", []string{"a\x1b[1\x7fb"}, "a"},
		{"keys after text in one write", []string{"abc\x15de"}, "de"},
		{"japanese ime commit", []string{"日本語"}, "日本語"},
		{"bytes from 0x80 are text, not c1 controls", []string{"a\x9b1~b"}, "a\x9b1~b"},
		{"character split across writes", []string{"\xe6\x97", "\xa5"}, "日"},
		// Edges that moved when the hand-written parser gave way to x/ansi's
		// table (the old result in each comment); none is a key the pane
		// sends, and each now reads as the table, or a key decoder, does.
		{"alt + a non-ascii character changes nothing", []string{"ab", "\x1b日x"}, "abx"}, // "ab\x97\xa5x": its tail was text
		{"dcs ends at st, not bel", []string{"\x1bPq\ax\x1b\\y"}, "y"},                   // "xy": any string ended at BEL
		{"can cancels a string", []string{"\x1b]0;t\x18ab"}, "ab"},                       // "": CAN was string content
		{"no csi-ignore state in the table", []string{"\x1b[$1;2"}, ";2"},                // "": a parameter after an intermediate ends the CSI there
		// ESC inside a string always begins its ST, as before the table.
		{"an empty dcs ends at st", []string{"\x1bP\x1b\\abc"}, "abc"},
		{"keys after an empty dcs still act", []string{"ab\x1bP\x1b\\\x15"}, ""},
		{"an empty osc ends at st", []string{"\x1b]\x1b\\z"}, "z"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var u UnsentInput
			for _, w := range c.writes {
				u.Feed([]byte(w))
			}
			if u.Text() != c.want || u.Empty() != (c.want == "") {
				t.Fatalf("after %q: text %q empty=%v, want %q", c.writes, u.Text(), u.Empty(), c.want)
			}
		})
	}
}

func TestUnsentInputReset(t *testing.T) {
	t.Parallel()
	var u UnsentInput
	u.Feed([]byte("\x1b[200~"))
	u.Feed([]byte("half a paste"))
	u.Reset()
	if !u.Empty() {
		t.Fatalf("after Reset: %q", u.Text())
	}
	// Reset also ended the paste: a lone "\r" submits again.
	u.Feed([]byte("x"))
	u.Feed([]byte("\r"))
	if !u.Empty() {
		t.Fatalf("after submit: %q", u.Text())
	}
}

func FuzzUnsentInput(f *testing.F) {
	for _, s := range []string{"abc", "\x1b[200~x\r\x1b[201~", "\x1b\x1b", "日本\x7f", "a b\x17", "\x1b]0;t\x1b\\", "\x1b[1;", "\x1bO"} {
		f.Add([]byte(s), []byte{2, 5})
	}
	f.Fuzz(func(t *testing.T, data, cuts []byte) {
		var u UnsentInput
		rest := data
		for _, c := range cuts {
			n := int(c) % (len(rest) + 1)
			u.Feed(rest[:n])
			rest = rest[n:]
		}
		u.Feed(rest)
		if u.Empty() != (u.Text() == "") {
			t.Fatalf("Empty()=%v but Text()=%q", u.Empty(), u.Text())
		}
		// Ending any paste, then a lone "\r", always submits.
		submitted := UnsentInput{line: slices.Clone(u.line), lastEsc: u.lastEsc, paste: u.paste}
		submitted.Feed([]byte("\x1b[201~"))
		submitted.Feed([]byte("\r"))
		if !submitted.Empty() {
			t.Fatalf("after paste end + submit: %q", submitted.Text())
		}
		// Outside a paste, Ctrl+U always clears.
		cleared := UnsentInput{line: slices.Clone(u.line), lastEsc: u.lastEsc, paste: u.paste}
		cleared.Feed([]byte("\x1b[201~"))
		cleared.Feed([]byte{0x15})
		if !cleared.Empty() {
			t.Fatalf("after Ctrl+U: %q", cleared.Text())
		}
		u.Reset()
		if !u.Empty() {
			t.Fatalf("after Reset: %q", u.Text())
		}
	})
}
