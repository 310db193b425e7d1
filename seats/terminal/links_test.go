package terminal

import (
	"strings"
	"testing"
)

// TestLinksReachingTheHuman: a seat's http(s) link is drawn as a link; a
// file: or custom-scheme link, one whose URL holds U+009C or a space, or
// whose parameters hold other bytes, is dropped — its text stays.
func TestLinksReachingTheHuman(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, params, url string
		kept              bool
	}{
		{"https", "", "https://example.com/a?b=c", true},
		{"http with id", "id=x-1", "http://example.com/", true},
		{"file", "", "file:///etc/passwd", false},
		{"custom scheme", "", "vscode://open?x", false},
		{"ST inside", "", "https://e.example/\u009c\x1b[2J", false},
		{"space", "", "https://e.example/a b", false},
		{"odd params", "id=\u009c", "https://e.example/", false},
		{"too long", "", "https://e.example/" + strings.Repeat("a", 2048), false},
	} {
		s := testScreen(t, 60, 2, nil)
		if _, err := s.Write([]byte("\x1b]8;" + tc.params + ";" + tc.url + "\x07click\x1b]8;;\x07 after")); err != nil {
			t.Fatal(err)
		}
		s.Flush()
		row := s.Snapshot().Lines[0]
		hasLink := strings.Contains(row, "\x1b]8;")
		if hasLink != tc.kept || !strings.Contains(row, "click") {
			t.Errorf("%s: row %q: link kept %v, want %v", tc.name, row, hasLink, tc.kept)
		}
		if tc.kept && !strings.Contains(row, tc.url) {
			t.Errorf("%s: row %q lost the URL", tc.name, row)
		}
	}
}
