//go:build linux

package realapp

// The settings overlay as a person uses it (docs/design.md §10
// "Settings"): F3 opens it, a change of language shows at once and is
// saved, and after a restart the app speaks the chosen language and opens
// with the panels as they were left.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/pullcept/pullcept/testdata/fakecli"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// TestSettingsLanguageStaysAfterARestart: English from config.json; F3,
// → on the language row: the overlay and the screen behind it are in
// Japanese at once and config.json says "ja"; Ctrl+B hides the topic list;
// Ctrl+Q quits; started again on the same data folder (its locale still
// English), the app is in Japanese and the topic list stays hidden.
func TestSettingsLanguageStaysAfterARestart(t *testing.T) {
	r := newRig(t, 80, 24, "en", seat{id: "sh", name: "Shell"})
	data := filepath.Join(r.work, "data")
	r.keys("F3")
	r.waitScreen("the settings overlay", func(s string) bool {
		return strings.Contains(s, "Settings") && strings.Contains(s, "‹ English ›")
	})
	r.keys("Right")
	r.waitScreen("the overlay and the screen behind it in Japanese", func(s string) bool {
		return strings.Contains(s, "設定") && strings.Contains(s, "‹ 日本語 ›") && strings.Contains(s, "F1 ヘルプ") &&
			strings.Contains(s, "config.json に保存しました。")
	})
	testkit.Eventually(t, `config.json says "language": "ja"`, func() bool {
		b, err := os.ReadFile(filepath.Join(data, "config.json"))
		var doc map[string]any
		return err == nil && json.Unmarshal(b, &doc) == nil && doc["language"] == "ja" && doc["accounts"] != nil
	})
	r.keys("Escape")
	r.waitScreen("the overlay closed, the input bar in Japanese", func(s string) bool {
		return !strings.Contains(s, "設定") && strings.Contains(s, "部屋に発言する") && strings.Contains(s, "＋ 新規")
	})
	r.keys("C-b")
	r.waitScreen("the topic list hidden", func(s string) bool { return !strings.Contains(s, "＋ 新規") })
	testkit.Eventually(t, "ui-state.json remembers the hidden topic list", func() bool {
		b, err := os.ReadFile(filepath.Join(data, "ui-state.json"))
		return err == nil && strings.Contains(string(b), `"topics":false`)
	})

	pid := r.appPID()
	r.keys("C-q")
	testkit.Eventually(t, "the app quit", func() bool { return syscall.Kill(pid, 0) != nil })

	r.tmux("-f", "/dev/null", "new-session", "-d", "-s", "app", "-x", "80", "-y", "24",
		"env", "PULLCEPT_HOME="+data, "TERM=xterm-256color", "LANG=C.UTF-8", fakecli.PullceptBinary(t), "--no-server")
	again := r.appPID()
	t.Cleanup(func() {
		_ = syscall.Kill(again, syscall.SIGTERM)
		testkit.Eventually(t, "the restarted app quit", func() bool { return syscall.Kill(again, 0) != nil })
	})
	s := r.waitScreen("the restarted app in Japanese", func(s string) bool {
		return strings.Contains(s, "F1 ヘルプ") && strings.Contains(s, "アカウント") && strings.Contains(s, "部屋に発言する")
	})
	if strings.Contains(s, "＋ 新規") {
		t.Fatalf("the topic list is shown again after the restart:\n%s", s)
	}
	r.keys("F3")
	r.waitScreen("the settings say Japanese and the hidden list", func(s string) bool {
		return strings.Contains(s, "‹ 日本語 ›") && strings.Contains(s, "閉じている")
	})
}
