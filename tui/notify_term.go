package tui

import (
	"encoding/base64"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/pullcept/pullcept/room/blank"
	"github.com/pullcept/pullcept/room/textcut"
)

// ringKind is how one notification rings the human's terminal
// (docs/notifications.md has each terminal, what it does and the sources).
type ringKind int

const (
	ringBEL    ringKind = iota // BEL: the terminal's own bell, whatever the user made of it
	ringOSC9                   // ESC ] 9 ; text BEL: iTerm2's notification
	ringOSC777                 // ESC ] 777 ; notify ; title ; body BEL: rxvt's, taken up by most others
	ringOSC99                  // ESC ] 99 ; … BEL: kitty's own protocol, payload in base64
)

// The ring settings (config's override of chooseRing's guess); "" guesses.
const (
	ringSetBEL    = "bel"
	ringSetOSC9   = "osc9"
	ringSetOSC777 = "osc777"
	ringSetOSC99  = "osc99"
)

// ringTextMax caps a notification's title and its body, each, in bytes:
// a notification shows a line or two, and a terminal caps what it takes
// (kitty: 2048 bytes a payload).
const ringTextMax = 200

var ringNames = [...]string{ringBEL: "BEL", ringOSC9: "OSC 9", ringOSC777: "OSC 777", ringOSC99: "OSC 99"}

func (k ringKind) String() string { return ringNames[k] }

// chooseRing picks how to ring the terminal that getenv describes (the
// attached client's environment, app/serve.go clientEnv), and says why in
// a few words of tr's language for the settings overlay ("WezTerm: OSC
// 777", "tmux 内、BEL"). setting overrides the guess; an unknown setting
// guesses. The guess is only what a terminal is known to do: BEL when
// nothing says which terminal it is.
func chooseRing(setting string, getenv func(string) string, tr catalog) (ringKind, string) {
	var k ringKind
	why := ""
	switch setting {
	case ringSetBEL:
		k = ringBEL
	case ringSetOSC9:
		k = ringOSC9
	case ringSetOSC777:
		k = ringOSC777
	case ringSetOSC99:
		k = ringOSC99
	default:
		why, k = whichTerminal(getenv)
	}
	if why != "" {
		why += ": "
	}
	why += k.String()
	if getenv("TMUX") != "" {
		why = tr.t(mRingInTmux, why)
		if k != ringBEL {
			why += " + BEL"
		}
	}
	return k, why
}

// whichTerminal names the terminal and its ring. What the terminal sets
// itself (TERM_PROGRAM, TERM) comes first; then what a program started
// from it inherits, which is all that is left inside tmux (it sets its
// own TERM and TERM_PROGRAM) or over ssh (which sends TERM and LC_*).
func whichTerminal(getenv func(string) string) (string, ringKind) {
	switch getenv("TERM_PROGRAM") {
	case "iTerm.app":
		return "iTerm2", ringOSC9
	case "WezTerm":
		return "WezTerm", ringOSC777
	case "ghostty":
		return "Ghostty", ringOSC777
	case "vscode":
		return "VS Code", ringOSC99
	case "Apple_Terminal":
		return "Terminal.app", ringBEL
	}
	switch term := getenv("TERM"); {
	case term == "xterm-kitty":
		return "kitty", ringOSC99
	case term == "xterm-ghostty":
		return "Ghostty", ringOSC777
	case term == "foot" || strings.HasPrefix(term, "foot-"):
		return "foot", ringOSC777
	case term == "alacritty" || strings.HasPrefix(term, "alacritty-"):
		return "Alacritty", ringBEL
	}
	return inheritedTerminal(getenv)
}

// inheritedTerminal reads the variables a terminal puts in its children's
// environment; a program started from one terminal inside another
// inherits them too, so they come after TERM_PROGRAM and TERM.
func inheritedTerminal(getenv func(string) string) (string, ringKind) {
	switch {
	case getenv("KITTY_WINDOW_ID") != "":
		return "kitty", ringOSC99
	case getenv("LC_TERMINAL") == "iTerm2":
		return "iTerm2", ringOSC9
	case getenv("WEZTERM_PANE") != "":
		return "WezTerm", ringOSC777
	case getenv("GHOSTTY_RESOURCES_DIR") != "":
		return "Ghostty", ringOSC777
	case getenv("KONSOLE_VERSION") != "":
		// OSC 777 notify came in Konsole 23.04 (KONSOLE_VERSION 230400).
		if v, err := strconv.Atoi(getenv("KONSOLE_VERSION")); err == nil && v >= 230400 {
			return "Konsole", ringOSC777
		}
		return "Konsole", ringBEL
	case getenv("WT_SESSION") != "":
		// OSC 777 is in Windows Terminal's main branch (June 2026), off
		// by default and in no release yet: the bell is what rings.
		return "Windows Terminal", ringBEL
	case getenv("VTE_VERSION") != "":
		return "VTE", ringBEL
	}
	return "", ringBEL
}

// ringSequence is the bytes that ring k with title and body. Both are
// cleaned first (ringText): nothing in them can end the sequence or start
// another. Inside tmux the sequence goes through tmux's passthrough (tmux
// 3.3+ with allow-passthrough on; off, tmux drops it) and a BEL follows,
// which tmux turns into its own bell alert on the window and passes on to
// the terminal: the ring is heard even where passthrough is off.
func ringSequence(k ringKind, title, body string, inTmux bool) string {
	title, body = ringText(title), ringText(body)
	var seq string
	switch k {
	case ringOSC9:
		seq = ansi.Notify(osc9Text(title, body))
	case ringOSC777:
		// Konsole and WezTerm split the body at its first ";" too.
		semi := strings.NewReplacer(";", ",")
		seq = ansi.URxvtExt("notify", semi.Replace(title), semi.Replace(body))
	case ringOSC99:
		seq = osc99(title, body)
	default:
		return "\a"
	}
	if inTmux {
		return ansi.TmuxPassthrough(seq) + "\a"
	}
	return seq
}

// osc9Text is OSC 9's one text: "title: body". A leading digit would be
// read as a ConEmu command by Windows Terminal, Ghostty and iTerm2 ("4;…"
// a progress bar, "1;…" a sleep); a space in front keeps it text.
func osc9Text(title, body string) string {
	s := title
	switch {
	case s == "":
		s = body
	case body != "":
		s += ": " + body
	}
	if s != "" && s[0] >= '0' && s[0] <= '9' {
		s = " " + s
	}
	return s
}

// osc99 is kitty's notification in two chunks of one id: the title, then
// the body that completes it. Base64 payloads carry any text; f names the
// application for kitty's filter_notification; a later ring with the
// same id replaces one still shown instead of piling up (kitty 0.36+).
func osc99(title, body string) string {
	b64 := base64.StdEncoding.EncodeToString
	app := "f=" + b64([]byte("pullcept"))
	return ansi.DesktopNotification(b64([]byte(title)), "i=pullcept", "d=0", "e=1", app) +
		ansi.DesktopNotification(b64([]byte(body)), "i=pullcept", "p=body", "e=1")
}

// ringText is s on one line and safe inside an OSC string: line breaks
// and tabs become spaces, every other C0 and C1 control (ESC, BEL, ST
// U+009C, DEL) and every invalid byte (a bare 0x9C) is dropped, what
// draws nothing is shown as its code (room/blank), and the result is cut
// to ringTextMax bytes between characters.
func ringText(s string) string {
	var b strings.Builder
	// Reading on past four times the cap is wasted: at most that is kept.
	for len(s) > 0 && b.Len() < 4*ringTextMax {
		r, n := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && n == 1:
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
		default:
			b.WriteString(s[:n])
		}
		s = s[n:]
	}
	shown, _ := blank.Show(strings.TrimSpace(b.String()))
	return strings.TrimSpace(textcut.Bytes(shown, ringTextMax))
}
