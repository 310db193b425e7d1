package tui

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// envOf is a getenv over a fixed map.
func envOf(kv map[string]string) func(string) string {
	return func(k string) string { return kv[k] }
}

func TestChooseRing(t *testing.T) {
	t.Parallel()
	tmux := "/tmp/tmux-1000/default,4242,0"
	for _, c := range []struct {
		name, setting string
		env           map[string]string
		kind          ringKind
		why           string
	}{
		{"nothing known", "", nil, ringBEL, "BEL"},
		{"plain xterm", "", map[string]string{"TERM": "xterm-256color"}, ringBEL, "BEL"},
		{"iTerm2", "", map[string]string{"TERM_PROGRAM": "iTerm.app"}, ringOSC9, "iTerm2: OSC 9"},
		{"iTerm2 over ssh", "", map[string]string{"TERM": "xterm-256color", "LC_TERMINAL": "iTerm2"}, ringOSC9, "iTerm2: OSC 9"},
		{"WezTerm", "", map[string]string{"TERM_PROGRAM": "WezTerm"}, ringOSC777, "WezTerm: OSC 777"},
		{"Ghostty", "", map[string]string{"TERM_PROGRAM": "ghostty"}, ringOSC777, "Ghostty: OSC 777"},
		{"Ghostty over ssh", "", map[string]string{"TERM": "xterm-ghostty"}, ringOSC777, "Ghostty: OSC 777"},
		{"kitty", "", map[string]string{"KITTY_WINDOW_ID": "1"}, ringOSC99, "kitty: OSC 99"},
		{"kitty over ssh", "", map[string]string{"TERM": "xterm-kitty"}, ringOSC99, "kitty: OSC 99"},
		{"foot", "", map[string]string{"TERM": "foot"}, ringOSC777, "foot: OSC 777"},
		{"foot-extra", "", map[string]string{"TERM": "foot-extra"}, ringOSC777, "foot: OSC 777"},
		{"VS Code", "", map[string]string{"TERM_PROGRAM": "vscode"}, ringOSC99, "VS Code: OSC 99"},
		{"Terminal.app", "", map[string]string{"TERM_PROGRAM": "Apple_Terminal"}, ringBEL, "Terminal.app: BEL"},
		{"Alacritty", "", map[string]string{"TERM": "alacritty"}, ringBEL, "Alacritty: BEL"},
		{"Windows Terminal", "", map[string]string{"WT_SESSION": "1b6c1cdb-0c47-4c7e-8c3e-1d2b1b0f3d3e"}, ringBEL, "Windows Terminal: BEL"},
		{"Konsole 23.04", "", map[string]string{"KONSOLE_VERSION": "230400"}, ringOSC777, "Konsole: OSC 777"},
		{"Konsole 22.12", "", map[string]string{"KONSOLE_VERSION": "221203"}, ringBEL, "Konsole: BEL"},
		{"GNOME Terminal", "", map[string]string{"VTE_VERSION": "7802"}, ringBEL, "VTE: BEL"},
		// What the terminal sets itself wins over what a program started
		// from another terminal inherited.
		{"WezTerm started from kitty", "", map[string]string{"TERM_PROGRAM": "WezTerm", "KITTY_WINDOW_ID": "3"}, ringOSC777, "WezTerm: OSC 777"},
		{"Alacritty started from kitty", "", map[string]string{"TERM": "alacritty", "KITTY_WINDOW_ID": "3"}, ringBEL, "Alacritty: BEL"},
		// tmux hides TERM_PROGRAM and TERM; what it inherited is left.
		{"kitty in tmux", "", map[string]string{"TMUX": tmux, "TERM_PROGRAM": "tmux", "TERM": "tmux-256color", "KITTY_WINDOW_ID": "1"}, ringOSC99, "in tmux, kitty: OSC 99 + BEL"},
		{"WezTerm in tmux", "", map[string]string{"TMUX": tmux, "TERM_PROGRAM": "tmux", "WEZTERM_PANE": "0"}, ringOSC777, "in tmux, WezTerm: OSC 777 + BEL"},
		{"Ghostty in tmux", "", map[string]string{"TMUX": tmux, "TERM_PROGRAM": "tmux", "GHOSTTY_RESOURCES_DIR": "/usr/share/ghostty"}, ringOSC777, "in tmux, Ghostty: OSC 777 + BEL"},
		{"tmux alone", "", map[string]string{"TMUX": tmux, "TERM_PROGRAM": "tmux"}, ringBEL, "in tmux, BEL"},
		// The setting overrides the guess; an unknown one guesses.
		{"set bel", ringSetBEL, map[string]string{"TERM_PROGRAM": "iTerm.app"}, ringBEL, "BEL"},
		{"set osc9", ringSetOSC9, nil, ringOSC9, "OSC 9"},
		{"set osc777 in tmux", ringSetOSC777, map[string]string{"TMUX": tmux}, ringOSC777, "in tmux, OSC 777 + BEL"},
		{"set osc99", ringSetOSC99, map[string]string{"TERM_PROGRAM": "WezTerm"}, ringOSC99, "OSC 99"},
		{"unknown setting", "loud", map[string]string{"TERM_PROGRAM": "WezTerm"}, ringOSC777, "WezTerm: OSC 777"},
	} {
		kind, why := chooseRing(c.setting, envOf(c.env), catalog{lang: LangEnglish})
		if kind != c.kind || why != c.why {
			t.Errorf("%s: chooseRing = %v, %q; want %v, %q", c.name, kind, why, c.kind, c.why)
		}
	}
}

func TestRingSequenceBytes(t *testing.T) {
	t.Parallel()
	const title, body = "Pullcept", "claude needs you"
	// base64: "pullcept" cHVsbGNlcHQ=, "Pullcept" UHVsbGNlcHQ=,
	// "claude needs you" Y2xhdWRlIG5lZWRzIHlvdQ==.
	osc99 := "\x1b]99;i=pullcept:d=0:e=1:f=cHVsbGNlcHQ=;UHVsbGNlcHQ=\a" +
		"\x1b]99;i=pullcept:p=body:e=1;Y2xhdWRlIG5lZWRzIHlvdQ==\a"
	for _, c := range []struct {
		kind    ringKind
		alone   string
		viaTmux string
	}{
		{ringBEL, "\a", "\a"},
		{ringOSC9, "\x1b]9;Pullcept: claude needs you\a",
			"\x1bPtmux;\x1b\x1b]9;Pullcept: claude needs you\a\x1b\\\a"},
		{ringOSC777, "\x1b]777;notify;Pullcept;claude needs you\a",
			"\x1bPtmux;\x1b\x1b]777;notify;Pullcept;claude needs you\a\x1b\\\a"},
		{ringOSC99, osc99,
			"\x1bPtmux;" + strings.ReplaceAll(osc99, "\x1b", "\x1b\x1b") + "\x1b\\\a"},
	} {
		if got := ringSequence(c.kind, title, body, false); got != c.alone {
			t.Errorf("%v: %q, want %q", c.kind, got, c.alone)
		}
		if got := ringSequence(c.kind, title, body, true); got != c.viaTmux {
			t.Errorf("%v in tmux: %q, want %q", c.kind, got, c.viaTmux)
		}
	}
}

// TestRingSequenceQuirks: OSC 9 never starts with a digit (ConEmu's
// commands: "4;…" is a progress bar in Windows Terminal, Ghostty and
// iTerm2), OSC 777 carries no ";" of its own text (Konsole and WezTerm
// split the body at it), an empty title leaves OSC 9 the body alone.
func TestRingSequenceQuirks(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		kind        ringKind
		title, body string
		want        string
	}{
		{ringOSC9, "", "4;3;50", "\x1b]9; 4;3;50\a"},
		{ringOSC9, "1;10000", "x", "\x1b]9; 1;10000: x\a"},
		{ringOSC9, "", "done", "\x1b]9;done\a"},
		{ringOSC9, "Pullcept", "", "\x1b]9;Pullcept\a"},
		{ringOSC777, "a;b", "c;d;e", "\x1b]777;notify;a,b;c,d,e\a"},
		{ringOSC777, "t", "line one\nline two\r\n\tend", "\x1b]777;notify;t;line one line two   end\a"},
	} {
		if got := ringSequence(c.kind, c.title, c.body, false); got != c.want {
			t.Errorf("%v %q %q: %q, want %q", c.kind, c.title, c.body, got, c.want)
		}
	}
}

// hostileTexts try to end the notification's sequence early and start
// another (OSC 52 writes the clipboard), or to hide words.
var hostileTexts = []string{
	"a\x1b]52;c;ZXZpbA==\a then",
	"\x1b]52;c;ZXZpbA==\x1b\\",
	"bell\x07bell",
	"st\x9cst",    // a bare C1 ST byte (invalid UTF-8)
	"st\u009cst",  // ST as a character
	"csi\u009b2J", // CSI as a character
	"osc\u009d52;c;ZXZpbA==\u009c",
	"\x1bP+q544e\x1b\\",
	"\x1b[2J\x1b[H",
	"esc\x1b",
	"del\x7fdel",
	"lines\nand\r\nmore\rlines",
	"nul\x00nul",
	"rlo\u202edesrever",
	";;;notify;;",
	"9;4;1;50",
	"\xff\xfe\xfd",
}

// TestRingSequenceHostileText: whatever the title and body hold, the
// terminal reads exactly the ring's own sequences — one OSC (two for
// OSC 99), through tmux the same inside its passthrough — and their text has no
// control character, is valid UTF-8 and within the cap.
func TestRingSequenceHostileText(t *testing.T) {
	t.Parallel()
	for _, s := range hostileTexts {
		for _, k := range []ringKind{ringBEL, ringOSC9, ringOSC777, ringOSC99} {
			out := ringSequence(k, s, s, false)
			want := map[ringKind]int{ringBEL: 1, ringOSC9: 1, ringOSC777: 1, ringOSC99: 2}[k]
			if seqs := sequences(out); len(seqs) != want {
				t.Errorf("%v of %q: %d sequences, want %d: %q", k, s, len(seqs), want, seqs)
			}
			if k == ringBEL {
				continue
			}
			// tmux reads its passthrough up to the first ESC \ and turns
			// each ESC ESC back into ESC: what it passes on is out.
			tm := ringSequence(k, s, s, true)
			inner, ok := strings.CutPrefix(tm, "\x1bPtmux;")
			inner, ok2 := strings.CutSuffix(inner, "\x1b\\\a")
			if !ok || !ok2 || strings.ReplaceAll(inner, "\x1b\x1b", "") != strings.ReplaceAll(out, "\x1b", "") ||
				strings.ReplaceAll(inner, "\x1b\x1b", "\x1b") != out {
				t.Errorf("%v in tmux of %q: %q is not %q passed through", k, s, tm, out)
			}
		}
		got := ringText(s)
		if !utf8.ValidString(got) || len(got) > ringTextMax {
			t.Errorf("ringText(%q) = %q: invalid UTF-8 or over the cap", s, got)
		}
		for _, r := range got {
			if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == 0x202e {
				t.Errorf("ringText(%q) = %q kept %U", s, got, r)
			}
		}
	}
}

// sequences is what a terminal reads in s as controls and escape
// sequences, in order (x/ansi's parser; printable text is left out).
func sequences(s string) []string {
	var seqs []string
	var state byte
	for len(s) > 0 {
		seq, width, n, next := ansi.DecodeSequence(s, state, nil)
		if width == 0 && n > 0 {
			seqs = append(seqs, seq)
		}
		state, s = next, s[n:]
	}
	return seqs
}

func TestRingTextCap(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		want int
	}{
		{strings.Repeat("é", 150), 200},       // 2-byte characters: exactly 100
		{"a" + strings.Repeat("é", 150), 199}, // never half of one
		{strings.Repeat("日", 100), 198},       // 3-byte characters: 66
		{strings.Repeat("x", 1<<20), 200},
		{"  padded  ", 6},
	} {
		got := ringText(c.in)
		if len(got) != c.want || !utf8.ValidString(got) {
			t.Errorf("ringText of %d bytes: %d bytes (valid %v), want %d", len(c.in), len(got), utf8.ValidString(got), c.want)
		}
	}
}

// FuzzRingSequence: no title or body makes the ring more than its own
// sequences: between the ring's framing there is valid UTF-8 with no
// control character, and OSC 777's text has just its two ";". (Checked
// by bytes, not with x/ansi's parser: that one ends an OSC at a 0x9C
// inside a UTF-8 character, docs/dependencies.md §9.9.)
func FuzzRingSequence(f *testing.F) {
	for _, s := range hostileTexts {
		f.Add(s, "body")
	}
	f.Add("ٜ", "0") // D9 9C: x/ansi's parser would end the OSC there
	f.Fuzz(func(t *testing.T, title, body string) {
		frames := []struct {
			k          ringKind
			open, shut string
		}{
			{ringOSC9, "\x1b]9;", "\a"},
			{ringOSC777, "\x1b]777;notify;", "\a"},
			{ringOSC99, "\x1b]99;i=pullcept:d=0:e=1:f=cHVsbGNlcHQ=;", "\a"},
		}
		for _, fr := range frames {
			out := ringSequence(fr.k, title, body, false)
			mid, ok := strings.CutPrefix(out, fr.open)
			mid, ok2 := strings.CutSuffix(mid, fr.shut)
			if fr.k == ringOSC99 {
				mid = strings.Replace(mid, "\a\x1b]99;i=pullcept:p=body:e=1;", "", 1)
			}
			if !ok || !ok2 || !plainText(mid) || fr.k == ringOSC777 && strings.Count(mid, ";") != 1 {
				t.Fatalf("%v of %q, %q: %q", fr.k, title, body, out)
			}
		}
		for _, s := range []string{ringText(title), ringText(body)} {
			if len(s) > ringTextMax || !plainText(s) {
				t.Fatalf("ringText gave %q", s)
			}
		}
	})
}

// plainText: valid UTF-8 without a C0 or C1 control or DEL.
func plainText(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool {
		return r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0
	})
}
