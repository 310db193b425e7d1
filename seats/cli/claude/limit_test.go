package claude

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/seats/cli"
	"github.com/pullcept/pullcept/seats/limits"
)

// realClaudeLimit is the real Claude Code 2.1.328 refused on its plan's
// limit, then answering again (seats/cli/claude/testdata/README.md).
const realClaudeLimit = "testdata/claude-2.1.328-rate-limit.jsonl"

// TestClaudeLimitEventsReal: the recorded refusal is a stop with its
// reset, the recorded answer after it a recovery, every other line
// nothing.
func TestClaudeLimitEventsReal(t *testing.T) {
	b, err := os.ReadFile(realClaudeLimit)
	if err != nil {
		t.Fatal(err)
	}
	var got []limits.Event
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte{'\n'}) {
		if e, ok := claudeLimitEvent(line); ok {
			got = append(got, e)
		}
	}
	if len(got) != 2 || got[0].Kind != limits.Stop || got[0].ResetsAt.Unix() != 1796162400 || got[1].Kind != limits.Normal {
		t.Fatalf("events %+v, want a stop resetting at 1796162400, then a normal answer", got)
	}
}

// TestClaudeLimitEventShapes: what counts as a stop, a recovery, a
// subagent's, and what is nothing — bad reset times included.
func TestClaudeLimitEventShapes(t *testing.T) {
	refusal := func(extra string) string {
		return `{"type":"assistant","isSidechain":false,"isApiErrorMessage":true,"error":"rate_limit","requestId":"r1","message":{"model":"<synthetic>"}` + extra + `}`
	}
	for _, tc := range []struct {
		name, line string
		kind       limits.EventKind
		reset      int64
	}{
		{"plan stop", refusal(`,"quotaLimits":{"resetsAt":1796162400}`), limits.Stop, 1796162400},
		{"reset in ms", refusal(`,"quotaLimits":{"resetsAt":1796162400000}`), limits.Stop, 1796162400},
		{"reset in the message (older)", `{"type":"assistant","isApiErrorMessage":true,"error":"rate_limit","apiError":"usage_limit_reached","message":{"model":"<synthetic>","quotaLimits":{"resetsAt":1796162400}}}`, limits.Stop, 1796162400},
		{"reset not a number", refusal(`,"quotaLimits":{"resetsAt":"soon"}`), limits.Stop, 0},
		{"reset in 1970", refusal(`,"quotaLimits":{"resetsAt":12}`), limits.Stop, 0},
		{"reset absurdly far", refusal(`,"quotaLimits":{"resetsAt":99999999999999}`), limits.Stop, 0},
		{"a 429 that is not the plan's", refusal(``), 0, 0},
		{"other API error", `{"type":"assistant","isApiErrorMessage":true,"error":"overloaded","requestId":"r","message":{"model":"<synthetic>"}}`, 0, 0},
		{"normal answer", `{"type":"assistant","requestId":"r2","message":{"model":"claude-opus-5-5"}}`, limits.Normal, 0},
		{"synthetic answer", `{"type":"assistant","requestId":"r2","message":{"model":"<synthetic>"}}`, 0, 0},
		{"no request id", `{"type":"assistant","message":{"model":"claude-opus-5-5"}}`, 0, 0},
		{"subagent stop", `{"type":"assistant","isSidechain":true,"agentId":"a1","isApiErrorMessage":true,"error":"rate_limit","quotaLimits":{"resetsAt":1796162400}}`, limits.SubStop, 1796162400},
		{"subagent answer", `{"type":"assistant","isSidechain":true,"agentId":"a1","requestId":"r","message":{"model":"claude-opus-5-5"}}`, limits.SubNormal, 0},
		{"user entry", `{"type":"user","message":{"role":"user","content":"assistant"}}`, 0, 0},
		{"not json", `{"type":"assistant"`, 0, 0},
	} {
		e, ok := claudeLimitEvent([]byte(tc.line))
		if ok != (tc.kind != 0) || e.Kind != tc.kind {
			t.Errorf("%s: %+v %v, want kind %d", tc.name, e, ok, tc.kind)
			continue
		}
		if tc.reset == 0 && !e.ResetsAt.IsZero() || tc.reset != 0 && e.ResetsAt.Unix() != tc.reset {
			t.Errorf("%s: reset %v, want %d", tc.name, e.ResetsAt, tc.reset)
		}
	}
}

// TestClaudeLastParent: a resumed transcript's last parent event decides
// whether the launch starts limited (only the last claudeRestoreMax bytes
// are read).
func TestClaudeLastParent(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	refusal := `{"type":"assistant","isApiErrorMessage":true,"error":"rate_limit","quotaLimits":{"resetsAt":1796162400}}`
	normal := `{"type":"assistant","requestId":"r","message":{"model":"claude-opus-5-5"}}`
	// A long line that is no answer (an attachment) after the refusal.
	huge := `{"type":"assistant","x":"` + strings.Repeat("a", 1<<20) + `"}`
	for _, tc := range []struct {
		lines []string
		want  limits.EventKind
	}{
		{[]string{normal, refusal, `{"type":"user"}`}, limits.Stop},
		{[]string{refusal, normal}, limits.Normal},
		{[]string{refusal, huge}, limits.Stop},
		{[]string{`{"type":"user"}`}, 0},
	} {
		data := strings.Join(tc.lines, "\n") + "\n"
		if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		e, ok := claudeLastParent(path, int64(len(data)))
		if ok != (tc.want != 0) || e.Kind != tc.want {
			t.Errorf("%d lines: %+v %v, want %d", len(tc.lines), e, ok, tc.want)
		}
	}
	if _, ok := claudeLastParent(filepath.Join(dir, "gone.jsonl"), 100); ok {
		t.Error("a missing transcript gave an event")
	}
}

// TestClaudeTranscriptTailHostile: a 10 MB line is skipped whole (the
// refusal after it is read), and a transcript deleted and written again
// shorter is taken from its new end, never a crash.
func TestClaudeTranscriptTailHostile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	refusal := `{"type":"assistant","isApiErrorMessage":true,"error":"rate_limit","quotaLimits":{"resetsAt":1796162400}}`
	big := `{"type":"assistant","x":"` + strings.Repeat("b", 10<<20) + `"}`
	if err := os.WriteFile(path, []byte(big+"\n"+refusal+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tail := cli.NewTail(path, 0)
	tail.LineMax = claudeLineMax
	var got []limits.Event
	feed := func(line []byte) {
		if len(line) > claudeLineMax {
			t.Fatalf("a line of %d bytes was handed on", len(line))
		}
		if e, ok := claudeLimitEvent(line); ok {
			got = append(got, e)
		}
	}
	for range 3 { // codexPollMax per poll
		if _, err := tail.Poll(feed); err != nil {
			t.Fatal(err)
		}
	}
	if len(got) != 1 || got[0].Kind != limits.Stop {
		t.Fatalf("after a 10 MB line: %+v", got)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if _, err := tail.Poll(feed); err == nil {
		t.Error("a deleted transcript polled without an error")
	}
	if err := os.WriteFile(path, []byte(refusal+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := tail.Poll(feed); err == nil || !strings.Contains(err.Error(), "shrank") {
		t.Errorf("a replaced transcript: %v", err)
	}
	appendLine := func(s string) {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(s + "\n"); err != nil {
			t.Fatal(err)
		}
	}
	appendLine(`{"type":"assistant","requestId":"r","message":{"model":"claude-opus-5-5"}}`)
	if _, err := tail.Poll(feed); err != nil || len(got) != 2 || got[1].Kind != limits.Normal {
		t.Errorf("after the replacement: %v %+v", err, got)
	}
}
