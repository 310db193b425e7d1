//go:build linux

package realapp

import (
	"strings"
	"testing"
)

// TestAddressingHintsInTheRealApp and TestAddressingHintsAt80x24InJapanese
// (issue 14): typing an @name nobody in the room has says the post goes to
// everyone, and an account whose seat is not started is named offline —
// the whole sentence on a wide screen, the short form in Japanese at 80×24.
// Before, nothing was shown.
func TestAddressingHintsInTheRealApp(t *testing.T) {
	addressingHints(t, 160, 40, "en", "@Zed can you check", "@Shell please look",
		"Zed is not in this room — the post goes to everyone", "Shell is offline: it will see this in its unseen history")
}

func TestAddressingHintsAt80x24InJapanese(t *testing.T) {
	addressingHints(t, 80, 24, "ja", "@Zed 見てください", "@Shell 見てください", "Zed: 不在 — 全員宛て", "Shell: オフライン — 後で読む")
}

// addressingHints types absent, waits for wantAbs on the input's edge,
// clears, types offline and waits for wantOff.
func addressingHints(t *testing.T, w, h int, lang, absent, offline, wantAbs, wantOff string) {
	r := newRig(t, w, h, lang, seat{id: "sh", name: "Shell"})
	r.text(absent)
	r.waitScreen("the not-in-room hint", func(s string) bool { return strings.Contains(s, wantAbs) })
	r.keys("C-c")
	r.waitScreen("the input cleared", func(s string) bool { return !strings.Contains(s, absent) && !strings.Contains(s, wantAbs) })
	r.text(offline)
	r.waitScreen("the offline hint", func(s string) bool { return strings.Contains(s, wantOff) })
}
