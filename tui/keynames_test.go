package tui

import (
	"regexp"
	"strings"
	"testing"
)

// TestHintKeyAsOnTheKeyboard: hintKey, the one way a text names a key,
// writes it as the keyboard does.
func TestHintKeyAsOnTheKeyboard(t *testing.T) {
	t.Parallel()
	for k, want := range map[string]string{
		"f9": "F9", "ctrl+q": "Ctrl+Q", "shift+tab": "Shift+Tab", "esc": "Esc", "ctrl+]": "Ctrl+]",
		"pgdown": "PgDn", "ctrl+pgup": "Ctrl+PgUp", "up": "↑", "alt+down": "Alt+↓", "left": "←",
		"y": "y", "?": "?", "shift+f5": "Shift+F5",
	} {
		if got := hintKey(k); got != want {
			t.Errorf("hintKey(%q) = %q, want %q", k, got, want)
		}
	}
}

// TestNoKeyInConfigSpelling (issue 35: "press f9"): no screen that names
// a key of the key map writes it as config.json spells it ("f9",
// "ctrl+s") — the brake's report, the editor's footer and its delete
// question, the help overlay, a card and its refusals, in English and
// Japanese. Settings → Keys, which is about config.json, keeps it.
func TestNoKeyInConfigSpelling(t *testing.T) {
	t.Parallel()
	for _, lang := range []Lang{LangEnglish, LangJapanese} {
		e := testEnv(lang)
		var raw []string
		for _, en := range e.keys.grouped() {
			for _, k := range en.b.Keys() {
				if regexp.MustCompile(`^([a-z]+\+)+.|^f[0-9]+$`).MatchString(k) {
					raw = append(raw, regexp.QuoteMeta(k))
				}
			}
		}
		spelled := regexp.MustCompile(`(^|[^\pL\pN+])(` + strings.Join(raw, "|") + `)($|[^\pL\pN+])`)
		check := func(what, screen string) {
			t.Helper()
			if m := spelled.FindString(screen); m != "" {
				t.Errorf("%s %s names a key as config.json spells it (%q):\n%s", lang, what, m, screen)
			}
		}

		m := sceneModel(t, scene(), 200, 60, lang)
		send(t, m, eventsMsg{evs: []Event{BrakeChanged{Topic: "t-main", On: true, Count: 1}}})
		check("braked", plain(m))
		send(t, m, press("f1"))
		check("help", plain(m))

		m = openAccount(t, scene(), "lay", 200, 50, lang)
		check("editor", plain(m))
		send(t, m, press("ctrl+d"))
		check("editor delete", plain(m))

		_, m = cardScene(t, 80, 24, lang, bashCard(1))
		send(t, m, press("f7"))
		check("card", plain(m))
		typeText(t, m, "y")
		check("card answered", plain(m)+strings.Join(m.messageRows(200), "\n"))
	}
}

// TestOneIsSingular (issue 35: "after 1 AI posts in a row"): an English
// text that counts one thing says it in the singular, the same text with
// more in the plural; Japanese counts as before; every singular form
// applies to its text.
func TestOneIsSingular(t *testing.T) {
	t.Parallel()
	en, ja := catalog{lang: LangEnglish}, catalog{lang: LangJapanese}
	if got := en.tn(mSetBrakeN, 1, 1); got != "after 1 AI post in a row" {
		t.Errorf("one: %q", got)
	}
	if got := en.tn(mSetBrakeN, 2, 2); got != "after 2 AI posts in a row" {
		t.Errorf("two: %q", got)
	}
	if got := ja.tn(mSetBrakeN, 1, 1); got != ja.t(mSetBrakeN, 1) {
		t.Errorf("Japanese one: %q", got)
	}
	if got := BrakeNotice(LangEnglish, nil, 1); !strings.Contains(got, "after 1 AI post in a row") || !strings.Contains(got, "presses F9") {
		t.Errorf("the brake notice: %q", got)
	}
	for k, r := range singular {
		if !strings.Contains(messages[k][0], r[0]) {
			t.Errorf("catalog key %d: %q is not in %q", k, r[0], messages[k][0])
		}
	}
	m := sceneModel(t, scene(), 200, 60, LangEnglish)
	send(t, m, eventsMsg{evs: []Event{BrakeChanged{Topic: "t-main", On: true, Count: 1}}})
	if st := statusPlain(m); !strings.Contains(st, "after 1 AI post in a row") || !strings.Contains(st, "press F9") {
		t.Errorf("the brake's report: %q", st)
	}
}
