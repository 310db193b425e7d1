package attention

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestAddReplacesTheSameThing(t *testing.T) {
	l := New(nil)
	a := l.Add(Item{Kind: Exited, Topic: "t", Account: "ada", Detail: "exit 3"})
	b := l.Add(Item{Kind: Exited, Topic: "t", Account: "ada", Detail: "exit 4"})
	l.Add(Item{Kind: Exited, Topic: "t", Account: "bob"})
	items, _ := l.Items()
	if len(items) != 2 || items[0].ID != b.ID || items[0].Detail != "exit 4" || b.ID <= a.ID {
		t.Fatalf("items = %+v", items)
	}
}

func TestSeenDropsItemsButMarksCards(t *testing.T) {
	l := New(nil)
	card := l.Add(Item{Kind: Card, Topic: "t", Account: "ada", Ref: "7"})
	post := l.Add(Item{Kind: Addressed, Topic: "t", Ref: "m1"})
	l.Seen([]uint64{card.ID, post.ID})
	items, _ := l.Items()
	if len(items) != 1 || items[0].ID != card.ID || !items[0].Seen {
		t.Fatalf("items = %+v", items)
	}
	if n := l.Remove(func(it Item) bool { return it.Kind == Card && it.Ref == "7" }); n != 1 {
		t.Fatalf("removed %d", n)
	}
}

func TestBoundKeepsCardsAndCountsDrops(t *testing.T) {
	l := New(nil)
	card := l.Add(Item{Kind: Card, Topic: "t", Ref: "1"})
	for i := range MaxItems + 50 {
		l.Add(Item{Kind: Addressed, Topic: "t", Ref: fmt.Sprint(i), Detail: strings.Repeat("é", 400)})
	}
	items, dropped := l.Items()
	if len(items) != MaxItems || dropped != 51 || items[0].ID != card.ID {
		t.Fatalf("len %d dropped %d first %+v", len(items), dropped, items[0].Kind)
	}
	if d := items[1].Detail; len(d) > maxDetail+len("…") || !strings.HasSuffix(d, "…") {
		t.Fatalf("detail not cut: %d bytes", len(d))
	}
}

func TestWaitChangeWakes(t *testing.T) {
	l := New(func() time.Time { return time.Unix(1, 0) })
	done := make(chan struct{})
	got := make(chan uint64, 1)
	go func() {
		gen, _ := l.WaitChange(done, 0)
		got <- gen
	}()
	l.Add(Item{Kind: Braked, Topic: "t"})
	select {
	case g := <-got:
		if g == 0 {
			t.Fatal("generation 0")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no wake")
	}
	l.Close()
	if _, ok := l.WaitChange(done, 99); ok {
		t.Fatal("wait after Close")
	}
}

// TestBoundDropsTheFloodersItems: one seat addressing the human a thousand
// times must not push another seat's items out of the list (they never
// rang, nor showed): past the bound the seat holding the most items loses
// its oldest.
func TestBoundDropsTheFloodersItems(t *testing.T) {
	l := New(nil)
	lay := l.Add(Item{Kind: CardTimedOut, Topic: "t", Account: "lay", Ref: "7", Detail: "Bash"})
	brake := l.Add(Item{Kind: Braked, Topic: "t2", Count: 12})
	lin := l.Add(Item{Kind: Addressed, Topic: "t", Account: "lin", Ref: "m0"})
	for i := range 5 * MaxItems {
		l.Add(Item{Kind: Addressed, Topic: "t", Account: "bad", Ref: fmt.Sprint(i)})
	}
	items, dropped := l.Items()
	if len(items) != MaxItems || dropped != 5*MaxItems+3-MaxItems {
		t.Fatalf("len %d dropped %d", len(items), dropped)
	}
	for _, want := range []Item{lay, brake, lin} {
		if !slices.ContainsFunc(items, func(it Item) bool { return it.ID == want.ID }) {
			t.Errorf("the flood dropped %+v", want)
		}
	}
	// The flooder keeps its newest.
	if last := items[len(items)-1]; last.Account != "bad" || last.Ref != fmt.Sprint(5*MaxItems-1) {
		t.Errorf("last item %+v", last)
	}
}
