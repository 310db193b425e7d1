//go:build linux

package realapp

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pullcept/pullcept/testdata/fakecli"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// writeTopic writes topic id's log: n posts by Kai, post i's body made by
// body(i), a minute apart in October 2026.
func writeTopic(t *testing.T, data, id string, n int, body func(int) string) {
	t.Helper()
	dir := filepath.Join(data, "logs", "main")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i := range n {
		line, err := json.Marshal(map[string]string{"message_id": fmt.Sprintf("%s-%04d", id, i), "speaker": "Kai",
			"content": body(i), "ts": time.Date(2026, 10, 1, 9, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Minute).Format(time.RFC3339)})
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(filepath.Join(dir, id+".jsonl"), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
}

// startOn starts pullcept in tmux on data (config.json with the admin only
// is written here), 160×45.
func startOn(t *testing.T, data string) *app {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	a := &app{t: t, sock: fmt.Sprintf("pullcept-search-%d", os.Getpid())}
	cfg := `{"accounts":[{"id":"admin","name":"Alice","kind":"admin"}]}`
	if err := os.WriteFile(filepath.Join(data, "config.json"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	a.tmux("new-session", "-d", "-s", "app", "-x", "160", "-y", "45",
		"env", "PULLCEPT_HOME="+data, "TERM=xterm-256color", "LANG=C.UTF-8", fakecli.PullceptBinary(t), "--no-server")
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("last screen:\n%s", a.screenOrEmpty())
		}
		a.quit()
		_ = exec.Command("tmux", "-L", a.sock, "kill-server").Run()
	})
	return a
}

// TestFindAPostInTheRealApp: Ctrl+P, a word that only a post far back in
// another topic holds, Enter: that topic opens and the post is on screen.
func TestFindAPostInTheRealApp(t *testing.T) {
	data := t.TempDir()
	writeTopic(t, data, "0190a000-0000-7000-8000-000000000001", 300, func(i int) string {
		if i == 30 {
			return "we agreed on the zanzibar rollout for 日本語 users"
		}
		return fmt.Sprintf("planning note %d", i)
	})
	writeTopic(t, data, "0190a000-0000-7000-8000-000000000002", 5, func(i int) string { return fmt.Sprintf("release chat %d", i) })
	a := startOn(t, data)
	a.waitScreen("the topic list", "planning note 0")
	a.keys("C-p")
	a.waitScreen("the finder", "Find a topic or a post")
	a.tmux("send-keys", "-t", "app", "-l", "zanzibar")
	a.waitScreen("the post in the finder", "zanzibar rollout for 日本語")
	a.waitScreen("the topic and speaker of the post in the finder", "planning note 0 — Kai: we agreed on the zanzibar")
	a.keys("Enter")
	// The finder's row holds the whole post too: the chat shows it once
	// the finder is gone.
	var s string
	testkit.EventuallyWithin(t, testkit.Wait, "the post in the chat", func() bool {
		s = a.screenOrEmpty()
		return !strings.Contains(s, "Find a topic or a post") && strings.Contains(s, "we agreed on the zanzibar rollout for 日本語 users")
	})
	if !strings.Contains(s, "planning note 31") {
		t.Fatalf("the topic of the post did not open:\n%s", s)
	}
}
