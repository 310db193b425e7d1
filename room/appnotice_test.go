package room

import (
	"errors"
	"slices"
	"testing"
)

// TestAppNoticeSkips: Hub.AppNotice goes through the one post path as
// Pullcept (role app, never judged, logged) and is typed into every seat
// but the skipped accounts (a usage-limit notice about a seat must not cost
// that seat a turn).
func TestAppNoticeSkips(t *testing.T) {
	log := newMemLog()
	terms := newFakeTerms("cc", "cx")
	h := newTestHub(t, log, terms, testAccounts)
	h.SetAdmin(Hello{Name: "me", AccountID: "me"})
	mustOpen(t, h, "t")
	seat(t, h, "t", "Lin", "cc")
	seat(t, h, "t", "Lay", "cx")
	p, err := h.AppNotice("t", "Lay stopped on its usage limit. (no reply needed)", "cx")
	if err != nil {
		t.Fatal(err)
	}
	if p.Role != RoleApp || p.Speaker != AppSpeaker || !p.FromApp || p.Account != "" || p.To != nil {
		t.Fatalf("notice stamped %+v", p)
	}
	seats := func(id string) []string { // the human's own account has no terminal
		all, _ := terms.typedTo(id)
		return slices.DeleteFunc(all, func(a string) bool { return a == "me" })
	}
	if all := seats(p.MessageID); !slices.Equal(all, []string{"cc"}) {
		t.Errorf("typed into %q, want only cc", all)
	}
	if !slices.Contains(log.ids("t"), p.MessageID) {
		t.Errorf("notice not logged: %q", log.ids("t"))
	}
	// "@Lin" is not a mention in a notice: the text stays as given.
	q, err := h.AppNotice("t", "for @Lin: nothing")
	if err != nil || q.Content != "for @Lin: nothing" || q.To != nil {
		t.Fatalf("notice with an @: %+v, %v", q, err)
	}
	if all := seats(q.MessageID); !slices.Equal(all, []string{"cc", "cx"}) {
		t.Errorf("an unskipped notice typed into %q, want both seats", all)
	}
	if _, err := h.AppNotice("nope", "x"); !errors.Is(err, ErrNoRoom) {
		t.Errorf("notice into no room: %v", err)
	}
	if _, err := h.AppNotice("t", "  "); !errors.Is(err, ErrEmptyPost) {
		t.Errorf("empty notice: %v", err)
	}
}
