package seats

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pullcept/pullcept/config"
)

// FuzzCodexRolloutLine: a rollout line is a file any process of the seat can
// write, so every byte string must be read without a panic, the same way
// twice (a re-read line changes nothing more), and never yield a percentage
// that is not a finite number (docs/design.md §11).
func FuzzCodexRolloutLine(f *testing.F) {
	f.Add([]byte(`{"timestamp":"2026-10-01T10:00:00Z","type":"turn_context","payload":{"model":"gpt-5","effort":"high"}}`))
	f.Add([]byte(`{"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"total_tokens":10},"model_context_window":100},"rate_limits":{"primary":{"used_percent":12.5,"window_minutes":300,"resets_at":1790000000}}}}`))
	f.Add([]byte(`{"type":"response_item","payload":{"type":"function_call","name":"shell","namespace":"x"}}`))
	f.Add([]byte(`{"type":"event_msg","payload":{"type":"task_started"}}`))
	f.Add([]byte(`{"type":"event_msg","payload":{"type":"token_count","rate_limits":{"primary":{"used_percent":1e309}}}}`))
	f.Add([]byte("\x00\xff{"))
	now := time.Date(2026, 10, 1, 10, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, line []byte) {
		next, changed := applyCodexLine(codexReport{}, line, now)
		again, changed2 := applyCodexLine(codexReport{}, line, now)
		if changed != changed2 || !sameReport(next, again) {
			t.Fatalf("the same line read twice differs: %+v / %+v", next, again)
		}
		if !changed && !sameReport(next, codexReport{}) {
			t.Fatalf("unchanged, yet the report moved: %+v", next)
		}
		if _, moved := applyCodexLine(next, line, now); moved && next.activity == (codexReport{}).activity {
			// Usage fields are absolute: reading the line again sets the same.
			t.Fatalf("re-reading a usage line changed the report again")
		}
		u := next.usage
		for _, p := range []*float64{u.Context, u.FiveHour, u.Weekly} {
			if p != nil && (math.IsNaN(*p) || math.IsInf(*p, 0)) {
				t.Fatalf("percentage %v from %q", *p, line)
			}
		}
	})
}

// FuzzRegisterMCPJSON: whatever a user (or another program) left in
// .mcp.json, Register either refuses with ErrMCPJSON and leaves the file
// byte for byte as it was, or writes a valid file that holds our entry and
// keeps every other top-level key and every other server with its value
// unchanged (docs/design.md §7: a user's file keeps every key we did not
// write).
func FuzzRegisterMCPJSON(f *testing.F) {
	f.Add([]byte(`{"mcpServers":{"other":{"command":"x"}},"z":1}`))
	f.Add([]byte(`{"mcpServers":{"pullcept-room-old":{"command":"p","env":{"PULLCEPT_ROOM_URL":"ws://127.0.0.1:1/room"}}}}`))
	f.Add([]byte(`{"mcpServers":{"a":1,"a":2}}`))
	f.Add([]byte(`{"mcpServers":null}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"x":"\u003c\u2028"}`))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		path := filepath.Join(dir, ".mcp.json")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := Register(dir, testEntry("lin", testTopic), testRoom)
		after, rerr := os.ReadFile(path)
		if rerr != nil {
			t.Fatal(rerr)
		}
		if err != nil {
			if !errors.Is(err, ErrMCPJSON) {
				t.Fatalf("refusal %v does not wrap ErrMCPJSON", err)
			}
			if !bytes.Equal(after, data) {
				t.Fatalf("refused, yet the file changed:\n%q\n→\n%q", data, after)
			}
			return
		}
		var top, servers config.Object
		if err := json.Unmarshal(after, &top); err != nil {
			t.Fatalf("written file is not a JSON object: %v\n%s", err, after)
		}
		raw, _ := top.Get(mcpJSONServers)
		if err := json.Unmarshal(raw, &servers); err != nil {
			t.Fatalf("written mcpServers: %v", err)
		}
		if _, ok := servers.Get(MCPKey("lin", testTopic)); !ok {
			t.Fatalf("our entry is missing:\n%s", after)
		}
		var was, wasServers config.Object
		if len(bytes.TrimSpace(data)) == 0 || json.Unmarshal(data, &was) != nil {
			return // empty file: nothing of the user's to keep
		}
		for _, k := range was.Keys() {
			v, _ := was.Get(k)
			got, ok := top.Get(k)
			if k == mcpJSONServers {
				_ = json.Unmarshal(v, &wasServers)
				continue
			}
			if !ok || !sameJSON(got, v) {
				t.Fatalf("key %q: %s → %s", k, v, got)
			}
		}
		for _, k := range wasServers.Keys() {
			v, _ := wasServers.Get(k)
			got, ok := servers.Get(k)
			if !ok {
				// Only a past run's room entries are dropped.
				if !isPullceptKey(k) {
					t.Fatalf("server %q dropped", k)
				}
				continue
			}
			if k != MCPKey("lin", testTopic) && !sameJSON(got, v) {
				t.Fatalf("server %q: %s → %s", k, v, got)
			}
		}
	})
}

func isPullceptKey(k string) bool {
	return len(k) >= len(MCPKeyPrefix) && k[:len(MCPKeyPrefix)] == MCPKeyPrefix
}

// sameJSON compares two JSON texts by value after compacting whitespace.
func sameJSON(a, b json.RawMessage) bool {
	var x, y bytes.Buffer
	if json.Compact(&x, a) != nil || json.Compact(&y, b) != nil {
		return bytes.Equal(a, b)
	}
	return bytes.Equal(x.Bytes(), y.Bytes())
}
