package launch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestMCPKey(t *testing.T) {
	t.Parallel()
	ids := []string{
		"account-1", "8f14e45f-ceea-467a-b160-6f14e45fceea", "", "リン", "---", "UPPER_case.id",
		strings.Repeat("x", 500), "mcp-github-webhook-mcp",
	}
	seen := map[string]string{}
	for _, id := range ids {
		for _, topic := range []string{"t-1", "t-2", strings.Repeat("topic", 100)} {
			k := MCPKey(id, topic)
			if len(k) > MaxMCPKeyLen {
				t.Errorf("MCPKey(%q, …) = %q: %d > %d characters", id, k, len(k), MaxMCPKeyLen)
			}
			if len(ToolName(k, "control_account_session")) > 64 {
				t.Errorf("longest tool name of %q exceeds 64", k)
			}
			if !strings.HasPrefix(k, MCPKeyPrefix+"-") || strings.Trim(k, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" || strings.Contains(k, "--") {
				t.Errorf("MCPKey(%q) = %q: not [a-z0-9-] with single dashes", id, k)
			}
			if prev, ok := seen[k]; ok {
				t.Errorf("MCPKey collision: %q for %s and %q/%q", k, prev, id, topic)
			}
			seen[k] = id + "/" + topic
			if MCPKey(id, topic) != k {
				t.Error("MCPKey is not deterministic")
			}
		}
	}
	if got := MCPKey("account-1", "t"); !strings.HasPrefix(got, "pullcept-room-account-1-") {
		t.Errorf("slug not legible: %q", got)
	}
	if got := MCPKey("リン", "t"); len(got) != len("pullcept-room-")+10 {
		t.Errorf("empty slug key = %q", got)
	}
}

func TestRegisterNewFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e := testEntry("lin", testTopic)
	e.UnseenHistory = true
	st, err := Register(dir, e, testRoom)
	if err != nil {
		t.Fatal(err)
	}
	if st.Key != MCPKey("lin", testTopic) || len(st.Others) != 0 || st.Path != filepath.Join(dir, ".mcp.json") {
		t.Errorf("state %+v", st)
	}
	data := readFile(t, st.Path)
	var got map[string]any
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"mcpServers": map[string]any{st.Key: map[string]any{
		"type": "stdio", "command": testPullcept, "args": []any{"sidecar"}, "alwaysLoad": true,
		"env": map[string]any{
			"PULLCEPT_ROOM_URL": testRoom, "PULLCEPT_AGENT_NAME": "Nlin", "PULLCEPT_ACCOUNT_ID": "lin",
			"PULLCEPT_ROOM_ID": testTopic, "PULLCEPT_HUE": "145", "PULLCEPT_UNSEEN_HISTORY": "1",
		},
	}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf(".mcp.json\n%s\nwant\n%v", data, want)
	}
	if bytes.Contains(data, []byte("TOKEN")) || bytes.Contains(data, []byte("LAUNCHED_AS")) {
		t.Errorf(".mcp.json carries process-only variables:\n%s", data)
	}
	// The same seat again: one entry, the unseen mark gone (rewritten whole).
	e.UnseenHistory, e.AgentName = false, "Renamed"
	if _, err := Register(dir, e, testRoom); err != nil {
		t.Fatal(err)
	}
	var again map[string]map[string]map[string]any
	if err := json.Unmarshal(readFile(t, st.Path), &again); err != nil {
		t.Fatal(err)
	}
	if len(again["mcpServers"]) != 1 {
		t.Errorf("re-register accumulated entries: %v", again)
	}
	env := again["mcpServers"][st.Key]["env"].(map[string]any)
	if env["PULLCEPT_AGENT_NAME"] != "Renamed" || env["PULLCEPT_UNSEEN_HISTORY"] != nil {
		t.Errorf("entry not rewritten whole: %v", env)
	}
}

func TestRegisterKeepsForeignAndCleansDead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	live := MCPKey("lay", testTopic)
	otherTopic := MCPKey("lin", "t-2")
	body := fmt.Sprintf(`{
  "comment": "mine <&>",
  "mcpServers": {
    "theirs": {"command": "their-server", "args": ["--flag"], "env": {"Z": "1", "A": "2"}, "extra": [1, {"b": null}]},
    "pullcept-room": {"env": {"PULLCEPT_ROOM_URL": "ws://127.0.0.1:1/old"}},
    %q: {"command": "x", "env": {"PULLCEPT_ROOM_URL": %q}},
    "pullcept-room-theirs": {"command": "not-ours"},
    %q: {"env": {"PULLCEPT_ROOM_URL": %q}},
    "pullcept-room-stale-0000000000": {"env": {"PULLCEPT_ROOM_URL": "ws://127.0.0.1:2/old"}},
    "zzz": 42
  },
  "trailing": {"keep": true}
}`, live, testRoom, otherTopic, testRoom)
	path := filepath.Join(dir, ".mcp.json")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	own := MCPKey("lin", testTopic)

	inspected, err := InspectMCPJSON(dir, own, testRoom)
	if err != nil {
		t.Fatal(err)
	}
	if string(readFile(t, path)) != body {
		t.Fatal("InspectMCPJSON wrote the file")
	}
	st, err := Register(dir, testEntry("lin", testTopic), testRoom)
	if err != nil {
		t.Fatal(err)
	}
	wantOthers := []string{live, "pullcept-room-theirs", otherTopic}
	wantDead := []string{"pullcept-room", "pullcept-room-stale-0000000000"}
	if !slices.Equal(st.Others, wantOthers) || !slices.Equal(st.Dead, wantDead) {
		t.Errorf("state others %q dead %q; want %q %q", st.Others, st.Dead, wantOthers, wantDead)
	}
	if !reflect.DeepEqual(inspected, st) {
		t.Errorf("InspectMCPJSON %+v differs from Register %+v", inspected, st)
	}

	data := readFile(t, path)
	var got struct {
		Comment    string                     `json:"comment"`
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
		Trailing   json.RawMessage            `json:"trailing"`
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if got.Comment != "mine <&>" || compact(t, got.Trailing) != `{"keep":true}` {
		t.Errorf("top-level keys changed:\n%s", data)
	}
	if compact(t, got.MCPServers["theirs"]) != `{"command":"their-server","args":["--flag"],"env":{"Z":"1","A":"2"},"extra":[1,{"b":null}]}` {
		t.Errorf("foreign entry changed: %s", got.MCPServers["theirs"])
	}
	if string(got.MCPServers["zzz"]) != "42" {
		t.Errorf("non-object entry changed: %s", got.MCPServers["zzz"])
	}
	for _, k := range wantDead {
		if _, ok := got.MCPServers[k]; ok {
			t.Errorf("dead entry %q kept", k)
		}
	}
	for _, k := range append(wantOthers, own) {
		if _, ok := got.MCPServers[k]; !ok {
			t.Errorf("entry %q lost", k)
		}
	}
	// Order: foreign entries where they were, ours appended, "trailing" last.
	order := []string{`"theirs"`, `"` + live + `"`, `"zzz"`, `"` + own + `"`, `"trailing"`}
	for i := 1; i < len(order); i++ {
		if bytes.Index(data, []byte(order[i-1])) > bytes.Index(data, []byte(order[i])) {
			t.Errorf("order changed around %s and %s:\n%s", order[i-1], order[i], data)
		}
	}
}

func compact(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestRegisterRefusesBadFiles(t *testing.T) {
	t.Parallel()
	for _, body := range []string{`{"mcpServers": {`, `[1, 2]`, `{"mcpServers": []}`} {
		dir := t.TempDir()
		path := filepath.Join(dir, ".mcp.json")
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := Register(dir, testEntry("lin", testTopic), testRoom); !errors.Is(err, ErrMCPJSON) {
			t.Errorf("Register over %q: %v, want ErrMCPJSON", body, err)
		}
		if _, err := InspectMCPJSON(dir, "k", testRoom); !errors.Is(err, ErrMCPJSON) {
			t.Errorf("Inspect over %q: %v, want ErrMCPJSON", body, err)
		}
		if string(readFile(t, path)) != body {
			t.Errorf("file %q changed after a refusal", body)
		}
	}
	e := testEntry("lin", testTopic)
	e.PullceptPath = "pullcept"
	if _, err := Register(t.TempDir(), e, testRoom); !errors.Is(err, ErrNoPullceptPath) {
		t.Errorf("relative pullcept path: %v", err)
	}
	if _, err := Register(t.TempDir(), testEntry("lin", testTopic), ""); !errors.Is(err, ErrRoomAddress) {
		t.Errorf("no room URL: %v", err)
	}
}

func TestRegisterConcurrentSeatsOneDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var wg sync.WaitGroup
	const seats = 8
	errs := make(chan error, seats)
	for i := range seats {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := Register(dir, testEntry(fmt.Sprintf("acc-%d", i), testTopic), testRoom)
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	var got map[string]map[string]any
	if err := json.Unmarshal(readFile(t, filepath.Join(dir, ".mcp.json")), &got); err != nil {
		t.Fatal(err)
	}
	if len(got["mcpServers"]) != seats {
		t.Errorf("%d of %d entries survived concurrent registration", len(got["mcpServers"]), seats)
	}
}

func TestUnregister(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := Unregister(dir, "pullcept-room-x", false); err != nil {
		t.Errorf("missing file: %v", err)
	}
	a, b := testEntry("a", testTopic), testEntry("b", testTopic)
	for _, e := range []MCPEntry{a, b} {
		if _, err := Register(dir, e, testRoom); err != nil {
			t.Fatal(err)
		}
	}
	if err := Unregister(dir, a.Key, false); err != nil {
		t.Fatal(err)
	}
	st, err := InspectMCPJSON(dir, "none", testRoom)
	if err != nil || !slices.Equal(st.Others, []string{b.Key}) {
		t.Errorf("after Unregister: %+v %v", st, err)
	}
	if err := Unregister(dir, "absent", false); err != nil {
		t.Errorf("absent key: %v", err)
	}
}

// A .mcp.json the seat's Register created is removed again once the seat's
// entry was all it held (a seat in the home folder left {"mcpServers": {}}
// there); one that holds anything else — a sibling's entry, a key of the
// user's — stays, and a file Register did not create always stays.
func TestUnregisterRemovesTheFileItMade(t *testing.T) {
	t.Parallel()
	path := func(dir string) string { return filepath.Join(dir, ".mcp.json") }
	a, b := testEntry("a", testTopic), testEntry("b", testTopic)

	dir := t.TempDir()
	st, err := Register(dir, a, testRoom)
	if err != nil || !st.Created {
		t.Fatalf("first Register: %+v %v", st, err)
	}
	if err := Unregister(dir, a.Key, st.Created); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path(dir)); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the file it made is still there: %v", err)
	}

	dir = t.TempDir()
	st, _ = Register(dir, a, testRoom)
	if st2, err := Register(dir, b, testRoom); err != nil || st2.Created {
		t.Fatalf("second Register: %+v %v", st2, err)
	}
	if err := Unregister(dir, a.Key, st.Created); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path(dir)); err != nil {
		t.Fatalf("a file holding a sibling's entry went: %v", err)
	}

	dir = t.TempDir()
	if err := os.WriteFile(path(dir), []byte(`{"mcpServers": {}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	st, _ = Register(dir, a, testRoom)
	if st.Created {
		t.Fatal("Register says it made a file that was there")
	}
	if err := Unregister(dir, a.Key, st.Created); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(path(dir)); err != nil || !strings.Contains(string(b), "mcpServers") {
		t.Fatalf("the user's own file: %q %v", b, err)
	}
}

func TestCheckDisabled(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	key := MCPKey("lin", testTopic)
	if off, err := CheckDisabled(dir, key); off || err != nil {
		t.Errorf("no settings file: %v %v", off, err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, ".claude", "settings.local.json")
	write := func(s string) {
		if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"disabledMcpjsonServers": ["other", "` + key + `"], "permissions": {}}`)
	if off, err := CheckDisabled(dir, key); !off || err != nil {
		t.Errorf("disabled key not found: %v %v", off, err)
	}
	if off, _ := CheckDisabled(dir, "pullcept-room-else"); off {
		t.Error("another key reported disabled")
	}
	write(`{"disabledMcpjsonServers": "x"}`)
	if _, err := CheckDisabled(dir, key); !errors.Is(err, ErrMCPJSON) {
		t.Errorf("bad list: %v", err)
	}
	write(`{nope`)
	if _, err := CheckDisabled(dir, key); !errors.Is(err, ErrMCPJSON) {
		t.Errorf("bad JSON: %v", err)
	}
}

// TestInspectSeesRoomKeysAbove: Claude Code reads .mcp.json in parent
// directories too, so the room keys there must be disabled for a seat below
// (else it stops at a "new MCP servers found" dialog).
func TestInspectSeesRoomKeysAbove(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	seat := filepath.Join(root, "a", "seat")
	if err := os.MkdirAll(seat, 0o700); err != nil {
		t.Fatal(err)
	}
	up := `{"mcpServers":{"pullcept-room-bash-1":{"command":"x","env":{"PULLCEPT_ROOM_URL":"ws://127.0.0.1:1/room"}},"other":{"command":"y"}}}`
	if err := os.WriteFile(filepath.Join(root, ".mcp.json"), []byte(up), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "a", ".mcp.json"), []byte(`not json`), 0o600); err != nil {
		t.Fatal(err)
	}
	own := MCPKey("claudia", "t-1")
	st, err := InspectMCPJSON(seat, own, "ws://127.0.0.1:2/room")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(st.Others, []string{"pullcept-room-bash-1"}) {
		t.Fatalf("others = %q", st.Others)
	}
}
