//go:build unix

package seats

import (
	"strings"
	"testing"
	"time"

	"github.com/pullcept/pullcept/seats/pty"
	"github.com/pullcept/pullcept/seats/terminal"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// runtimeDeadline bounds each wait on the echo child (a shell, started in
// well under a second even on a busy machine).
var runtimeDeadline = testkit.Slow(20 * time.Second)

// startEcho starts a shell in a PTY that prints its TERM, then answers each
// line it reads with "got: <line>" and exits with N on "exit N".
func startEcho(t *testing.T, cols, rows int) pty.Proc {
	t.Helper()
	script := `echo "term=$TERM"; while IFS= read -r l; do case "$l" in "exit "*) exit "${l#exit }";; esac; echo "got: $l"; done`
	p, err := pty.Start(pty.Options{Argv: []string{"/bin/sh", "-c", script}, Dir: t.TempDir(), Env: []string{"PATH=/usr/bin:/bin"}, Cols: cols, Rows: rows})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = p.Kill()
		_ = p.Close()
		_, _ = p.Wait()
	})
	return p
}

// TestSeatRuntimeEndToEnd wires a real PTY, Screen and Typist the way a
// seat does: PTY output is pumped into the screen, the screen's replies and
// the queue's typing go to the PTY, and a room post reaches the child as a
// tag line and body followed by a separate Enter.
func TestSeatRuntimeEndToEnd(t *testing.T) {
	p := startEcho(t, 200, 10) // wide enough that no line wraps
	ty := NewTypist(p, TypistOptions{Ready: true})
	defer ty.Close()
	screen, err := terminal.NewScreen(200, 10, ty.Reply)
	if err != nil {
		t.Fatal(err)
	}
	defer screen.Close()
	pumped := make(chan error, 1)
	go func() { pumped <- terminal.Pump(p, screen) }()

	waitScreen := func(want string) {
		t.Helper()
		deadline := time.After(runtimeDeadline)
		for !strings.Contains(screen.Text(), want) {
			select {
			case <-screen.Changed():
			case <-deadline:
				t.Fatalf("screen never showed %q:\n%s", want, screen.Text())
			}
		}
	}
	waitScreen("term=xterm-256color")
	post := testPost("m-e2e", "first line\r\nsecond\tline")
	ty.Enqueue(post)
	// The echo helper answers each line it reads: the tag line, the first
	// body line, and the last one, which only ends with the separate "\r"
	// (the line discipline turns it into "\n"). The tab was dropped.
	waitScreen(`got: [pullcept] {"role":"admin","from":"Alice","message_id":"m-e2e"`)
	waitScreen("got: first line")
	waitScreen("got: secondline")
	ty.Human([]byte("exit 3\r"))
	if code, _ := p.Wait(); code != 3 {
		t.Fatalf("exit code %d", code)
	}
	select {
	case err := <-pumped:
		if err != nil {
			t.Fatalf("Pump: %v", err)
		}
	case <-time.After(runtimeDeadline):
		t.Fatal("Pump did not end after the child exited")
	}
}
