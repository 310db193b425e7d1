package fakecli

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestPromptParksTheHiddenCursorAtTheCaret: prompt mode hides the cursor,
// draws its caret, the footer after the input, and then moves the hidden
// cursor back to the caret; it records lines and mouse reports and ends
// on "exit N". Characters split across reads arrive whole.
func TestPromptParksTheHiddenCursorAtTheCaret(t *testing.T) {
	t.Parallel()
	linesFile := filepath.Join(t.TempDir(), "lines.jsonl")
	var out strings.Builder
	raw := func() (func(), error) { return func() {}, nil }
	o := options{linesFile: linesFile, prompt: true, mouse: true, osc52: "seat secret"}
	st := &promptState{}
	code, done := st.feed([]byte("日本\xe8"), &out, discard{})
	if done || code != 0 {
		t.Fatalf("feed ended: %d", code)
	}
	code, done = st.feed([]byte("\xaa\x9e"), &out, discard{})
	if done || string(st.line) != "日本語" {
		t.Fatalf("line = %q (done %v, %d)", string(st.line), done, code)
	}
	s := out.String()
	footer := strings.LastIndex(s, PromptFooter)
	park := strings.LastIndex(s, "\x1b[4;9H") // ❯, a space, 日本語: 8 cells
	if footer < 0 || park < footer {
		t.Fatalf("the hidden cursor is not parked at the caret after the footer: %q", s)
	}

	out.Reset()
	in := strings.NewReader("hi\x1b[<0;3;4M\x1b[A\x7fo\rexit 5\r")
	f, err := os.OpenFile(linesFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	code = runPrompt(context.Background(), o, in, &out, f, raw)
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if code != 5 {
		t.Fatalf("exit status %d, want 5", code)
	}
	s = out.String()
	for _, want := range []string{"\x1b]52;c;", "\x1b[?25l", "\x1b[?1002h\x1b[?1006h", Ready, "got: ho"} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q: %q", want, ansi.Strip(s))
		}
	}
	got, err := Lines(linesFile)
	if err != nil || !slices.Equal(got, []string{"mouse <0;3;4M", "ho", "exit 5"}) {
		t.Errorf("Lines = %q, %v", got, err)
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
