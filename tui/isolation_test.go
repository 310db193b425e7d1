package tui

import (
	"strings"
	"testing"
)

// TestNotIsolatedSeatSaysSo: a seat whose processes are not separated from
// the others (docs/design.md §16) says "not isolated" on its row and why in
// its details, with what that means; an isolated seat says so in its
// details only.
func TestNotIsolatedSeatSaysSo(t *testing.T) {
	t.Parallel()
	f := usageScene()
	f.seats["t-main"][0].NotIsolated = "the kernel refused new user namespaces\x1b[31m (operation\nnot permitted)"
	for i := range f.seats["t-main"][1:] {
		f.seats["t-main"][i+1].Isolated = true
	}
	m := mainModel(t, f)
	toParticipants(t, m, "lin")
	v := plain(m)
	if n := strings.Count(v, "not isolated"); n != 2 {
		t.Fatalf("\"not isolated\" shown %d times, want twice (row and details):\n%s", n, v)
	}
	if !strings.Contains(v, "! not isolated — other seats") || !strings.Contains(v, "   can see, read and signal") ||
		!strings.Contains(v, "its processes: the kernel") || strings.Contains(m.View().Content, "\x1b[31m") {
		t.Fatalf("details lack the cleaned reason, wrapped:\n%s", v)
	}
	toParticipants(t, m, "ada")
	if v := plain(m); strings.Count(v, "not isolated") != 1 || !strings.Contains(v, "isolation own namespaces") {
		t.Fatalf("an isolated seat's details do not say it is isolated, or Lin's row lost its mark:\n%s", v)
	}
}
