package room

import (
	"errors"
	"net/url"
	"testing"
)

// TestHookURLsRoundTrip: what seats writes into a launch line, the server
// reads back, whatever the topic, account and event names hold.
func TestHookURLsRoundTrip(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ event, topic, account string }{
		{"", "t-1", "acc-1"},
		{"PreToolUse", "019a-topic", "claude-3f2a1b"},
		{"Stop", "a b/c?d#e%f", "名前 $(rm -rf) `x`"},
	} {
		raw := HookStatusURL("http://127.0.0.1:5000/", c.topic, c.account)
		want := Hook{Kind: ReportStatus, Topic: c.topic, Account: c.account}
		if c.event != "" {
			raw = HookActivityURL("http://127.0.0.1:5000", c.event, c.topic, c.account)
			want = Hook{Kind: ReportActivity, Event: c.event, Topic: c.topic, Account: c.account}
		}
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if got, ok := ParseHookPath(u.EscapedPath()); !ok || got != want {
			t.Errorf("ParseHookPath(%s) = %+v, %v; want %+v", u.EscapedPath(), got, ok, want)
		}
		for _, r := range u.EscapedPath() {
			if r > 0x7e || r == '$' || r == '`' || r == ' ' || r == '\'' || r == '"' {
				t.Errorf("%s carries %q, which a shell reacts to", raw, r)
			}
		}
	}
	for _, bad := range []string{"/hooks/status/t", "/hooks/status/t/a/x", "/hooks/activity/e/t", "/hooks/status//a",
		"/hooks/other/t/a", "/room", "/hooks/status/t/%zz"} {
		if h, ok := ParseHookPath(bad); ok {
			t.Errorf("ParseHookPath(%q) = %+v, want refused", bad, h)
		}
	}
}

// TestCheckLoopbackURL: only the given scheme on a loopback host passes.
func TestCheckLoopbackURL(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		raw, scheme string
		ok          bool
	}{
		{"ws://127.0.0.1:4000/room", "ws", true},
		{"ws://localhost:4000/room", "ws", true},
		{"ws://[::1]:4000/room", "ws", true},
		{"http://127.0.0.2:9", "http", true},
		{"wss://127.0.0.1:4000/room", "ws", false},
		{"ws://example.com/room", "ws", false},
		{"ws://10.0.0.1/room", "ws", false},
		{"ws://127.0.0.1.example.com/room", "ws", false},
		{"", "ws", false},
		{"::not a url", "ws", false},
	} {
		err := CheckLoopbackURL(c.raw, c.scheme)
		if (err == nil) != c.ok || (err != nil && !errors.Is(err, ErrNotLoopback)) {
			t.Errorf("CheckLoopbackURL(%q, %s) = %v, want ok %v", c.raw, c.scheme, err, c.ok)
		}
	}
}
