package app

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// TestStatusLineForwardsWithToken: the status line posts Claude Code's JSON
// to the room with the token from the environment and prints the footer;
// a URL off this machine is refused, a room that is down is not an error.
func TestStatusLineForwardsWithToken(t *testing.T) {
	t.Parallel()
	got := make(chan []byte, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer tok-1" {
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		b, _ := io.ReadAll(r.Body)
		got <- b
		_, _ = w.Write([]byte("{}"))
	}))
	defer srv.Close()
	in := `{"model":{"display_name":"Opus 5.5"},"context_window":{"used_percentage":12.4}}`
	var out, errb bytes.Buffer
	env := func(k string) string {
		if k == room.EnvRoomToken {
			return "tok-1"
		}
		return ""
	}
	code := RunStatusLine([]string{srv.URL + "/hooks/status/t/a"}, env, strings.NewReader(in), &out, &errb)
	if code != 0 {
		t.Fatalf("code %d err %q", code, errb.String())
	}
	select {
	case b := <-got:
		if string(b) != in {
			t.Fatalf("forwarded %q", b)
		}
	case <-time.After(testkit.Wait):
		t.Fatal("status never reached the room")
	}
	if line := out.String(); line != "pullcept · Opus 5.5 · ctx 12%\n" {
		t.Fatalf("line %q", line)
	}
	// Not loopback: refused before anything is sent.
	if code := RunStatusLine([]string{"http://example.com/x"}, env, strings.NewReader(in), &out, &errb); code != 2 {
		t.Fatalf("non-loopback url: code %d", code)
	}
	// Room down: the line says so, exit 0 (never break Claude's footer).
	srv.Close()
	out.Reset()
	if code := RunStatusLine([]string{srv.URL + "/hooks/status/t/a"}, env, strings.NewReader(in), &out, &errb); code != 0 || !strings.Contains(out.String(), "room unreachable") {
		t.Fatalf("room down: code %d out %q", code, out.String())
	}
}

// TestFooterText: a model name from the status JSON is drawn in the seat's
// pane as one line of printable text, cut at 48 runes.
func TestFooterText(t *testing.T) {
	for in, want := range map[string]string{
		"Opus 5.5":                   "Opus 5.5",
		"Op\x1b]8;;http://x\x07us\n": "Op]8;;http://xus",
		"\u202eevil":                 "evil",
		strings.Repeat("長", 60):      strings.Repeat("長", 48) + "…",
	} {
		if got := footerText(in); got != want {
			t.Errorf("footerText(%q) = %q, want %q", in, got, want)
		}
	}
}
