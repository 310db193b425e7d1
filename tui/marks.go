package tui

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/clipperhouse/displaywidth"
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Initials marks (docs/design.md §10 "Avatars"; spec «会話面の見た目（#225）»,
// #236, #253): the short mark before a name in the chat and the panel. The
// spec puts a name's first letter in a circle and admits that Claude Lay
// and Claude Lin are then both "C"; here no two participants share a mark.
// A mark is made of whole grapheme clusters of the name (a Japanese
// character, an emoji with its joiners: never a byte or a rune of one) and
// takes at most markMaxW cells as the UI measures them.

// markMaxW is the most cells a mark's letters take: two wide characters, or
// four narrow ones.
const markMaxW = 4

// markNameMax is how many grapheme clusters of a name are read: a name is at
// most 64 characters (config.MaxNameRunes), a speaker's name from a log is
// not bounded by us, and a mark never needs more.
const markNameMax = 64

// markWho is one participant to mark: key tells it apart (markAccountKey,
// markNameKey), name is what its mark is made of.
type markWho struct{ key, name string }

// markAccountKey is the key of a configured account: its posts and its
// panel row share a mark whatever name they were said under.
func markAccountKey(id string) string { return "a\x00" + id }

// markNameKey is the key of a speaker without a configured account (a
// guest, a name only in the log): its name is all it has.
func markNameKey(name string) string { return "n\x00" + name }

// participantMarks gives every participant a mark: the accounts first,
// from the accounts alone, so a guest joining or an older page of the log
// never moves an account's mark; then the others, against the accounts'
// names and marks ("Claude Lix" beside the account "Claude Lin", "CL",
// is "CLix"; one named as an account is numbered, "CL2"). The same
// participants give the same marks, in whatever order.
func participantMarks(accounts, others []markWho) map[string]string {
	out := initialMarks(accounts, nil)
	held := markHeld{marks: make(map[string]bool, len(out))}
	for _, m := range out {
		held.marks[foldMark(m)] = true
	}
	fold := cases.Fold()
	for _, a := range accounts {
		n := parseMarkName(a, fold)
		n.held = true
		held.names = append(held.names, n)
	}
	for k, m := range initialMarks(others, &held) {
		if _, ok := out[k]; !ok {
			out[k] = m
		}
	}
	return out
}

// markHeld is what others hold already: their marks, folded, and their
// names, which a new name's mark must tell it from.
type markHeld struct {
	marks map[string]bool
	names []*markName
}

// markName is a name cut into what its mark is made of.
type markName struct {
	who   markWho
	fold  string   // base and rest folded: how names compare
	base  []string // the initials: the first cluster of the first word, and of the second
	rest  []string // the name's other clusters, in the order they extend the mark; "" ends a word
	restF []string // rest, each folded
	held  bool     // another's, which has its mark already (markHeld)
	dup   bool     // its letters are another's: it is numbered
}

// initialMarks gives each of who (by key; the first of a key kept) a mark
// whose folded form is in no other's and not held (nil: nothing is).
// Initials first ("Claude Lay" → "CL"); where names share them, each takes
// what tells it from the rest at the first cluster where they differ: the
// clusters up to it where they fit ("Lin", "Lix" → "Lin", "Lix"), else that
// cluster alone ("Claude Lay", "Claude Lin" → "CLa", "CLi"; "山田太郎",
// "山田花子" → "山太", "山花"). A name that is all of another's start keeps
// the shorter mark ("Claude Lay" → "CL" beside "Claude Layton" → "CLt"),
// and what still collides or would be too wide is numbered ("C", "C2").
// Only a set of more marks than four cells can number (over a million)
// leaves one without a mark ("").
func initialMarks(who []markWho, held *markHeld) map[string]string {
	if held == nil {
		held = &markHeld{}
	}
	fold := cases.Fold()
	names := make([]*markName, 0, len(who))
	seen := map[string]bool{}
	for _, w := range who {
		if !seen[w.key] {
			seen[w.key] = true
			names = append(names, parseMarkName(w, fold))
		}
	}
	byName := func(a, b *markName) int {
		return cmp.Or(cmp.Compare(a.fold, b.fold), cmp.Compare(a.who.name, b.who.name), cmp.Compare(a.who.key, b.who.key))
	}
	slices.SortFunc(names, byName)
	groups := map[string][]*markName{}
	var bases []string
	for _, n := range names {
		b := foldMark(strings.Join(n.base, ""))
		if groups[b] == nil {
			bases = append(bases, b)
		}
		groups[b] = append(groups[b], n)
	}
	for _, h := range held.names {
		if b := foldMark(strings.Join(h.base, "")); groups[b] != nil {
			groups[b] = append(groups[b], h) // to be told apart from, not marked again
		}
	}
	want := map[string]string{}
	for _, b := range bases {
		g := groups[b]
		slices.SortFunc(g, byName)
		resolveMarks(strings.Join(g[0].base, ""), g, 0, want)
	}
	return assignMarks(names, want, held.marks)
}

// resolveMarks gives the names of group, whose clusters agree before pos and
// whose marks start with prefix, the marks that tell them apart (want, by
// key): at the first cluster where they differ, each takes the clusters
// since pos and its own when all of those fit and lie in one word, else its
// own alone; the one whose word or name ends there keeps the shorter mark
// and goes on (a name that is another's start: "Claude Lay", "CL", beside
// "Claude Layton", "CLt"); those whose letters are all the same are
// duplicates but for one, a held name if there is one.
func resolveMarks(prefix string, group []*markName, pos int, want map[string]string) {
	if len(group) == 1 {
		want[group[0].who.key] = prefix
		return
	}
	k, ok := firstDifference(group, pos)
	if !ok {
		keep := max(slices.IndexFunc(group, func(n *markName) bool { return n.held }), 0)
		want[group[keep].who.key] = prefix
		for i, n := range group {
			n.dup = i != keep
		}
		return
	}
	parts := map[string][]*markName{}
	var order []string
	for _, n := range group {
		v := clusterAt(n, k)
		if parts[v] == nil {
			order = append(order, v)
		}
		parts[v] = append(parts[v], n)
	}
	run := make([]string, 0, k-pos)
	for i := pos; i < k; i++ {
		run = append(run, clusterAt(group[0], i))
	}
	if !slices.Contains(run, "") {
		// The clusters they share since pos, where every mark still fits.
		for i := range run {
			run[i] = group[0].rest[pos+i]
		}
		joined := prefix + strings.Join(run, "")
		fits := true
		for _, v := range order {
			if v != "" && ansi.StringWidth(joined+parts[v][0].rest[k]) > markMaxW {
				fits = false
			}
		}
		if fits {
			prefix = joined
		}
	}
	for _, v := range order {
		part := parts[v]
		if v == "" {
			resolveMarks(prefix, part, k+1, want) // a word ended at k
			continue
		}
		next := prefix + part[0].rest[k]
		if ansi.StringWidth(next) > markMaxW {
			continue // too wide: numbered (assignMarks)
		}
		resolveMarks(next, part, k+1, want)
	}
}

// firstDifference is the first position from pos where the folded clusters
// of group are not all the same (a word's end, or the name's, counts as
// ""); ok is false when there is none: the names' letters are the same.
func firstDifference(group []*markName, pos int) (int, bool) {
	longest := 0
	for _, n := range group {
		longest = max(longest, len(n.restF))
	}
	for k := pos; k < longest; k++ {
		for _, n := range group[1:] {
			if clusterAt(n, k) != clusterAt(group[0], k) {
				return k, true
			}
		}
	}
	return 0, false
}

func clusterAt(n *markName, k int) string {
	if k < len(n.restF) {
		return n.restF[k]
	}
	return ""
}

// assignMarks hands out the marks: the narrowest wanted first, each the
// first of its candidates that nobody holds (marks compare folded).
func assignMarks(names []*markName, want map[string]string, taken map[string]bool) map[string]string {
	held := make(map[string]bool, len(taken)+len(names))
	for m := range taken {
		held[m] = true
	}
	order := slices.Clone(names)
	width := func(n *markName) int {
		if m, ok := want[n.who.key]; ok {
			return ansi.StringWidth(m)
		}
		return markMaxW + 1
	}
	slices.SortStableFunc(order, func(a, b *markName) int { return cmp.Compare(width(a), width(b)) })
	next := map[string]int{} // a numbered mark's head → the number to try next
	out := make(map[string]string, len(names))
	for _, n := range order {
		m := ""
		if w, ok := want[n.who.key]; ok && !held[foldMark(w)] {
			m = w
		}
		if m == "" && !n.dup {
			m = extendedMark(n, held)
		}
		if base := strings.Join(n.base, ""); m == "" && !n.dup && !held[foldMark(base)] {
			m = base // the clusters that would tell it apart are too wide
		}
		if m == "" {
			m = numberedMark(n.base, held, next)
		}
		if m != "" {
			held[foldMark(m)] = true
			out[n.who.key] = m
		}
	}
	return out
}

// extendedMark is the initials and one more cluster of the name, the first
// such that is free ("La" when another holds "L"); "" when none is.
func extendedMark(n *markName, held map[string]bool) string {
	base := strings.Join(n.base, "")
	for _, c := range n.rest {
		if c == "" {
			continue
		}
		if m := base + c; ansi.StringWidth(m) <= markMaxW && !held[foldMark(m)] {
			return m
		}
	}
	return ""
}

// numberedMark is the initials and the first free number ("CL2", "C2"
// where "CL2" would be too wide), or, past what fits beside them, a free
// number alone in base 36 ("1" … "ZZZZ"); "" when none is left.
func numberedMark(base []string, held map[string]bool, next map[string]int) string {
	for _, head := range []string{strings.Join(base, ""), base[0]} {
		for n := max(next[head], 2); ; n++ {
			m := head + strconv.Itoa(n)
			if ansi.StringWidth(m) > markMaxW {
				next[head] = n // head is used up
				break
			}
			if !held[foldMark(m)] {
				next[head] = n + 1
				return m
			}
		}
	}
	for n := max(next[""], 1); ; n++ {
		m := strings.ToUpper(strconv.FormatInt(int64(n), 36))
		if len(m) > markMaxW {
			next[""] = n
			return ""
		}
		if !held[foldMark(m)] {
			next[""] = n + 1
			return m
		}
	}
}

// foldMark is how marks compare: "CL" and "cl" are one mark.
func foldMark(m string) string {
	for i := 0; i < len(m); i++ {
		if m[i] >= utf8.RuneSelf {
			return cases.Fold().String(m)
		}
	}
	return strings.ToLower(m)
}

// parseMarkName cuts who's name into its words' clusters: a word is a run
// of clusters that start with a letter, a digit or a symbol such as an
// emoji; anything else (spaces, punctuation, what draws nothing or more
// than two cells) parts words, and a capital after a small letter starts a
// new one ("ClaudeLay" → "CL"). A name without a word is "?".
func parseMarkName(who markWho, fold cases.Caser) *markName {
	var words [][]string
	inWord, lowerBefore := false, false
	g := displaywidth.StringGraphemes(norm.NFC.String(oneLine(who.name)))
	for i := 0; i < markNameMax && g.Next(); i++ {
		c := g.Value()
		r, _ := utf8.DecodeRuneInString(c)
		w := ansi.StringWidth(c)
		if w < 1 || w > 2 || !(unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.So, r)) {
			inWord, lowerBefore = false, false
			continue
		}
		if !inWord || lowerBefore && unicode.IsUpper(r) {
			words = append(words, nil)
		}
		words[len(words)-1] = append(words[len(words)-1], c)
		inWord, lowerBefore = true, unicode.IsLower(r)
	}
	n := &markName{who: who}
	switch len(words) {
	case 0:
		n.base = []string{"?"}
	case 1:
		n.base = []string{upperCluster(words[0][0])}
		n.rest = words[0][1:]
	default:
		// After the initials: the rest of the second word, the words after
		// it, then the rest of the first ("Claude Lay" → "CL", then a, y).
		n.base = []string{upperCluster(words[0][0]), upperCluster(words[1][0])}
		n.rest = words[1][1:]
		for _, w := range words[2:] {
			n.rest = append(append(n.rest, ""), w...)
		}
		n.rest = append(append(n.rest, ""), words[0][1:]...)
	}
	n.restF = make([]string, len(n.rest))
	for i, c := range n.rest {
		n.restF[i] = fold.String(c)
	}
	n.fold = fold.String(strings.Join(n.base, "")) + "\x00" + strings.Join(n.restF, "\x00")
	return n
}

// upperCluster is c as a capital when it has one of the same width ("l" →
// "L"; "ß" and "山" stay).
func upperCluster(c string) string {
	if u := strings.ToUpper(c); ansi.StringWidth(u) == ansi.StringWidth(c) && utf8.RuneCountInString(u) == utf8.RuneCountInString(c) {
		return u
	}
	return c
}
