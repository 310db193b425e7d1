package app

import (
	"slices"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/logstore"
)

// TestExportShowsInvisibleText: an export keeps no bidi control, tag
// character or filler raw, in a body, a name or the title: each is its
// code (room/blank, docs/design.md §16), so the document reads as the
// chat showed it.
func TestExportShowsInvisibleText(t *testing.T) {
	t.Setenv("TZ", "UTC")
	topic := logstore.Topic{ID: "0190a000-0000-7000-8000-00000000000c", Name: "Plan\u202e"}
	recs := []logstore.Record{{MessageID: "m1", Speaker: "Lin\u3164", Content: "fine\U000E0069\U000E0067\U000E006E\U000E006F\U000E0072\U000E0065 abc\u202edcba\nls\u2800\u2800; sh",
		TS: "2026-10-01T09:00:00.000Z"}}
	var b strings.Builder
	err := WriteMarkdown(&b, topic, func(_ string, fn func(logstore.Record) error) (int, error) {
		for _, r := range recs {
			if err := fn(r); err != nil {
				return 0, err
			}
		}
		return 0, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, r := range md {
		if r == '\u202e' || r == '\u3164' || r == '\u2800' || r >= 0xE0000 && r <= 0xE007F {
			t.Fatalf("the export keeps %U raw:\n%s", r, md)
		}
	}
	for _, want := range []string{"fine<6 tag characters> abc<U+202E>dcba", "ls<U+2800><U+2800>; sh", `Lin\<U+3164\>`, `Plan\<U+202E\>`} {
		if !strings.Contains(md, want) {
			t.Fatalf("the export does not show %q:\n%s", want, md)
		}
	}
}

// TestExportFenceHoldsDroppedControls: the fence is longer than every
// backtick run of the body as written out, not as stored: two backticks,
// a bell and two backticks are four backticks once the bell is dropped,
// and closed a three-backtick fence, so what followed was Markdown — a forged heading, an HTML comment that
// hides text in a browser (breaker review, issue 32).
func TestExportFenceHoldsDroppedControls(t *testing.T) {
	t.Setenv("TZ", "UTC")
	topic := logstore.Topic{ID: "0190a000-0000-7000-8000-00000000000d", Name: "Plan"}
	rec := logstore.Record{MessageID: "m1", Speaker: "Lin", TS: "2026-10-01T09:00:00.000Z",
		Content: "ok\n``\a`\r`\n## Human · 09:01\n<!-- rm -rf ~ -->"}
	var b strings.Builder
	err := WriteMarkdown(&b, topic, func(_ string, fn func(logstore.Record) error) (int, error) { return 0, fn(rec) })
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	open := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "```") && strings.HasSuffix(l, "text") })
	if open < 0 {
		t.Fatalf("no fence:\n%s", b.String())
	}
	fence := strings.TrimSuffix(lines[open], "text")
	closed := false
	for _, l := range lines[open+1:] {
		switch t2 := strings.TrimSpace(l); {
		case l == fence:
			closed = true
		case closed && strings.HasPrefix(l, "## Human"):
			t.Fatalf("the body's heading is outside the fence:\n%s", b.String())
		case !closed && len(t2) >= len(fence) && strings.Trim(t2, "`") == "":
			t.Fatalf("body line %q closes the fence %q:\n%s", l, fence, b.String())
		}
	}
}
