package terminal

import (
	"strings"
	"sync"
	"testing"
)

// TestScreenFollowsMouseModes: the snapshot says which mouse reports the
// seat's program asked for, the tracking mode in effect, and
// whether in SGR; a reset or RIS turns them off.
func TestScreenFollowsMouseModes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		feed  string
		want  MouseModes
		after string // fed next
		then  MouseModes
	}{
		{"none", "hello", MouseModes{}, "", MouseModes{}},
		{"x10", "\x1b[?9h", MouseModes{Tracking: MouseX10}, "\x1b[?9l", MouseModes{}},
		{"normal sgr", "\x1b[?1000h\x1b[?1006h", MouseModes{Tracking: MouseNormal, SGR: true},
			"\x1b[?1006l", MouseModes{Tracking: MouseNormal}},
		// What Claude Code and Codex send: the last mode set wins, and a
		// reset of any ends the reports (xterm and tmux keep one mode).
		{"all of them", "\x1b[?1000h\x1b[?1002h\x1b[?1003h\x1b[?1006h", MouseModes{Tracking: MouseAnyMotion, SGR: true},
			"\x1b[?1003l", MouseModes{SGR: true}},
		{"reset by RIS", "\x1b[?1002h\x1b[?1006h", MouseModes{Tracking: MouseButtonMotion, SGR: true}, "\x1bc", MouseModes{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := testScreen(t, 20, 4, nil)
			feedScreen(t, s, tc.feed)
			if got := s.Snapshot().Mouse; got != tc.want {
				t.Fatalf("after %q: mouse = %+v, want %+v", tc.feed, got, tc.want)
			}
			feedScreen(t, s, tc.after)
			if got := s.Snapshot().Mouse; got != tc.then {
				t.Fatalf("after %q: mouse = %+v, want %+v", tc.after, got, tc.then)
			}
		})
	}
}

// TestSeatOSC52NeverLeaves: a seat's own clipboard write (OSC 52) is
// swallowed by the emulator: it answers nothing, draws nothing, and no row
// the UI gets carries it (only the human's copy writes the clipboard,
// docs/design.md §10).
func TestSeatOSC52NeverLeaves(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var replies []string
	s := testScreen(t, 30, 3, func(b []byte) {
		mu.Lock()
		replies = append(replies, string(b))
		mu.Unlock()
	})
	rows, _, _ := feedScreen(t, s, "a\x1b]52;c;c2VjcmV0\x07b\x1b]52;c;?\x1b\\c")
	if rows[0] != "abc" {
		t.Fatalf("row 0 = %q, want abc", rows[0])
	}
	for _, l := range s.Snapshot().Lines {
		if strings.Contains(l, "]52") || strings.Contains(l, "c2VjcmV0") {
			t.Fatalf("a snapshot row carries the seat's OSC 52: %q", l)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(replies) != 0 {
		t.Fatalf("the emulator answered a clipboard query: %q", replies)
	}
}
