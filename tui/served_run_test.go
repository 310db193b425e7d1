package tui

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// TestRunOnRefusesAnImpossibleSize: a terminal size beyond Bubble Tea's
// bound is refused before a frame is made (one of 100000×100000 ran the
// server out of memory).
func TestRunOnRefusesAnImpossibleSize(t *testing.T) {
	for _, sz := range [][2]int{{100000, 100000}, {0, 0}, {5000, 300}, {2000, 2000}} {
		err := RunOn(context.Background(), nil, Options{}, Terminal{In: strings.NewReader(""), Out: io.Discard, Width: sz[0], Height: sz[1]})
		if !errors.Is(err, ErrTerminalSize) {
			t.Errorf("%dx%d: %v, want ErrTerminalSize", sz[0], sz[1], err)
		}
	}
	for _, sz := range [][2]int{{80, 24}, {4096, 256}, {1024, 1024}} {
		if !SizeOK(sz[0], sz[1]) {
			t.Errorf("%dx%d refused", sz[0], sz[1])
		}
	}
}

// TestRunOnQuitRestoresTheTerminal: a server that stops ends each UI as a
// quit does, so the client's terminal gets its modes back (the alternate
// screen left) before the session closes.
func TestRunOnQuitRestoresTheTerminal(t *testing.T) {
	f := newFake()
	in, inW := io.Pipe()
	defer inW.Close()
	var out lockedBuf
	quit := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- RunOn(context.Background(), f, Options{AdminID: "admin"}, Terminal{In: in, Out: &out, Width: 80, Height: 24, Quit: quit})
	}()
	testkit.Eventually(t, "the first frame on the alternate screen", func() bool {
		return strings.Contains(out.String(), "\x1b[?1049h")
	})
	close(quit)
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("RunOn after Quit: %v", err)
		}
	case <-time.After(testkit.Slow(20 * time.Second)):
		t.Fatal("RunOn did not end after Quit")
	}
	if !strings.Contains(out.String(), "\x1b[?1049l") {
		t.Fatal("the alternate screen was not left")
	}
}

// lockedBuf is a buffer a program writes while the test reads.
type lockedBuf struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (b *lockedBuf) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuf) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestServedNoticesSpeakTheUIsLanguage: the server's word that another
// terminal attached, or that a seat tried and was refused, is shown in the
// UI's own language, the peer's name cleaned of control characters.
func TestServedNoticesSpeakTheUIsLanguage(t *testing.T) {
	m := sceneModel(t, scene(), 80, 24, LangJapanese)
	send(t, m, eventsMsg{evs: []Event{TerminalAttached{Client: 2, Peer: "pid 7 /usr/bin/pullcept on /dev/pts/3"}}})
	if !strings.Contains(m.status.text, "別の端末が接続しました") || !strings.Contains(m.status.text, "pid 7") {
		t.Fatalf("status = %q", m.status.text)
	}
	send(t, m, eventsMsg{evs: []Event{AttachRefused{Peer: "pid 9 \x1b]0;x\a/bin/sh"}}})
	if !strings.Contains(m.status.text, "拒否されました") || strings.ContainsRune(m.status.text, '\x1b') || m.status.level != stError {
		t.Fatalf("status = %q (level %v)", m.status.text, m.status.level)
	}
}
