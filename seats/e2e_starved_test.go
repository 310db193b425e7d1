//go:build linux || darwin

package seats_test

import (
	"strings"
	"syscall"
	"testing"

	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats"
	"github.com/pullcept/pullcept/testdata/fakeapi"
)

// TestE2EStarvedCLISubmits covers the typing path under heavy load: a CLI
// whose input reader does not run for longer than the typing gap reads a
// post's text and its "\r" in one read. Stopping the CLI (SIGSTOP) while
// the room types a post into it, then letting it run (SIGCONT), makes that
// happen every time. Unmarked, both real CLIs then keep the text in their
// input box and never submit it (the "\r" is read as part of the paste);
// in the bracketed-paste markers they asked for, the post is submitted and
// reaches the model as one user message, tag line then body, and the seat
// answers.
func TestE2EStarvedCLISubmits(t *testing.T) {
	for _, kind := range []string{fakeapi.CLIClaude, fakeapi.CLICodex} {
		t.Run(kind, func(t *testing.T) {
			r := newRig(t, nil)
			var a = r.claudeAccount("ada", "Ada")
			if kind == fakeapi.CLICodex {
				a = r.codexAccount("ada", "Ada")
				env, _ := fakeapi.CodexEnv(t, r.base, a.WorkDir)
				r.setEnv(env)
			} else {
				env, _ := fakeapi.ClaudeEnv(t, r.base, r.root)
				r.setEnv(env)
			}
			_, s := r.start(a.ID)
			r.waitReady(a.ID, s)
			pid := r.seatInfo(a.ID).Pid
			if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
				t.Fatalf("stop the CLI: %v", err)
			}
			continued := false
			defer func() {
				if !continued {
					_ = syscall.Kill(pid, syscall.SIGCONT)
				}
			}()
			hello := r.post("hello @Ada")
			e2eUntil(t, "the post typed with its Enter", func() bool {
				st := seats.TypingOf(s)
				return st.Queued == 0 && !st.Typing
			}, s.Done())
			if err := syscall.Kill(pid, syscall.SIGCONT); err != nil {
				t.Fatalf("continue the CLI: %v", err)
			}
			continued = true
			reply := r.waitPost("Ada's reply", func(p room.Post) bool { return p.Account == a.ID })
			if reply.Content != "reply to: hello" {
				t.Errorf("reply = %q, want %q", reply.Content, "reply to: hello")
			}
			var carried bool
			for _, ex := range r.fake.Exchanges() {
				if !ex.Request.ModelCall || len(carrying(ex.Request, hello.MessageID)) == 0 {
					continue
				}
				carried = true
				checkTyped(t, ex.Request, hello, "hello")
				for _, texts := range carrying(ex.Request, hello.MessageID) {
					checkPostIn(t, ex.Request, texts, hello, "Ada")
				}
			}
			if !carried {
				t.Fatal("no model call carries the post")
			}
		})
	}
}

// checkPostIn asserts that texts (one user message) hold post p exactly
// once, as the room typed it: its tag line, then its body (a CLI may put a
// sentence of its own before it, as Claude Code does for input typed while
// it works).
func checkPostIn(t *testing.T, req *fakeapi.Request, texts []string, p room.Post, you string) {
	t.Helper()
	n := 0
	for _, text := range texts {
		for _, got := range fakeapi.FindPosts(text) {
			if got.Tag.MessageID != p.MessageID {
				continue
			}
			n++
			if got.TagLine != typedTag(p, you) || got.Body != p.Content {
				t.Errorf("request #%d: post %s typed as %q + %q, want %q + %q", req.Seq, p.MessageID,
					got.TagLine, got.Body, typedTag(p, you), p.Content)
			}
			if strings.Contains(text, "\x1b") || strings.Contains(text, "[200~") || strings.Contains(text, "[201~") {
				t.Errorf("request #%d: paste markers reached the model: %q", req.Seq, text)
			}
		}
	}
	if n != 1 {
		t.Errorf("request #%d: post %s %d times in one message, want once: %q", req.Seq, p.MessageID, n, texts)
	}
}
