package tui

import (
	"strings"
	"testing"
)

// TestSettingsLanguageRowSaysTheLanguageInEffect: started in Japanese by
// PULLCEPT_LANGUAGE=ja on an English locale with config.json silent, the
// language row says 日本語 and why, not "from the locale (English)" (issue
// 35: the row said the locale's English on a Japanese screen); a change
// from there switches the screen and the row says the file's choice.
func TestSettingsLanguageRowSaysTheLanguageInEffect(t *testing.T) {
	t.Parallel()
	f := settingsScene()
	f.set.info.LanguageEnv = "ja"
	opts := testOptions()
	opts.Lang, opts.StartTopic = LangJapanese, "t-main"
	opts.Getenv = func(k string) string { return map[string]string{"LANG": "en_US.UTF-8", envLanguage: "ja"}[k] }
	m := newTestModel(t, f, opts, 80, 24)
	send(t, m, press("f3"))
	s := shown(m)
	if !strings.Contains(s, "日本語（PULLCEPT_LANGUAGE）") || strings.Contains(s, "ロケールに従う") {
		t.Fatalf("the language row does not say the language in effect:\n%s", s)
	}
	send(t, m, press("right"))
	if m.env.tr.lang != LangEnglish || !strings.Contains(shown(m), "‹ English ›") {
		t.Fatalf("→: screen %s\n%s", m.env.tr.lang, shown(m))
	}
	send(t, m, press("left"))
	if s := shown(m); !strings.Contains(s, "from the locale (English)") {
		t.Fatalf("←: the locale's, as the screen shows:\n%s", s)
	}
}
