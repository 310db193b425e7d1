package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// addressingModel is the scene (Lin and Lay in the room) plus Bo, a CLI
// account whose seat is not started.
func addressingModel(t *testing.T, lang Lang, w, h int) *Model {
	t.Helper()
	f := scene()
	f.accounts = append(f.accounts, AccountInfo{ID: "bo", Kind: KindCLI, Name: "Bo", Dir: "/home/u/work", Command: "bo"})
	return sceneModel(t, f, w, h, lang)
}

// inputEdge is the input bar's top edge as shown.
func inputEdge(t *testing.T, m *Model) string {
	t.Helper()
	m.View()
	return ansi.Strip(m.input.view[0])
}

// TestAddressHint: while typing, the bar's top edge names the @names that
// do not resolve — not in the room, or offline — in English and Japanese,
// one line at 80 columns; resolved names and the @word being completed are
// not named (issue 14).
func TestAddressHint(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		lang       Lang
		w, h       int
		text, want string
	}{
		{LangEnglish, 120, 30, "@Zed can you check", "Zed is not in this room — the post goes to everyone"},
		{LangEnglish, 120, 30, "@Bo please look", "Bo is offline: it will see this in its unseen history"},
		{LangEnglish, 120, 30, "@Lin and @Zed, look", "Zed is not in this room: not addressed"},
		{LangEnglish, 160, 40, "@Zed @Ann hi", "Zed, Ann are not in this room — the post goes to everyone"},
		{LangJapanese, 120, 30, "@Zed 見てください", "Zed はこの部屋にいません — 投稿は全員宛てになります"},
		{LangJapanese, 120, 30, "@Bo 見てください", "Bo はオフラインです: 起動すると未読の履歴で読みます"},
		// At 80×24 the edge holds 30 cells: the short form.
		{LangEnglish, 80, 24, "@Zed can you check", "Zed: not in room, to everyone"},
		{LangEnglish, 80, 24, "@Bo please look", "Bo: offline, reads it later"},
		{LangJapanese, 80, 24, "@Zed 見てください", "Zed: 不在 — 全員宛て"},
		{LangJapanese, 80, 24, "@Bo 見てください", "Bo: オフライン — 後で読む"},
	} {
		m := addressingModel(t, tc.lang, tc.w, tc.h)
		typeText(t, m, tc.text)
		if got := inputEdge(t, m); !strings.Contains(got, tc.want) {
			t.Errorf("%dx%d %q: edge %q, want %q", tc.w, tc.h, tc.text, got, tc.want)
		}
	}
	for _, text := range []string{"@Lin please look", "@lin, @LAY: look", "mail a@zed.example", "@L"} {
		m := addressingModel(t, LangEnglish, 80, 24)
		typeText(t, m, text)
		if got := inputEdge(t, m); strings.Contains(got, "not in this room") || strings.Contains(got, "offline") {
			t.Errorf("%q: edge %q names a resolved name", text, got)
		}
	}
	// Two kinds in one line, cut with "…" to the edge.
	m := addressingModel(t, LangEnglish, 80, 24)
	typeText(t, m, "@Zed @Bo look")
	got := inputEdge(t, m)
	if !strings.Contains(got, "Zed: not in room") || !strings.Contains(got, "…") || ansi.StringWidth(m.input.view[0]) != m.layout.Input.W {
		t.Errorf("combined edge %q (width %d, want %d)", got, ansi.StringWidth(m.input.view[0]), m.layout.Input.W)
	}
}

// TestMentionsHighlighted: the @names the room will address are drawn in
// the participant's colour, bold and underlined; others are plain text.
func TestMentionsHighlighted(t *testing.T) {
	t.Parallel()
	m := addressingModel(t, LangEnglish, 80, 24)
	typeText(t, m, "@Lin and @Zed")
	m.View()
	row := m.input.view[1]
	want := m.env.th.hueStyle(120).Bold(true).Underline(true).Render("@Lin")
	if !strings.Contains(row, want) {
		t.Errorf("row %q does not draw @Lin as %q", row, want)
	}
	if strings.Contains(row, m.env.th.hueStyle(nameHue("Zed")).Bold(true).Underline(true).Render("@Zed")) || !strings.Contains(ansi.Strip(row), "@Lin and @Zed") {
		t.Errorf("row %q: @Zed must stay plain text", row)
	}
}

// The @word still being typed is no name yet: no hint until the caret
// leaves it (it flashed "not in this room" at every key). A seat account
// whose seat runs here but is not in the room — still starting, or a CLI
// that never joins — is named as such, not as absent or offline.
func TestAddressHintWaitsAndKnowsJoining(t *testing.T) {
	t.Parallel()
	m := addressingModel(t, LangEnglish, 120, 30)
	typeText(t, m, "@Ze")
	if got := inputEdge(t, m); strings.Contains(got, "not in this room") {
		t.Fatalf("a half-typed name is hinted: %q", got)
	}
	typeText(t, m, "d hi")
	if got := inputEdge(t, m); !strings.Contains(got, "Zed is not in this room") {
		t.Fatalf("after the name: %q", got)
	}

	f := scene()
	f.accounts = append(f.accounts, AccountInfo{ID: "bo", Kind: KindCLI, Name: "Bo", Dir: "/home/u/work", Command: "bo"})
	f.seats["t-main"] = append(f.seats["t-main"], SeatInfo{Topic: "t-main", Account: "bo", State: SeatRunning})
	m = sceneModel(t, f, 120, 30, LangEnglish)
	typeText(t, m, "@Bo please look")
	if got := inputEdge(t, m); !strings.Contains(got, "Bo has not joined the room: not addressed") {
		t.Fatalf("a running seat outside the room: %q", got)
	}
}

// @ and the start of an offline account's name completes it too (after the
// room's names); the hint then says it is offline.
func TestCompletionOffersOfflineAccounts(t *testing.T) {
	t.Parallel()
	m := addressingModel(t, LangEnglish, 120, 30)
	typeText(t, m, "@B")
	send(t, m, press("tab"))
	typeText(t, m, "please look")
	if got := m.input.value(); got != "@Bo please look" {
		t.Fatalf("input %q, want @Bo completed", got)
	}
	if got := inputEdge(t, m); !strings.Contains(got, "Bo is offline") {
		t.Fatalf("edge %q", got)
	}
}
