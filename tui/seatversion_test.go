package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// tooOldLay is the refusal of Lay's start: its Codex is older than the
// app-server line needs (docs/clis.md §6).
var tooOldLay = &CLITooOldError{CLI: "Codex CLI", Path: "/usr/local/bin/codex", Have: "0.150.3", Need: "0.160.0",
	Uses: "app-server --ws-token-sha256, resume --remote"}

// versionScene is scene with Lin started without the version check (its
// CLI printed no version) and Lay's start refused as too old.
func versionScene() *fakeBackend {
	f := scene()
	f.seats["t-main"][0].VersionUnread = "--version printed no version (\"claude-wrapper 1\")"
	f.startErr = tooOldLay
	return f
}

// TestGoldenCLIVersion (issue 34 item 12): a refused start names the
// version the seat needs on the status line and on its row, in the UI's
// language; a seat whose version could not be read says so on its row,
// and in its details.
func TestGoldenCLIVersion(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		lang    Lang
		details string
	}{
		{"120x40", LangEnglish, ""},
		{"120x40ja", LangJapanese, ""},
		{"120x40details", LangEnglish, "lin"},
		{"120x40detailsja", LangJapanese, "lin"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m := sceneModel(t, versionScene(), 120, 40, tc.lang)
			toParticipants(t, m, "lay")
			send(t, m, press("enter"))
			if tc.details != "" {
				toParticipants(t, m, tc.details)
			}
			golden.RequireEqual(t, m.View().Content)
		})
	}
}

// TestTooOldStartNamesTheVersion: the refusal's words, whatever the width.
func TestTooOldStartNamesTheVersion(t *testing.T) {
	t.Parallel()
	for lang, want := range map[Lang][]string{
		LangEnglish:  {"Lay was not started: Codex CLI 0.150.3 is too old: this seat needs 0.160.0 or newer"},
		LangJapanese: {"Lay を起動できません: Codex CLI 0.150.3 は古すぎます。この席には 0.160.0 以上が必要です"},
	} {
		f := scene()
		f.startErr = tooOldLay
		m := sceneModel(t, f, 400, 40, lang)
		toParticipants(t, m, "lay")
		send(t, m, press("enter"))
		if got := m.seats.failed[seatKey{"t-main", "lay"}]; !strings.Contains(got, "0.160.0") || !strings.Contains(got, "/usr/local/bin/codex") {
			t.Errorf("%v: the row's reason %q does not name the version needed and the CLI", lang, got)
		}
		for _, w := range want {
			if !strings.Contains(m.status.text, w) {
				t.Errorf("%v: status %q lacks %q", lang, m.status.text, w)
			}
		}
	}
}

// TestVersionUnreadOnTheStartStatus: a start without the version check
// says so on the status line too.
func TestVersionUnreadOnTheStartStatus(t *testing.T) {
	t.Parallel()
	f := scene()
	f.startRes = SeatStart{VersionUnread: "no answer to --version in 10s"}
	m := sceneModel(t, f, 400, 40, LangEnglish)
	toParticipants(t, m, "lay")
	send(t, m, press("enter"))
	if !strings.Contains(m.status.text, "CLI version not checked (started anyway): no answer to --version in 10s") {
		t.Errorf("status = %q", m.status.text)
	}
}
