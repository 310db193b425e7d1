package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// TestRun: the command prints both base URLs, serves the fake on them,
// and writes the record file when its context ends.
func TestRun(t *testing.T) {
	t.Parallel()
	record := filepath.Join(t.TempDir(), "record.jsonl")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	pr, pw := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		code := run(ctx, []string{"-addr", "127.0.0.1:0", "-resend", "-record", record}, pw, &stderr)
		pw.Close()
		done <- code
	}()
	urls := map[string]string{}
	sc := bufio.NewScanner(pr)
	for len(urls) < 2 && sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), "=")
		urls[k] = v
	}
	base := urls["ANTHROPIC_BASE_URL"]
	if !strings.HasPrefix(base, "http://127.0.0.1:") || urls["OPENAI_BASE_URL"] != base+"/v1" {
		t.Fatalf("printed %v", urls)
	}
	body := `{"model":"m","stream":true,"tools":[{"type":"namespace","name":"mcp__k","tools":[{"type":"function","name":"say_to_room"}]}],
 "input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"[pullcept] {\"message_id\":\"m-1\"}\nhi"}]}]}`
	resp, err := http.Post(urls["OPENAI_BASE_URL"]+"/responses", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `"namespace":"mcp__k"`) || !strings.Contains(string(b), `reply to: hi`) {
		t.Errorf("answer = %s", b)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit code %d, stderr %s", code, stderr.String())
		}
	case <-time.After(testkit.Wait):
		t.Fatal("run did not return after its context ended")
	}
	rec, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	var line struct {
		Request struct {
			Path string `json:"path"`
		} `json:"request"`
		Reply struct {
			Call struct {
				Name string `json:"name"`
			} `json:"call"`
		} `json:"reply"`
		Body json.RawMessage `json:"body"`
	}
	if err := json.Unmarshal(bytes.TrimSpace(rec), &line); err != nil {
		t.Fatalf("record %s: %v", rec, err)
	}
	if line.Request.Path != "/v1/responses" || line.Reply.Call.Name != "say_to_room" || len(line.Body) == 0 {
		t.Errorf("record = %s", rec)
	}
	if !strings.Contains(stderr.String(), "fakeapi #1 openai") {
		t.Errorf("stderr log = %q", stderr.String())
	}
}

func TestRunBadFlags(t *testing.T) {
	t.Parallel()
	var out, errb bytes.Buffer
	if code := run(t.Context(), []string{"-addr", "0.0.0.0:0"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "not loopback") {
		t.Errorf("non-loopback addr: code %d, stderr %q", code, errb.String())
	}
	if code := run(t.Context(), []string{"-nope"}, &out, &errb); code != 2 {
		t.Errorf("unknown flag: code %d", code)
	}
}

// startRun runs the command with args until the test ends and returns the
// base URL it printed.
func startRun(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	pr, pw := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		code := run(ctx, append([]string{"-addr", "127.0.0.1:0"}, args...), pw, &stderr)
		pw.Close()
		done <- code
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("exit code %d, stderr %s", code, stderr.String())
			}
		case <-time.After(testkit.Wait):
			t.Error("run did not return after its context ended")
		}
	})
	sc := bufio.NewScanner(pr)
	if !sc.Scan() {
		t.Fatalf("nothing printed; stderr %s", stderr.String())
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	return strings.TrimPrefix(sc.Text(), "ANTHROPIC_BASE_URL=")
}

// envFile reads an -env-out file into a map, failing on a name written twice.
func envFile(t *testing.T, path string) map[string]string {
	t.Helper()
	var b []byte
	testkit.Eventually(t, "the env file", func() bool {
		b, _ = os.ReadFile(path)
		return len(b) > 0
	})
	env := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		kv := strings.TrimSuffix(strings.TrimPrefix(line, "export '"), "'")
		k, v, _ := strings.Cut(kv, "=")
		if _, dup := env[k]; dup {
			t.Errorf("%s written twice", k)
		}
		env[k] = v
	}
	return env
}

// TestRunScriptAndBothCLIs: -script makes the fake follow a rules script
// (a post from another seat to the whole room gets no say_to_room), and
// -claude-dir with -codex-dir prepares both CLIs at once, one HOME for
// both, in one environment file.
func TestRunScriptAndBothCLIs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	script := filepath.Join(dir, "script.json")
	if err := os.WriteFile(script, []byte(`{"silent":"not mine","rules":[{"steps":[{"say":"hello"}]}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	seat := filepath.Join(dir, "seat")
	base := startRun(t, "-script", script, "-claude-dir", filepath.Join(dir, "cli"), "-codex-dir", filepath.Join(dir, "cli"),
		"-trust", seat, "-env-out", filepath.Join(dir, "env.sh"))
	env := envFile(t, filepath.Join(dir, "env.sh"))
	home := filepath.Join(dir, "cli", "home")
	if env["HOME"] != home || env["CLAUDE_CONFIG_DIR"] != filepath.Join(dir, "cli", "claude-config") ||
		env["CODEX_HOME"] != filepath.Join(dir, "cli", "codex-home") || env["ANTHROPIC_BASE_URL"] != base {
		t.Errorf("env = %v", env)
	}
	toml, err := os.ReadFile(filepath.Join(dir, "cli", "codex-home", "config.toml"))
	if err != nil || !strings.Contains(string(toml), seat) {
		t.Errorf("codex config.toml does not trust the seat folder: %s %v", toml, err)
	}
	claude, err := os.ReadFile(filepath.Join(dir, "cli", "claude-config", ".claude.json"))
	if err != nil || !strings.Contains(string(claude), seat) {
		t.Errorf(".claude.json does not trust the seat folder: %s %v", claude, err)
	}

	post := func(from, role string) string {
		tag := `[pullcept] {\"role\":\"` + role + `\",\"from\":\"` + from + `\",\"message_id\":\"m-1\"}`
		body := `{"model":"m","stream":true,"tools":[{"type":"namespace","name":"mcp__k","tools":[{"type":"function","name":"say_to_room"}]}],
 "input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"` + tag + `\nhi all"}]}]}`
		resp, err := http.Post(base+"/v1/responses", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	if got := post("Codex", "codex_cli"); strings.Contains(got, "say_to_room") || !strings.Contains(got, "not mine") {
		t.Errorf("another seat's small talk: %s", got)
	}
	if got := post("Alice", "admin"); !strings.Contains(got, "say_to_room") || !strings.Contains(got, "hello") {
		t.Errorf("the human to the room: %s", got)
	}
}

// TestRunOneCLI: -claude-dir alone prepares Claude Code only, as
// testdata/newcomer.sh uses it; -codex-dir alone Codex only.
func TestRunOneCLI(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	startRun(t, "-claude-dir", filepath.Join(dir, "c"), "-trust", dir, "-env-out", filepath.Join(dir, "claude.sh"))
	env := envFile(t, filepath.Join(dir, "claude.sh"))
	if env["HOME"] != filepath.Join(dir, "c", "home") || env["CLAUDE_CONFIG_DIR"] == "" || env["CODEX_HOME"] != "" {
		t.Errorf("claude only: %v", env)
	}
	startRun(t, "-codex-dir", filepath.Join(dir, "x"), "-env-out", filepath.Join(dir, "codex.sh"))
	env = envFile(t, filepath.Join(dir, "codex.sh"))
	if env["HOME"] != filepath.Join(dir, "x", "home") || env["CODEX_HOME"] != filepath.Join(dir, "x", "codex-home") || env["CLAUDE_CONFIG_DIR"] != "" {
		t.Errorf("codex only: %v", env)
	}
}

func TestRunBadScript(t *testing.T) {
	t.Parallel()
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"rules":[{"steps":[{"say":"x","tool":{}}]}], "typo": 1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run(t.Context(), []string{"-script", bad}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "typo") {
		t.Errorf("bad script: code %d, stderr %q", code, errb.String())
	}
}
