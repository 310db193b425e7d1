package room

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestHelloNamesAreChecked: a hello whose name, full name, account or room
// carries a control or bidi character, invalid UTF-8 or too many
// characters is refused, naming the field; nothing joins the roster.
// (A newline in a name drew over the topic list; U+202E reversed it.)
func TestHelloNamesAreChecked(t *testing.T) {
	t.Parallel()
	h := newTestHub(t, nil, nil, testAccounts)
	mustOpen(t, h, "t")
	for _, hl := range []Hello{
		{Name: "Li\nn", Room: "t", AccountID: "cc"},
		{Name: "Lin\x1b[2J", Room: "t", AccountID: "cc"},
		{Name: "\u202enil", Room: "t", AccountID: "cc"},
		{Name: "Lin", FullName: "Lin\u2028Two", Room: "t", AccountID: "cc"},
		{Name: "Lin\xff", Room: "t", AccountID: "cc"},
		{Name: strings.Repeat("名", maxNameRunes+1), Room: "t", AccountID: "cc"},
		{Name: "Lin", Room: "t", AccountID: "cc\x00"},
		{Name: "Lin", Room: "t" + strings.Repeat("x", maxIDBytes), AccountID: "cc"},
	} {
		hl.Protocol = Protocol
		c := h.Connect()
		err := c.Hello(hl)
		c.Close()
		if !errors.Is(err, ErrBadHello) || !errors.Is(err, ErrBadName) {
			t.Errorf("hello %+q: %v, want ErrBadHello/ErrBadName", hl.Name+"|"+hl.FullName+"|"+hl.AccountID, err)
		}
	}
	if r, _ := h.Roster("t"); len(r) != 0 {
		t.Fatalf("a refused hello joined: %+v", r)
	}
	// Ordinary names pass: Japanese, emoji, spaces inside.
	seat(t, h, "t", "リン 🐈", "cc")
}

// TestHelloCannotTakeTheHumansName: a socket naming itself as the human
// (any case) or as Pullcept's notices is refused: its posts would be
// drawn under a name the human trusts (breaker review).
func TestHelloCannotTakeTheHumansName(t *testing.T) {
	t.Parallel()
	h := newTestHub(t, nil, nil, testAccounts)
	h.SetAdmin(Hello{Name: "Master", AccountID: "me"})
	mustOpen(t, h, "t")
	for _, name := range []string{"Master", " master ", "PULLCEPT", "Pullcept"} {
		c := h.Connect()
		err := c.Hello(Hello{Protocol: Protocol, Name: name, Room: "t", AccountID: "cc"})
		c.Close()
		if !errors.Is(err, ErrBadHello) {
			t.Errorf("hello named %q: %v, want ErrBadHello", name, err)
		}
	}
	seat(t, h, "t", "Masterful", "cc")
}

// TestToIsBounded: a post naming more than maxTo addressees is refused at
// once, before the room lock (a 90 000-name list froze every room for
// 37 s); a `to` name with a control character is refused; the post is not
// delivered.
func TestToIsBounded(t *testing.T) {
	t.Parallel()
	h := newTestHub(t, nil, nil, testAccounts)
	mustOpen(t, h, "t")
	c := seat(t, h, "t", "Lin", "cc")
	huge := make([]string, 90000)
	for i := range huge {
		huge[i] = "name" + strings.Repeat("x", i%7)
	}
	start := time.Now()
	if _, err := c.Post(Draft{Content: "hi", To: huge}); !errors.Is(err, ErrTooManyAddressees) {
		t.Fatalf("90 000 addressees: %v", err)
	}
	t.Logf("refused 90 000 addressees in %v", time.Since(start))
	if _, err := c.Post(Draft{Content: "hi", To: []string{"Ada\nBob"}}); !errors.Is(err, ErrBadName) {
		t.Fatalf("a `to` name with a newline: %v", err)
	}
	// 64 names of 64 four-byte characters passed each name's check and
	// held 279 MiB in a room's remembered ids (breaker review).
	wide := make([]string, maxTo)
	for i := range wide {
		wide[i] = strings.Repeat("😀", maxNameRunes-1) + string(rune('a'+i%26))
	}
	if _, err := c.Post(Draft{Content: "hi", To: wide}); !errors.Is(err, ErrTooManyAddressees) || !strings.Contains(err.Error(), "bytes") {
		t.Fatalf("%d names of %d bytes: %v", maxTo, len(wide[0]), err)
	}
	res, err := c.Post(Draft{Content: "hi", To: make([]string, maxTo)})
	if err != nil || !res.Delivered {
		t.Fatalf("%d (empty) addressees: %+v, %v", maxTo, res, err)
	}
}

// TestRecentIDsBoundAddressees: what a room remembers per delivered id
// for retries keeps a long `to` list out (a retry's answer is read for the
// id and "delivered"), so 16 384 remembered posts stay near 20 MiB
// whatever they were addressed to; a post to a few seats keeps them.
func TestRecentIDsBoundAddressees(t *testing.T) {
	t.Parallel()
	var ids recentIDs
	few, many := []string{"Lin", "Kai"}, make([]string, maxTo)
	ids.add(Post{MessageID: "m1", Content: "hi", To: few}, 7, "hi")
	ids.add(Post{MessageID: "m2", Content: "hi", To: many}, 7, "hi")
	if p, retry, err := ids.check("m1", 7, "hi"); err != nil || !retry || len(p.To) != 2 {
		t.Fatalf("retry answer for a post to two: %+v %v %v", p, retry, err)
	}
	if p, retry, err := ids.check("m2", 7, "hi"); err != nil || !retry || p.To != nil {
		t.Fatalf("retry answer for a post to %d: %+v %v %v", maxTo, p.To, retry, err)
	}
}

// TestRenamesAreRateLimited: a connection renaming in a flood gets a burst
// of renames, then refusals; the roster keeps the last accepted name (a
// flood of renames slowed the human's keystroke echo to 8 s).
func TestRenamesAreRateLimited(t *testing.T) {
	t.Parallel()
	h := newTestHub(t, nil, nil, testAccounts)
	mustOpen(t, h, "t")
	c := seat(t, h, "t", "Lin", "cc")
	accepted := 0
	for i := range 50 {
		err := c.Hello(Hello{Protocol: Protocol, Name: fmt.Sprint("Lin", i), Room: "t", AccountID: "cc"})
		switch {
		case err == nil:
			accepted++
		case !errors.Is(err, ErrBadHello) || !strings.Contains(err.Error(), "renamed too often"):
			t.Fatalf("rename %d: %v", i, err)
		}
	}
	if accepted < renameBurst || accepted > renameBurst+2 {
		t.Fatalf("%d of 50 renames accepted in a flood, want about %d", accepted, renameBurst)
	}
	if r, _ := h.Roster("t"); len(r) != 1 || r[0].Name == "Lin49" {
		t.Fatalf("roster after the flood: %+v", r)
	}
}
