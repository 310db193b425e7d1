//go:build linux

package seats_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pullcept/pullcept/room"
)

// codexChildEnv runs TestCodexAppServerChild as a stand-in for Pullcept:
// "first" starts the app-server seat, answers one post, writes its state
// and waits to be killed; "resume" starts it again from the same folders.
const codexChildEnv = "PULLCEPT_TEST_CODEX_CHILD"

// codexChildState is what the first child tells the test.
type codexChildState struct {
	Session string `json:"session"`
	TUI     int    `json:"tui"`
	Server  int    `json:"server"`
	Family  []int  `json:"family"` // the server's descendants (the room's sidecar …)
}

// TestE2ECodexAppServerSurvivesNothing kills a Pullcept holding an
// app-server Codex seat with SIGKILL (issue 15): no process of the seat is
// left (the TUI, the server and the server's children, by pid), and a new
// Pullcept on the same data resumes the same conversation, which answers
// the next post.
func TestE2ECodexAppServerSurvivesNothing(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state.json")
	child := func(mode string) *exec.Cmd {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCodexAppServerChild$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), codexChildEnv+"="+mode, rigDirEnv+"="+dir, "TMPDIR="+dir)
		out, err := os.Create(filepath.Join(dir, mode+".log"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { out.Close() })
		cmd.Stdout, cmd.Stderr = out, out
		return cmd
	}
	dump := func(mode string) {
		b, _ := os.ReadFile(filepath.Join(dir, mode+".log"))
		t.Logf("%s child's output:\n%s", mode, b)
	}
	first := child("first")
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- first.Wait() }()
	var st codexChildState
	ok := false
	deadline := time.After(3 * time.Minute)
	for !ok {
		select {
		case err := <-exited:
			dump("first")
			t.Fatalf("the first child ended before it was killed: %v", err)
		case <-deadline:
			_ = first.Process.Kill()
			dump("first")
			t.Fatal("the first child wrote no state in 3 minutes")
		case <-time.After(50 * time.Millisecond):
		}
		if b, err := os.ReadFile(state); err == nil && json.Unmarshal(b, &st) == nil && st.Session != "" {
			ok = true
		}
	}
	if err := first.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-exited
	for _, p := range append([]int{st.TUI, st.Server}, st.Family...) {
		waitGone(t, p)
	}
	t.Logf("after SIGKILL: TUI %d, server %d and %d descendants gone", st.TUI, st.Server, len(st.Family))

	second := child("resume")
	if err := second.Run(); err != nil {
		dump("resume")
		t.Fatalf("the resuming child: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "resume.log")); !strings.Contains(string(b), "--- PASS: TestCodexAppServerChild") {
		dump("resume")
		t.Fatal("the resuming child did not run its test")
	}
}

// TestCodexAppServerChild is the Pullcept TestE2ECodexAppServerSurvivesNothing
// runs and kills; on its own it does nothing.
func TestCodexAppServerChild(t *testing.T) {
	mode := os.Getenv(codexChildEnv)
	if mode == "" {
		t.Skip("run by TestE2ECodexAppServerSurvivesNothing")
	}
	dir := os.Getenv(rigDirEnv)
	r := newRig(t, nil)
	cody, _ := codexServerAccount(t, r, filepath.Join(dir, "codex-home"))
	server := serverSpawns(r)
	res, s := r.start(cody.ID)
	r.waitReady(cody.ID, s)
	switch mode {
	case "first":
		if res.Resumed || res.SessionID == "" {
			t.Fatalf("first start = %+v", res)
		}
		r.post("hello @Cody")
		r.waitPost("Cody's reply", func(p room.Post) bool { return p.Account == cody.ID && p.Content == "reply to: hello" })
		pid := server()
		st := codexChildState{Session: res.SessionID, TUI: r.seatInfo(cody.ID).Pid, Server: pid, Family: descendants(pid)}
		b, _ := json.Marshal(st)
		tmp := filepath.Join(dir, "state.json.tmp")
		if err := os.WriteFile(tmp, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, filepath.Join(dir, "state.json")); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Minute) // killed long before: the test's subject is the kill
		t.Fatal("not killed")
	case "resume":
		var st codexChildState
		b, err := os.ReadFile(filepath.Join(dir, "state.json"))
		if err != nil || json.Unmarshal(b, &st) != nil {
			t.Fatalf("state: %v", err)
		}
		if !res.Resumed || res.SessionID != st.Session {
			t.Fatalf("start after the kill = %+v, want resumed %s", res, st.Session)
		}
		calls := len(r.sessionCalls(st.Session))
		again := r.post("again @Cody")
		r.waitPost("Cody's reply after the restart", func(p room.Post) bool {
			return p.Account == cody.ID && p.Content == "reply to: again"
		})
		exs := r.sessionCalls(st.Session)[calls:]
		found, first := false, false
		for _, ex := range exs {
			if len(carrying(ex.Request, again.MessageID)) == 0 {
				continue
			}
			found = true
			// The resumed conversation still holds the first turn.
			for _, m := range ex.Request.Messages {
				for _, txt := range m.Texts {
					first = first || (strings.Contains(txt, "[pullcept]") && strings.Contains(txt, "\nhello"))
				}
			}
		}
		if !found || !first {
			t.Errorf("model calls of the resumed conversation %s: one carries %s: %v, the first turn is in it: %v", st.Session, again.MessageID, found, first)
		}
	}
}
