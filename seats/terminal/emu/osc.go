package emu

import (
	"bytes"
	"image/color"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// maxTitle bounds the title a child sets, in bytes.
const maxTitle = 1024

// maxLinkURL bounds a link's URL (browsers take about 2 000 bytes) and
// maxLinkParams its parameters.
const (
	maxLinkURL    = 2048
	maxLinkParams = 256
)

// osc runs an OSC string; data is all of it ("2;title").
func (t *Terminal) osc(cmd int, data []byte) {
	t.flushPending()
	t.restoreString(data)
	_, arg, _ := bytes.Cut(data, []byte{';'})
	switch cmd {
	case 0, 2:
		t.title = sanitizeTitle(arg)
	case 8:
		t.setLink(arg)
	case 10, 11, 12:
		t.oscColor(cmd-10, arg)
	case 110, 111, 112:
		t.colors[cmd-110] = nil
	}
}

// sanitizeTitle drops control characters and invalid UTF-8 and caps the
// length at a character boundary.
func sanitizeTitle(b []byte) string {
	out := make([]byte, 0, min(len(b), maxTitle))
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		b = b[n:]
		if r == utf8.RuneError && n == 1 || r < 0x20 || r >= 0x7f && r < 0xa0 {
			continue
		}
		if len(out)+n > maxTitle {
			break
		}
		out = utf8.AppendRune(out, r)
	}
	return string(out)
}

// setLink is OSC 8 ("params;url"): an empty URL ends the link. Only an
// http or https URL of printable ASCII, with parameters of letters, digits
// and = : _ . -, is kept: the pane writes a link's bytes to the human's
// terminal (a U+009C in it would end the sequence there early), and a
// file: or custom-scheme link would open a local program on a click. Any
// other link is dropped; its text stays, unlinked.
func (t *Terminal) setLink(arg []byte) {
	params, url, ok := bytes.Cut(arg, []byte{';'})
	t.penValid = false // the erase style has no link
	if !ok || len(url) == 0 || !safeLink(params, url) {
		t.penLink = 0
		return
	}
	t.penLink = t.linkID(string(params) + ";" + string(url))
}

func safeLink(params, url []byte) bool {
	if len(url) > maxLinkURL || len(params) > maxLinkParams ||
		!(bytes.HasPrefix(url, []byte("https://")) || bytes.HasPrefix(url, []byte("http://"))) {
		return false
	}
	for _, c := range url {
		if c <= 0x20 || c >= 0x7f {
			return false
		}
	}
	for _, c := range params {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || bytes.IndexByte([]byte("=:_.-"), c) >= 0) {
			return false
		}
	}
	return true
}

// LinkAt is the URL of the link on cell (x, y), "" none.
func (t *Terminal) LinkAt(x, y int) string {
	c, ok := t.cellAt(x, y)
	if !ok {
		return ""
	}
	_, url, _ := strings.Cut(t.tab.links[t.tab.styles[c.sid].link], ";")
	return url
}

// defaultColors are what OSC 10, 11 and 12 report before the child sets
// them (x/vt's: white on black, a white cursor).
var defaultColors = [3]color.Color{color.White, color.Black, color.White}

// oscColor sets or (with "?") reports the foreground (0), background (1)
// or cursor (2) colour.
func (t *Terminal) oscColor(i int, arg []byte) {
	if len(arg) == 0 || bytes.IndexByte(arg, ';') >= 0 {
		return
	}
	if string(arg) != "?" {
		if c := ansi.XParseColor(string(arg)); c != nil {
			t.colors[i] = c
		}
		return
	}
	c := t.colors[i]
	if c == nil {
		c = defaultColors[i]
	}
	s := ansi.XRGBColor{Color: c}.String()
	switch i {
	case 0:
		t.sendReply(ansi.SetForegroundColor(s))
	case 1:
		t.sendReply(ansi.SetBackgroundColor(s))
	default:
		t.sendReply(ansi.SetCursorColor(s))
	}
}
