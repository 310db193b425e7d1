package tui

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"

	"github.com/charmbracelet/x/ansi"
)

// whoOf makes one participant a name, keyed by itself.
func whoOf(names ...string) []markWho {
	out := make([]markWho, len(names))
	for i, n := range names {
		out[i] = markWho{key: markNameKey(n), name: n}
	}
	return out
}

// TestInitialMarks: the marks of sets of names, the spec's own two Cs
// among them: initials, the cluster that tells names apart where they
// share them, a name that is another's start, Japanese (one wide
// character is two cells), emoji and combining marks as whole clusters,
// duplicates numbered.
func TestInitialMarks(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		who   []markWho
		want  map[string]string // name → mark
		taken []string
	}{
		{"one word, two words", whoOf("Lin", "Claude Code"), map[string]string{"Lin": "L", "Claude Code": "CC"}, nil},
		{"the spec's two Cs", whoOf("Claude Lay", "Claude Lin"), map[string]string{"Claude Lay": "CLa", "Claude Lin": "CLi"}, nil},
		{"first letters", whoOf("Lin", "Lay", "Ada"), map[string]string{"Lin": "Li", "Lay": "La", "Ada": "A"}, nil},
		{"a shared start that fits", whoOf("Lin", "Lix", "Layla", "Lay"),
			map[string]string{"Lin": "Lin", "Lix": "Lix", "Layla": "Layl", "Lay": "Lay"}, nil},
		{"a name is another's start", whoOf("Claude Lay", "Claude Layton"), map[string]string{"Claude Lay": "CL", "Claude Layton": "CLt"}, nil},
		{"three alike", whoOf("Claude Lay", "Claude Lin", "Claude Liz"),
			map[string]string{"Claude Lay": "CLa", "Claude Lin": "CLin", "Claude Liz": "CLiz"}, nil},
		{"case and separators", whoOf("claude-code", "codex_cli", "ClaudeLay"),
			map[string]string{"claude-code": "CCo", "codex_cli": "CCl", "ClaudeLay": "CL"}, nil},
		{"Japanese", whoOf("マスター", "山田太郎", "山田花子", "Lin"),
			map[string]string{"マスター": "マ", "山田太郎": "山太", "山田花子": "山花", "Lin": "L"}, nil},
		{"Japanese too wide to extend", whoOf("山田 太郎", "山田 太一"), map[string]string{"山田 太一": "山太", "山田 太郎": "山2"}, nil},
		{"emoji and joiners whole", whoOf("👩‍💻 Dev", "🤖"), map[string]string{"👩‍💻 Dev": "👩‍💻D", "🤖": "🤖"}, nil},
		{"combining marks whole", whoOf("e\u0301mile", "emma"), map[string]string{"e\u0301mile": "\u00c9", "emma": "E"}, nil},
		{"no word", whoOf("!!!", "---"), map[string]string{"!!!": "?", "---": "?2"}, nil},
		{"held by an account", whoOf("Lay"), map[string]string{"Lay": "La"}, []string{"l"}},
		{"held, numbered", whoOf("L"), map[string]string{"L": "L2"}, []string{"l"}},
		{"identical letters", whoOf("Claude Lay", "claude-lay"), map[string]string{"Claude Lay": "CL", "claude-lay": "CL2"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			held := &markHeld{marks: map[string]bool{}}
			for _, m := range tc.taken {
				held.marks[m] = true
			}
			got := initialMarks(tc.who, held)
			named := map[string]string{}
			for _, w := range tc.who {
				named[w.name] = got[w.key]
			}
			if !maps.Equal(named, tc.want) {
				t.Fatalf("marks %q, want %q", named, tc.want)
			}
		})
	}
}

// TestInitialMarksSameName: accounts under one name (a file may hold
// them) still have a mark each, numbered in the order of the names as
// written, then of their ids, whichever order they come in.
func TestInitialMarksSameName(t *testing.T) {
	t.Parallel()
	a := []markWho{{markAccountKey("b"), "Claude"}, {markAccountKey("a"), "claude"}, {markAccountKey("c"), "Claude"}}
	got := initialMarks(a, nil)
	want := map[string]string{markAccountKey("b"): "C", markAccountKey("c"): "C2", markAccountKey("a"): "C3"}
	if !maps.Equal(got, want) {
		t.Fatalf("marks %q, want %q", got, want)
	}
	if again := initialMarks([]markWho{a[2], a[0], a[1]}, nil); !maps.Equal(again, want) {
		t.Fatalf("in another order %q, want %q", again, want)
	}
}

// TestParticipantMarksAccountsFirst: a guest or a name from the log never
// moves an account's mark; it takes one the accounts left.
func TestParticipantMarksAccountsFirst(t *testing.T) {
	t.Parallel()
	accounts := []markWho{{markAccountKey("lin"), "Lin"}, {markAccountKey("ada"), "Ada"}}
	alone := participantMarks(accounts, nil)
	with := participantMarks(accounts, whoOf("Lay", "Ada", "webhook"))
	for _, k := range []string{markAccountKey("lin"), markAccountKey("ada")} {
		if alone[k] != with[k] {
			t.Errorf("%q: %q alone, %q with the others", k, alone[k], with[k])
		}
	}
	want := map[string]string{markAccountKey("lin"): "L", markAccountKey("ada"): "A",
		markNameKey("Lay"): "La", markNameKey("Ada"): "A2", markNameKey("webhook"): "W"}
	if !maps.Equal(with, want) {
		t.Fatalf("marks %q, want %q", with, want)
	}
	// Told apart from the account's name, not just its mark.
	claudes := participantMarks([]markWho{{markAccountKey("lin"), "Claude Lin"}}, whoOf("Claude Lix", "Claude Lin"))
	want = map[string]string{markAccountKey("lin"): "CL", markNameKey("Claude Lix"): "CLix", markNameKey("Claude Lin"): "CL2"}
	if !maps.Equal(claudes, want) {
		t.Fatalf("marks %q, want %q", claudes, want)
	}
}

// checkMarks fails unless every participant has a mark of 1 to markMaxW
// cells, drawn as it is (nothing a terminal obeys or hides), no two alike
// in any case.
func checkMarks(t *testing.T, who []markWho, marks map[string]string) {
	t.Helper()
	seen := map[string]string{}
	for _, w := range who {
		m, ok := marks[w.key]
		if !ok {
			t.Fatalf("%q has no mark: %q", w.name, marks)
		}
		if cw := ansi.StringWidth(m); cw < 1 || cw > markMaxW {
			t.Fatalf("%q: mark %q is %d cells", w.name, m, cw)
		}
		if oneLine(m) != m || strings.ContainsFunc(m, unicode.IsSpace) {
			t.Fatalf("%q: mark %q is not drawn as it is", w.name, m)
		}
		f := foldMark(m)
		if other, ok := seen[f]; ok && other != w.key {
			t.Fatalf("%q and %q share %q", w.key, other, m)
		}
		seen[f] = w.key
	}
}

// TestInitialMarksProperties: for random sets of names drawn from a few
// letters, Japanese, emoji, combining marks and separators (so many share
// initials), every participant's mark is unique and within the bound, and
// the same set gives the same marks in any order.
func TestInitialMarksProperties(t *testing.T) {
	t.Parallel()
	pieces := []string{"C", "c", "L", "l", "a", "i", "y", " ", "-", "山", "田", "太", "👩‍💻", "e\u0301", "🇯🇵", "1", "ß", "\u200b", "\x1b"}
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 400 {
		var who []markWho
		for i := range 1 + rng.IntN(40) {
			var b strings.Builder
			for range rng.IntN(8) {
				b.WriteString(pieces[rng.IntN(len(pieces))])
			}
			who = append(who, markWho{key: fmt.Sprint(i), name: b.String()})
		}
		got := initialMarks(who, nil)
		checkMarks(t, who, got)
		shuffled := append([]markWho(nil), who...)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		if again := initialMarks(shuffled, nil); !maps.Equal(got, again) {
			t.Fatalf("round %d: the order changed the marks:\n%q\n%q", round, got, again)
		}
	}
}

// TestInitialMarksMany: a thousand participants of one name (as many
// speakers as the chat holds) still have a thousand marks.
func TestInitialMarksMany(t *testing.T) {
	t.Parallel()
	var who []markWho
	for i := range 1000 {
		who = append(who, markWho{key: fmt.Sprint(i), name: "Claude"})
	}
	checkMarks(t, who, initialMarks(who, nil))
}

// FuzzInitialMarks: whatever names a log holds (one a line), every
// participant has a unique mark of 1 to markMaxW cells.
func FuzzInitialMarks(f *testing.F) {
	for _, s := range []string{"Claude Lay\nClaude Lin", "Lin\nLay\nLin", "山田太郎\n山田花子\nマスター", "👩‍💻 Dev\n\x1b[31m\n\u202e", "e\u0301\nE"} {
		f.Add(s, "Claude")
	}
	f.Fuzz(func(t *testing.T, names, account string) {
		others := whoOf(strings.Split(names, "\n")...)
		accounts := []markWho{{markAccountKey("x"), account}}
		got := participantMarks(accounts, others)
		checkMarks(t, append(accounts, others...), got)
	})
}
