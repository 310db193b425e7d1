package tui

import (
	"strings"
	"testing"
)

// TestStatusReportComesFirst (issue 35, a newcomer at 80×24): while a
// report shows, the right part gives way to it — the topic and the seat
// count first, then the words around the keys — so the reports a card
// makes fit whole at 80×24 in English and Japanese, or are cut only at
// their tail; the need-you count and the help key stay, the brake as its
// mark and key; with no report the right part is whole again.
func TestStatusReportComesFirst(t *testing.T) {
	t.Parallel()
	for _, lang := range []Lang{LangEnglish, LangJapanese} {
		m := sceneModel(t, scene(), 80, 24, lang)
		m.attn.items = []AttentionItem{{ID: 1, Topic: "t-run", Account: "lin"}}
		tr := m.env.tr
		for _, braked := range []bool{false, true} {
			m.topics.braked["t-main"] = braked
			for i, report := range []string{
				tr.t(mStCardAllowed, "Bash", "Lin") + tr.t(mStCardsWaiting, "F7", 1),
				tr.t(mStCardAsked, "Claude", "Bash", "F7"),
				tr.t(mStCardAllowedAlways, "Bash", "Claude") + tr.t(mStCardsWaiting, "F7", 1),
				tr.t(mStBraked, "リリース準備", 12, "F9"),
			} {
				m.setStatus(stInfo, report)
				send(t, m, nil)
				st := statusPlain(m)
				if !strings.Contains(st, "! 1") || !strings.HasSuffix(strings.TrimRight(st, " "), "F1") &&
					!strings.Contains(st, tr.t(mStHelpHint, "F1")) {
					t.Errorf("%s: the need-you count or the help key went: %q", lang, st)
				}
				if braked && !strings.Contains(st, brakeMark+" F9") {
					t.Errorf("%s: the brake went: %q", lang, st)
				}
				shown, cut := strings.CutSuffix(strings.TrimSpace(st[:strings.Index(st, "! 1")]), "… F12")
				if !strings.HasPrefix(report, shown) || !cut && shown != report {
					t.Errorf("%s: %q shown as %q", lang, report, st)
				}
				if i < 2 && cut && !braked {
					t.Errorf("%s: a report that fits was cut: %q", lang, st)
				}
			}
		}
		m.topics.braked["t-main"] = false
		m.status.text = ""
		send(t, m, nil)
		if st := statusPlain(m); !strings.Contains(st, "リリース準備 · 3") || !strings.Contains(st, tr.t(mStHelpHint, "F1")) {
			t.Errorf("%s: with no report the right part is not whole: %q", lang, st)
		}
	}
}

// TestRestartSaysRestart (issue 35): a seat's restart reads "Restarting
// Lin…" on the status line where its stop read "Stopped Lin.", then that
// it is back, or, an error, why it is not; in English and Japanese.
func TestRestartSaysRestart(t *testing.T) {
	t.Parallel()
	for _, lang := range []Lang{LangEnglish, LangJapanese} {
		m := sceneModel(t, scene(), 80, 24, lang)
		tr := m.env.tr
		exit := SeatChanged{Topic: "t-main", Account: "lin", State: SeatExited, Requested: true}
		send(t, m, eventsMsg{evs: []Event{SeatRestart{Topic: "t-main", Account: "lin"}, exit}})
		if m.status.text != tr.t(mStRestarting, "Lin") {
			t.Errorf("%s: the restart's stop reads %q", lang, m.status.text)
		}
		send(t, m, eventsMsg{evs: []Event{SeatChanged{Topic: "t-main", Account: "lin", State: SeatRunning},
			SeatRestart{Topic: "t-main", Account: "lin", Done: true}}})
		if m.status.text != tr.t(mStRestarted, "Lin") || m.status.level != stInfo {
			t.Errorf("%s: back reads %q", lang, m.status.text)
		}
		send(t, m, eventsMsg{evs: []Event{SeatRestart{Topic: "t-main", Account: "lin"}, exit,
			SeatRestart{Topic: "t-main", Account: "lin", Done: true, Err: "it stopped but did not start again: boom"}}})
		if !strings.Contains(m.status.text, "boom") || m.status.level != stError {
			t.Errorf("%s: a failed restart reads %q", lang, m.status.text)
		}
		send(t, m, eventsMsg{evs: []Event{exit}}) // a stop of its own
		if m.status.text != tr.t(mStStopped, "Lin") {
			t.Errorf("%s: a stop after the restart reads %q", lang, m.status.text)
		}
	}
}
