package tui

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// helpEntryRead is one binding as the help shows it: its key rows joined
// and its description rows joined.
type helpEntryRead struct{ keys, desc string }

// readHelpColumns reads the help's columns back into bindings, column by
// column: a row with keys starts a binding unless the row above ended its
// keys with "/" (the list goes on); a row with only a description goes on
// with the binding above. Titles and blanks separate groups.
func readHelpColumns(e *env, l *helpLayout) [][]helpEntryRead {
	titles := map[string]bool{}
	for _, en := range e.keys.grouped() {
		titles[e.tr.t(en.group)] = true
		titles[e.tr.t(en.group)+e.tr.t(mHelpCont)] = true
	}
	var out [][]helpEntryRead
	for _, col := range l.cols {
		var got []helpEntryRead
		moreKeys := false
		for _, row := range col {
			plainRow := strings.TrimRight(ansi.Strip(row), " ")
			if plainRow == "" || titles[plainRow] {
				moreKeys = false
				continue
			}
			k := strings.TrimSpace(ansi.Cut(plainRow, 0, l.keyW))
			d := strings.TrimSpace(ansi.Cut(plainRow, l.keyW+2, l.colW))
			switch {
			case k != "" && !moreKeys:
				got = append(got, helpEntryRead{keys: k, desc: d})
			case len(got) > 0:
				last := &got[len(got)-1]
				last.keys = strings.TrimSpace(last.keys + " " + k)
				last.desc = strings.TrimSpace(last.desc + " " + d)
			default:
				got = append(got, helpEntryRead{desc: d}) // a column starting mid-entry
			}
			moreKeys = strings.HasSuffix(k, " /") // not the "/" key alone
		}
		out = append(out, got)
	}
	return out
}

// TestHelpRowsKeepKeysWithTheirWords: at every size, in both languages,
// the help reads back as exactly the key map's bindings in order, each
// whole in one column with its keys and its description — a key list that
// wraps ends its row with "/" (issue 35: at 200 columns `ctrl+j` and
// `shift+tab` stood alone on a row and read as bindings without a
// description). English descriptions start in lower case, like the rest
// (issue 35: "Go to the next thing…", "List what needs you"); the account
// editor's keys and the dialogs' answers are groups of their own (they
// were interleaved under "Editor and dialogs").
func TestHelpRowsKeepKeysWithTheirWords(t *testing.T) {
	t.Parallel()
	for _, lang := range []Lang{LangEnglish, LangJapanese} {
		e := testEnv(lang)
		want := e.keys.grouped()
		for _, size := range [][2]int{{60, 20}, {80, 24}, {120, 40}, {160, 40}, {200, 60}, {240, 30}, {300, 80}} {
			l := layoutHelp(e, size[0], size[1])
			var got []helpEntryRead
			for c, col := range readHelpColumns(e, l) {
				for _, r := range col {
					if r.keys == "" {
						t.Fatalf("%s %v: column %d starts inside a binding: %+v", lang, size, c, r)
					}
				}
				got = append(got, col...)
			}
			if len(got) != len(want) {
				t.Fatalf("%s %v: read %d bindings, the key map has %d", lang, size, len(got), len(want))
			}
			for i, en := range want {
				squeeze := func(s string) string { return strings.ReplaceAll(s, " ", "") }
				if got[i].keys != keysLabel(*en.b) || squeeze(got[i].desc) != squeeze(e.tr.t(en.help)) {
					t.Errorf("%s %v: binding %s reads %+v, want %q %q", lang, size, en.name, got[i], keysLabel(*en.b), e.tr.t(en.help))
				}
			}
		}
	}

	e := testEnv(LangEnglish)
	for _, en := range e.keys.grouped() {
		d := e.tr.t(en.help)
		if r, _ := utf8.DecodeRuneInString(d); unicode.IsUpper(r) {
			t.Errorf("%s: description %q starts with a capital", en.name, d)
		}
	}
	groups := map[string]msgKey{}
	for _, en := range e.keys.grouped() {
		groups[en.name] = en.group
	}
	for _, n := range []string{"save", "next_field", "prev_field_always", "choice_next", "delete", "preview_down"} {
		if groups[n] != mGroupEditor {
			t.Errorf("%s is not among the account editor's keys", n)
		}
	}
	for _, n := range []string{"confirm", "deny", "switch_answer", "choose_answer"} {
		if groups[n] != mGroupDialogs {
			t.Errorf("%s is not among the dialogs' answers", n)
		}
	}
}

// TestGoldenHelp: the help overlay at 80×24 and 200×60, English and
// Japanese (its first page where it scrolls).
func TestGoldenHelp(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		w, h int
		lang Lang
	}{{"80x24", 80, 24, LangEnglish}, {"80x24ja", 80, 24, LangJapanese}, {"200x60", 200, 60, LangEnglish}, {"200x60ja", 200, 60, LangJapanese}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m := sceneModel(t, scene(), tc.w, tc.h, tc.lang)
			send(t, m, press("f1"))
			golden.RequireEqual(t, m.View().Content)
		})
	}
}
