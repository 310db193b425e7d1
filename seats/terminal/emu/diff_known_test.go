package emu_test

// The known differences: where two models disagree on a stream and why,
// and which one the product follows. A difference the suite meets that is
// not here fails it; an entry no stream shows any more fails it too.

// knownDiff names the differences of one pair of models ("tmux/screen",
// "tmux/emu", "screen/emu") on the streams matching stream (path.Match) in
// the aspects matching aspect (see difference).
type knownDiff struct {
	pair, stream, aspect string
	follows              string // what the product follows: "x/vt", "tmux", "neither"
	why                  string
}

// vs16 is why tmux and x/vt wrap text with emoji differently.
const vs16 = "VS16/VS15: tmux 3.3a sizes an emoji by its base character's wcwidth (⚠️ U+26A0 U+FE0F one cell), " +
	"x/ansi by the presentation selector (two cells), as the UI's renderer does"

var knownDiffs = []knownDiff{
	// tmux 3.3a against terminal.Screen (x/vt v0.1.0 with Screen's fixes).
	{"tmux/screen", "streams/lr-margins-*", "*", "x/vt",
		"tmux 3.3a has no left/right margins (DECLRMM ?69, DECSLRM): it takes CSI s as SCOSC and scrolls whole " +
			"lines into its history; xterm and x/vt scroll inside the margins"},
	{"tmux/screen", "streams/il-outside-region.*", "text", "x/vt",
		"IL/DL with the cursor outside the scroll region: xterm and x/vt do nothing, tmux 3.3a inserts and deletes " +
			"lines of the whole screen"},
	{"tmux/screen", "streams/modes.*", "text", "tmux",
		"IRM (CSI 4 h): tmux inserts what is printed, x/vt v0.1.0 overwrites; tmux is right (xterm inserts) and " +
			"the product follows x/vt only until emu replaces it"},
	{"tmux/screen", "streams/osc-title-9c.*", "title", "tmux",
		"Screen.stringByte turns a 0x9C inside a title's UTF-8 into 0xBF so that x/ansi does not end the string " +
			"there, and the title gets another character (✳ becomes ⿳); tmux keeps it, emu must too"},
	{"tmux/screen", "pty/claude-*-TestE2EFloorTwoClaudeSeats-2.*", "title", "tmux",
		"Claude Code's title ✳ (E2 9C B3): see streams/osc-title-9c"},
	{"tmux/screen", "streams/osc-lone-9c.*", "*", "x/vt",
		"a raw 0x9C that continues no UTF-8 character inside an OSC: x/ansi takes it as ST (C1) and prints " +
			"the rest, tmux 3.3a (a UTF-8 terminal, no 8-bit controls) keeps it in the string; Screen keeps " +
			"x/ansi's reading (TestXVTStillEndsStringsInsideUTF8)"},
	{"tmux/screen", "streams/graphemes.*", "*", "x/vt",
		"an emoji modifier (👍🏽): tmux 3.3a gives the skin tone a cell of its own, x/ansi keeps the cluster " +
			"whole (UAX #29), as the UI's renderer does"},
	{"tmux/screen", "streams/family-emoji.*", "text", "x/vt",
		"tmux keeps at most 21 bytes of a cluster (UTF8_SIZE): the four-person family loses its last person"},
	{"tmux/screen", "streams/emoji-vs16.*", "*", "x/vt", vs16},
	{"tmux/screen", "bench/mixed-*", "text", "x/vt", vs16},
	{"tmux/screen", "bench/mixed-*", "scrollback", "x/vt", vs16},
}
