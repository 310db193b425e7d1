package tui

import (
	"strings"
	"testing"
)

// TestNotIsolatedSeatSaysSo: a seat whose processes are not separated from
// the others (docs/design.md §16) says "not isolated" on its row and why in
// its details; an isolated seat says nothing of it.
func TestNotIsolatedSeatSaysSo(t *testing.T) {
	t.Parallel()
	f := usageScene()
	f.seats["t-main"][0].NotIsolated = "the kernel refused new user namespaces\x1b[31m (operation\nnot permitted)"
	m := mainModel(t, f)
	toParticipants(t, m, "lin")
	v := plain(m)
	if n := strings.Count(v, "not isolated"); n != 2 {
		t.Fatalf("\"not isolated\" shown %d times, want twice (row and details):\n%s", n, v)
	}
	if !strings.Contains(v, "! not isolated: the kernel") || !strings.Contains(v, "   refused new user") || strings.Contains(m.View().Content, "\x1b[31m") {
		t.Fatalf("details lack the cleaned reason, wrapped:\n%s", v)
	}
	toParticipants(t, m, "ada")
	if v := plain(m); strings.Count(v, "not isolated") != 1 {
		t.Fatalf("an isolated seat's details speak of isolation, or Lin's row lost it:\n%s", v)
	}
}
