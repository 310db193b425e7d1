package logstore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// searchStore has topic "a" (3 posts) and topic "b" (written last).
func searchStore(t *testing.T) *Store {
	t.Helper()
	s, _ := openStore(t)
	for i, c := range []string{"first QUUX here", "plain", "a \"quoted\" word and 日本語の検索"} {
		if err := s.Append("a", post(fmt.Sprintf("a%d", i), c)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Append("b", post("b0", "quux in b\nsecond line")); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSearchFindsPostsInEveryTopic(t *testing.T) {
	s := searchStore(t)
	for _, c := range []struct {
		q    string
		want []string // topic/message_id
	}{
		{"quux", []string{"b/b0", "a/a0"}}, // smart case: lower case ignores case
		{"QUUX", []string{"a/a0"}},         // a capital counts
		{"Quux", nil},
		{"検索", []string{"a/a2"}},
		{`"quoted"`, []string{"a/a2"}}, // JSON-escaped in the file
		{"in b\nsecond", []string{"b/b0"}},
		{"nowhere", nil},
		{"  ", nil},
	} {
		hits, more, err := s.Search(context.Background(), c.q, 10)
		if err != nil || more {
			t.Fatalf("%q: more %v, err %v", c.q, more, err)
		}
		var got []string
		for _, h := range hits {
			got = append(got, h.Topic+"/"+h.Record.MessageID)
			if m := h.Record.Content[h.Start:h.End]; !strings.EqualFold(m, c.q) {
				t.Errorf("%q: match %q", c.q, m)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%q: hits %v, want %v", c.q, got, c.want)
		}
	}
	// Where a hit sits: the post after it and how many follow.
	hits, _, _ := s.Search(context.Background(), "first", 10)
	if len(hits) != 1 || hits[0].Next != "a1" || hits[0].After != 2 {
		t.Fatalf("hit %+v", hits)
	}
}

func TestSearchIsBoundedAndCancellable(t *testing.T) {
	s, _ := openStore(t)
	for i := range 600 {
		if err := s.Append("many", post(fmt.Sprintf("m%d", i), fmt.Sprintf("word %d", i))); err != nil {
			t.Fatal(err)
		}
	}
	hits, more, err := s.Search(context.Background(), "word", 200)
	if err != nil || !more || len(hits) != 200 || hits[0].Record.MessageID != "m599" {
		t.Fatalf("%d hits, more %v, err %v", len(hits), more, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := s.Search(ctx, "word", 200); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled search returned %v", err)
	}
}

// countingCtx counts its looks at Err.
type countingCtx struct {
	context.Context
	looks int
}

func (c *countingCtx) Err() error { c.looks++; return c.Context.Err() }

// A cancelled search stops within a MiB of posts, not only every 256
// lines: posts may be 1 MiB each, and a finder keystroke cancels the last
// search (a seat's big posts kept each one reading for seconds).
func TestSearchLooksAtCancelByBytes(t *testing.T) {
	s, _ := openStore(t)
	body := strings.Repeat("x", 300<<10)
	for i := range 40 {
		if err := s.Append("big", post(fmt.Sprintf("m%d", i), body)); err != nil {
			t.Fatal(err)
		}
	}
	ctx := &countingCtx{Context: context.Background()}
	if _, _, err := s.Search(ctx, "zzz", 200); err != nil {
		t.Fatal(err)
	}
	if ctx.looks < 10 { // 12 MB read: a look at least every MiB
		t.Fatalf("%d looks at the context over 12 MB of posts", ctx.looks)
	}
}
