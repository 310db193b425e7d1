package tui

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestKeyMapOverride(t *testing.T) {
	t.Parallel()
	km := DefaultKeyMap()
	if err := km.Override(map[string][]string{"new_topic": {"ctrl+n", "f3"}, "leave_pane": {"ctrl+g"}}); err != nil {
		t.Fatalf("Override: %v", err)
	}
	if got := km.NewTopic.Keys(); !reflect.DeepEqual(got, []string{"ctrl+n", "f3"}) {
		t.Fatalf("new_topic keys = %v", got)
	}
	if got := km.LeavePane.Keys(); !reflect.DeepEqual(got, []string{"ctrl+g"}) {
		t.Fatalf("leave_pane keys = %v", got)
	}

	before := DefaultKeyMap()
	bad := DefaultKeyMap()
	err := bad.Override(map[string][]string{"new_topic": {"f4"}, "no_such_action": {"f5"}})
	if !errors.Is(err, ErrUnknownBinding) {
		t.Fatalf("unknown name: err = %v", err)
	}
	if !reflect.DeepEqual(bad.NewTopic.Keys(), before.NewTopic.Keys()) {
		t.Fatalf("a failed Override changed bindings: %v", bad.NewTopic.Keys())
	}
	if err := bad.Override(map[string][]string{"send": {}}); !errors.Is(err, ErrNoKeys) {
		t.Fatalf("empty keys: err = %v", err)
	}
	if err := bad.Override(map[string][]string{"send": {" "}}); !errors.Is(err, ErrNoKeys) {
		t.Fatalf("blank key: err = %v", err)
	}
}

func TestEveryBindingIsNamedAndInTheHelp(t *testing.T) {
	t.Parallel()
	km := DefaultKeyMap()
	entries := km.entries()
	if n := reflect.TypeOf(km).NumField(); n != len(entries) {
		t.Fatalf("KeyMap has %d fields but %d named entries", n, len(entries))
	}
	names := map[string]bool{}
	for _, e := range entries {
		if names[e.name] {
			t.Fatalf("duplicate binding name %q", e.name)
		}
		names[e.name] = true
		if len(e.b.Keys()) == 0 {
			t.Fatalf("binding %q has no keys", e.name)
		}
	}
	en := &env{th: newTheme(true), tr: catalog{lang: LangEnglish}, keys: &km}
	// Tall enough that nothing scrolls: every key label and description shows.
	help, _ := helpView(en, 240, 200, 0)
	for _, e := range km.helpEntries() {
		if !strings.Contains(help, keysLabel(*e.b)) {
			t.Fatalf("help lacks keys %q of %q", keysLabel(*e.b), e.name)
		}
		if !strings.Contains(help, en.tr.t(e.help)) {
			t.Fatalf("help lacks description of %q", e.name)
		}
	}
	// Modal keys too, with a description in both languages.
	for _, e := range km.modalEntries() {
		if d := messages[e.help]; d[0] == "" || d[1] == "" {
			t.Fatalf("modal binding %q lacks a description", e.name)
		}
		if !strings.Contains(help, en.tr.t(e.help)) {
			t.Fatalf("help does not list the modal binding %q", e.name)
		}
	}
}

// TestModalKeysFollowTheKeyMap overrides the keys of one mode each and
// checks the mode reacts to the new key and no longer to the default.
func TestModalKeysFollowTheKeyMap(t *testing.T) {
	t.Parallel()
	opts := testOptions()
	opts.StartTopic = "t-main"
	opts.Keys = map[string][]string{
		"deny":        {"x"},
		"picker_open": {"ctrl+o"},
		"popup_down":  {"ctrl+j"},
		"rename_save": {"ctrl+s"},
	}
	m := newTestModel(t, scene(), opts, 120, 40)

	typeText(t, m, "@")
	send(t, m, press("down"))
	if m.input.comp.sel != 0 {
		t.Fatalf("down still moves the popup")
	}
	send(t, m, press("ctrl+j"))
	if m.input.comp.sel != 1 {
		t.Fatalf("ctrl+j (popup_down) did not move the popup: %d", m.input.comp.sel)
	}
	send(t, m, press("esc"))
	send(t, m, press("ctrl+c"))

	send(t, m, press("f2"))
	typeText(t, m, "!")
	send(t, m, press("enter"))
	if !m.topics.renaming {
		t.Fatalf("enter still saves the name")
	}
	send(t, m, press("ctrl+s"))
	if m.topics.renaming || m.topics.nameOf(&m.env, "t-main") != "リリース準備!" {
		t.Fatalf("ctrl+s (rename_save) did not save: %+v", m.topics.items)
	}

	send(t, m, press("ctrl+q"))
	send(t, m, press("n"))
	if m.overlay.open != ovDialog {
		t.Fatalf("n still answers no after deny was overridden")
	}
	send(t, m, press("x"))
	if m.overlay.open != ovNone {
		t.Fatalf("x (deny) did not close the dialog")
	}

	send(t, m, press("ctrl+p"))
	typeText(t, m, "設計")
	send(t, m, press("enter"))
	if m.topics.open != "t-main" || m.overlay.open != ovPicker {
		t.Fatalf("enter still opens a topic: topic %q", m.topics.open)
	}
	send(t, m, press("ctrl+o"))
	if m.topics.open != "t-old" || m.overlay.open != ovNone {
		t.Fatalf("ctrl+o (picker_open) did not open the topic: %q", m.topics.open)
	}
}

func TestI18nCatalogComplete(t *testing.T) {
	t.Parallel()
	for k := mGroupGlobal; k < mCatalogEnd; k++ {
		e, ok := messages[k]
		if !ok || e[0] == "" || e[1] == "" {
			t.Fatalf("catalog key %d lacks a text: %q", k, e)
		}
	}
	if len(messages) != int(mCatalogEnd) {
		t.Fatalf("catalog has %d texts for %d keys", len(messages), int(mCatalogEnd))
	}
}

func TestDetectLang(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		env  map[string]string
		want Lang
	}{
		{map[string]string{}, LangEnglish},
		{map[string]string{"LANG": "ja_JP.UTF-8"}, LangJapanese},
		{map[string]string{"LANG": "ja_JP.UTF-8", "LC_ALL": "C"}, LangEnglish},
		{map[string]string{"LANG": "en_US.UTF-8", "LC_MESSAGES": "ja_JP"}, LangJapanese},
		{map[string]string{"LC_ALL": "JA"}, LangJapanese},
	} {
		if got := DetectLang(func(k string) string { return tc.env[k] }); got != tc.want {
			t.Fatalf("%v: got %s want %s", tc.env, got, tc.want)
		}
	}
	if l, err := ParseLang("ja_JP.UTF-8"); err != nil || l != LangJapanese {
		t.Fatalf("ParseLang ja: %v %v", l, err)
	}
	if _, err := ParseLang("fr"); !errors.Is(err, ErrUnknownLanguage) {
		t.Fatalf("ParseLang fr: %v", err)
	}
	if _, err := New(newFake(), Options{Lang: "xx"}); !errors.Is(err, ErrUnknownLanguage) {
		t.Fatalf("New with bad lang: %v", err)
	}
	if _, err := New(nil, Options{}); !errors.Is(err, ErrNoBackend) {
		t.Fatalf("New(nil): %v", err)
	}
	if _, err := New(newFake(), Options{Keys: map[string][]string{"bogus": {"x"}}}); !errors.Is(err, ErrUnknownBinding) {
		t.Fatalf("New with bad keys: %v", err)
	}
}
