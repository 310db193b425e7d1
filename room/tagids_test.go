package room

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestTagIDs: every tag's message id, also one glued to the end of a body
// (a CLI that sent two posts as one message); broken objects are skipped.
func TestTagIDs(t *testing.T) {
	one := Tag(Post{MessageID: "m1", Speaker: "Alice", Role: RoleAdmin}, time.UTC)
	two := Tag(Post{MessageID: "m2", Speaker: "Alice", Role: RoleAdmin}, time.UTC)
	for _, c := range []struct {
		text string
		want []string
	}{
		{one + "\nhello", []string{"m1"}},
		{one + "\nhello" + two + "\nthere", []string{"m1", "m2"}},
		{"no tag here", nil},
		{TagPrefix + "{not json\n" + two, []string{"m2"}},
		{TagPrefix + `{"message_id":""}`, nil},
		{strings.Repeat(TagPrefix+"{", 10000), nil},
	} {
		if got := TagIDs(c.text); !slices.Equal(got, c.want) {
			t.Errorf("TagIDs(%.60q) = %q, want %q", c.text, got, c.want)
		}
	}
	many := strings.Repeat(one+"\n", 100)
	if got := TagIDs(many); len(got) != maxTagIDs {
		t.Errorf("%d ids from 100 tags, want the cap %d", len(got), maxTagIDs)
	}
}

// BenchmarkTagIDsAdversarial: 1 MiB of tag prefixes with no id (a seat's
// own hook body can be that) costs a bounded number of decodes.
func BenchmarkTagIDsAdversarial(b *testing.B) {
	text := strings.Repeat(`[pullcept] {"message_id":[`, (1<<20)/26)
	b.ReportAllocs()
	for b.Loop() {
		_ = TagIDs(text)
	}
}
