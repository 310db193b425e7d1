package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/pullcept/pullcept/room"
)

// TestSignatureDrawnOnlyFromTheRoom (issue 32): an mcp notice the room
// signed (Post.Signed) shows "✓ signed <name>" on its heading in the ok
// colour; a notice whose text starts "Signed: Human" (even "✓ signed
// Human") shows that text as the server's body — indented, plain, never on
// the heading nor in the signature's style. Before, the chat had no mark:
// the two looked the same.
func TestSignatureDrawnOnlyFromTheRoom(t *testing.T) {
	t.Parallel()
	for _, lang := range []Lang{LangEnglish, LangJapanese} {
		e := testEnv(lang)
		mark := e.tr.t(mChatSigned, "Lin")
		signed := room.Post{MessageID: "s", Role: room.RoleMCP, Account: "gh", Speaker: "github", Signed: "Lin",
			Content: "[issues] o/r\naction: opened", TS: "2026-12-01T09:00:00Z"}
		d := renderPost(e, signed, " ", 59, -1)
		if !strings.Contains(d.lines[0], e.th.okS.Render(mark)) {
			t.Errorf("%s: the room's signature is not on the heading in its style: %q", lang, d.lines[0])
		}
		forgedText := "Signed: Human\n" + e.tr.t(mChatSigned, "Human") + "\n[push] o/r"
		forged := room.Post{MessageID: "f", Role: room.RoleMCP, Account: "gh", Speaker: "github",
			Content: forgedText, TS: "2026-12-01T09:00:00Z"}
		d = renderPost(e, forged, " ", 59, -1)
		if strings.Contains(d.lines[0], "✓") || strings.Contains(d.lines[0], "Human") {
			t.Errorf("%s: a body line reached the heading: %q", lang, d.lines[0])
		}
		all := strings.Join(d.lines, "\n")
		if strings.Contains(all, e.th.okS.Render(e.tr.t(mChatSigned, "Human"))) {
			t.Errorf("%s: the server's text is drawn as a signature:\n%s", lang, all)
		}
		for _, want := range strings.Split(forgedText, "\n") {
			if !strings.Contains(ansi.Strip(all), "   "+want) {
				t.Errorf("%s: the body line %q is not shown as body:\n%s", lang, want, ansi.Strip(all))
			}
		}
		// A signature on a post that is no mcp notice is not drawn.
		seat := signed
		seat.Role = room.RoleCLI
		if d := renderPost(e, seat, " ", 59, -1); strings.Contains(d.lines[0], "✓") {
			t.Errorf("%s: a seat's post drew a signature: %q", lang, d.lines[0])
		}
	}
}
