package terminal

import (
	"bytes"

	"github.com/charmbracelet/x/vt"
)

// guardLinks keeps a seat's hyperlinks (OSC 8) to what may reach the
// human's terminal: the emulator re-emits a link's URL and parameters
// around the cells it covers, so a seat chooses bytes our pane writes.
// Only an http or https URL of printable ASCII, with parameters of
// letters, digits and = : _ . -, is kept; any other link is dropped (the
// text stays, unlinked). A URL holding U+009C (ST to some terminals) would
// otherwise end the sequence early on the human's side and write the rest
// as raw bytes; a file: or custom-scheme link would open a local program
// on a click (docs/design.md §10 "What a seat pane passes on").
func guardLinks(emu *vt.Emulator) {
	emu.RegisterOscHandler(8, func(data []byte) bool {
		// data is "8;params;url", as x/vt's own handler (registered
		// first, so asked after this one) reads it.
		parts := bytes.Split(data, []byte{';'})
		if len(parts) != 3 || len(parts[2]) == 0 {
			return false // an end of link, or malformed: x/vt's handler
		}
		return !safeLink(parts[1], parts[2]) // true: consumed, no link
	})
}

// maxLinkURL bounds a link's URL; browsers take about 2 000 bytes.
const maxLinkURL = 2048

func safeLink(params, url []byte) bool {
	if len(url) > maxLinkURL || !(bytes.HasPrefix(url, []byte("https://")) || bytes.HasPrefix(url, []byte("http://"))) {
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
	return len(params) <= 256
}
