package launch

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/pullcept/pullcept/config"
)

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
