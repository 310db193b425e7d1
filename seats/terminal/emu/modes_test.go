package emu

import (
	"slices"
	"strings"
	"testing"
)

// The answers to the child's queries: the bytes x/vt gave, but DSR 5 as
// the VT100, xterm and tmux answer it, and cursor reports relative to the
// region in origin mode (xterm, tmux).
func TestReplies(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		want []string
	}{
		{"\x1b[c", []string{"\x1b[?62;1;6;22c"}},
		{"\x1b[0c", []string{"\x1b[?62;1;6;22c"}},
		{"\x1b[>c", []string{"\x1b[>1;10;0c"}},
		{"\x1b[=c", nil},
		{"\x1b[5n", []string{"\x1b[0n"}},
		{"\x1b[3;7H\x1b[6n", []string{"\x1b[3;7R"}},
		{"\x1b[3;7H\x1b[?6n", []string{"\x1b[?3;7R"}},
		{"\x1b[2;4r\x1b[?6h\x1b[2;3H\x1b[6n", []string{"\x1b[2;3R"}},
		{"\x1b[?2004$p", []string{"\x1b[?2004;2$y"}},
		{"\x1b[?2004h\x1b[?2004$p", []string{"\x1b[?2004;1$y"}},
		{"\x1b[?7$p", []string{"\x1b[?7;1$y"}},
		{"\x1b[?1049$p", []string{"\x1b[?1049;2$y"}},
		{"\x1b[?2026$p", []string{"\x1b[?2026;0$y"}},
		{"\x1b[?2026h\x1b[?2026$p", []string{"\x1b[?2026;1$y"}},
		{"\x1b[20$p\x1b[4$p", []string{"\x1b[20;2$y", "\x1b[4;2$y"}},
		{"\x1b[4h\x1b[4$p", []string{"\x1b[4;1$y"}},
		{"\x1b]11;?\x07", []string{"\x1b]11;rgb:0000/0000/0000\x07"}},
		{"\x1b]10;?\x1b\\", []string{"\x1b]10;rgb:ffff/ffff/ffff\x07"}},
		{"\x1b]11;#102030\x07\x1b]11;?\x07", []string{"\x1b]11;rgb:1010/2020/3030\x07"}},
		{"\x1b]11;#102030\x07\x1b]111\x07\x1b]11;?\x07", []string{"\x1b]11;rgb:0000/0000/0000\x07"}},
		{"\x1b[?2048h", []string{"\x1b[48;5;10;0;0t"}},
		{"\x1b[>0q\x1b[?u\x1b[18t", nil},
	}
	for _, c := range cases {
		tm := newFixture(10, 5).feed(c.in)
		if !slices.Equal(tm.replies, c.want) {
			t.Errorf("%q: replies %q, want %q", c.in, tm.replies, c.want)
		}
	}
}

func TestModes(t *testing.T) {
	t.Parallel()
	tm := newFixture(10, 3)
	if m := tm.Modes(); !m.AutoWrap || !m.CursorVisible || m.BracketedPaste || m.Mouse != (MouseModes{}) {
		t.Errorf("initial modes %+v", m)
	}
	tm.feed("\x1b[?1;5;6;66;69;1000;1002;1003;1004;1005;1006;1015;1016;2004h\x1b[?7;25l\x1b[4;20h")
	want := Modes{Origin: true, Insert: true, LNM: true, AppCursorKeys: true, BracketedPaste: true,
		ReverseVideo: true, LeftRightMargins: true, AppKeypad: true, FocusEvents: true,
		Mouse: MouseModes{Any: true, SGR: true, UTF8: true, URXVT: true, SGRPixels: true}}
	if m := tm.Modes(); m != want {
		t.Errorf("modes %+v\nwant  %+v", m, want)
	}
	// One tracking mode, as in xterm and tmux: the last set; resetting
	// any ends it.
	tm.feed("\x1b[?9h")
	if m := tm.Modes().Mouse; !m.X10 || m.Normal || m.Button || m.Any {
		t.Errorf("after ?9h: mouse %+v", m)
	}
	tm.feed("\x1b[?1002h\x1b[?1000$p")
	if m := tm.Modes().Mouse; m.X10 || !m.Button || tm.replies[len(tm.replies)-1] != "\x1b[?1000;2$y" {
		t.Errorf("after ?1002h: mouse %+v, %q", m, tm.replies)
	}
	tm.feed("\x1b[?1003l")
	if m := tm.Modes().Mouse; m.X10 || m.Normal || m.Button || m.Any || !m.SGR {
		t.Errorf("after ?1003l: mouse %+v", m)
	}
	if _, _, visible := tm.Cursor(); visible {
		t.Error("?25l left the cursor visible")
	}
	tm.feed("\x1b>\x1b[4 q")
	if tm.Modes().AppKeypad || tm.CursorStyle() != 4 {
		t.Errorf("DECKPNM / DECSCUSR: %+v, style %d", tm.Modes(), tm.CursorStyle())
	}
	tm.feed("\x1b[ q")
	if tm.CursorStyle() != 0 {
		t.Errorf("DECSCUSR default: %d", tm.CursorStyle())
	}
	// The modes without effect a child may set are bounded.
	for n := range 10000 {
		tm.feed("\x1b[?" + itoa(3000+n) + "h")
	}
	if len(tm.m.other) > maxOtherModes {
		t.Errorf("%d other modes kept", len(tm.m.other))
	}
}

func itoa(n int) string {
	return strings.TrimSpace(strings.Repeat(" ", 0) + string(appendInt(nil, n)))
}

func appendInt(b []byte, n int) []byte {
	if n >= 10 {
		b = appendInt(b, n/10)
	}
	return append(b, byte('0'+n%10))
}

// The alternate screen (?1049, ?1047, ?47): blank on entry, the cursor
// where it was; leaving shows the primary screen as it was, and ?1049
// restores the cursor saved on entry.
func TestAltScreen(t *testing.T) {
	t.Parallel()
	tm := newFixture(10, 3).feed("abc\x1b[?1049hX")
	tm.check(t, 4, 0, "   X", "", "")
	if !tm.AltScreen() {
		t.Error("not on the alternate screen")
	}
	tm.feed("\x1b[3;1HZ\x1b[?1049lY")
	tm.check(t, 4, 0, "abcY", "", "")
	if tm.AltScreen() {
		t.Error("still on the alternate screen")
	}
	tm = newFixture(10, 3).feed("ab\x1b[?47hX\x1b[?47lY")
	tm.check(t, 4, 0, "ab Y", "", "")
	tm = newFixture(10, 3).feed("ab\x1b[?1047hX\x1b[?1047h\x1b[?1047lY")
	tm.check(t, 4, 0, "ab Y", "", "")
	// Entered again, the alternate screen is blank.
	tm = newFixture(10, 3).feed("\x1b[?1049hX\x1b[?1049l\x1b[?1049h")
	tm.check(t, 0, 0, "", "", "")
	// ?1048 saves and restores the cursor only.
	tm = newFixture(10, 3).feed("\x1b[2;2H\x1b[?1048h\x1b[H\x1b[?1048lX")
	tm.check(t, 2, 1, "", " X", "")
}

func TestTitle(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{"\x1b]0;hello\x07", "hello"},
		{"\x1b]2;a;b\x1b\\", "a;b"},
		{"\x1b]1;icon\x07", ""},
		// ✳ is E2 9C B3 and 本 E6 9C AC: 0x9C is also C1 ST
		// (docs/dependencies.md §9.9).
		{"\x1b]0;✳ Claude Code\x07", "✳ Claude Code"},
		{"\x1b]2;日本\x07", "日本"},
		{"\x1b]2;ab\x9ccd", "ab"},
		{"\x1b]2;a\x01b\u0085c\x07", "abc"},
		{"\x1b]2;a\xffb\x07", "ab"},
	}
	for _, c := range cases {
		tm := newFixture(10, 2).feed(c.in)
		if tm.Title() != c.want {
			t.Errorf("%q: title %q, want %q", c.in, tm.Title(), c.want)
		}
	}
	// After the title the screen is untouched.
	tm := newFixture(20, 2).feed("\x1b]0;✳ Claude Code\x07>")
	tm.check(t, 1, 0, ">", "")
	tm = newFixture(10, 2).feed("\x1b]2;" + strings.Repeat("é", 5000) + "\x07")
	if len(tm.Title()) > maxTitle || len(tm.Title()) < maxTitle-2 || !strings.HasPrefix(tm.Title(), "éé") {
		t.Errorf("title of %d bytes", len(tm.Title()))
	}
}

// OSC 8 links: only http(s) URLs of printable ASCII are kept; an empty URL
// ends the link; RenderRow wraps the linked cells in OSC 8.
func TestLinks(t *testing.T) {
	t.Parallel()
	tm := newFixture(10, 2).feed("a\x1b]8;id=1;https://example.com/x\x1b\\bc\x1b]8;;\x1b\\d")
	for x, want := range []string{"", "https://example.com/x", "https://example.com/x", ""} {
		if got := tm.LinkAt(x, 0); got != want {
			t.Errorf("LinkAt(%d) %q, want %q", x, got, want)
		}
	}
	got := string(tm.RenderRow(0, nil))
	want := "a\x1b]8;id=1;https://example.com/x\x1b\\bc\x1b]8;;\x1b\\d      "
	if got != want {
		t.Errorf("RenderRow %q\nwant      %q", got, want)
	}
	for _, bad := range []string{"file:///etc/passwd", "javascript:alert(1)", "https://a\u009cb", "https://a b"} {
		tm := newFixture(10, 2).feed("\x1b]8;;" + bad + "\x07x")
		if l := tm.LinkAt(0, 0); l != "" {
			t.Errorf("%q kept as %q", bad, l)
		}
	}
	tm = newFixture(10, 2).feed("\x1b]8;a;b;https://x.y\x07x")
	if l := tm.LinkAt(0, 0); l != "" {
		t.Errorf("parameters with ';' kept %q", l)
	}
}
