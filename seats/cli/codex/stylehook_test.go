package codex

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// The key Codex 0.169.0 gave Li+'s hook in the recorded answers.
const recordedStyleKey = "/home/u/proj/.codex/hooks.json:session_start:1:0"

// readHooksList reads a recorded hooks/list answer (testdata/README.md).
func readHooksList(t *testing.T, name string) codexHooksList {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var l codexHooksList
	if err := json.Unmarshal(b, &l); err != nil {
		t.Fatal(err)
	}
	return l
}

// TestStyleHookKeys: of the real server's list, only the SessionStart
// command hook running Li+'s helper is turned off, and the override is
// the hooks.state table Codex merges over the user's.
func TestStyleHookKeys(t *testing.T) {
	t.Parallel()
	l := readHooksList(t, "hooks-list-0.169.0.json")
	keys := l.styleHookKeys()
	if !slices.Equal(keys, []string{recordedStyleKey}) {
		t.Fatalf("keys %q, want only Li+'s hook", keys)
	}
	cfg := map[string]any{"model_reasoning_effort": "high"}
	got := withStyleHooksOff(cfg, keys)
	want := map[string]any{"model_reasoning_effort": "high",
		"hooks.state": map[string]any{recordedStyleKey: map[string]any{"enabled": false}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("config %#v\nwant %#v", got, want)
	}
	if len(cfg) != 1 {
		t.Errorf("the plan's config was changed: %#v", cfg)
	}
	if got := withStyleHooksOff(cfg, nil); !reflect.DeepEqual(got, cfg) {
		t.Errorf("no keys: %#v", got)
	}

	// What counts as Li+'s hook.
	for _, tc := range []struct {
		h    codexHook
		want bool
	}{
		{codexHook{EventName: "sessionStart", HandlerType: "command", Command: `python "C:/p/.codex/hooks/Codex-Output-Style.py" hook`}, true},
		{codexHook{EventName: "preToolUse", HandlerType: "command", Command: "python3 codex-output-style.py"}, false},
		{codexHook{EventName: "sessionStart", HandlerType: "prompt", Command: "codex-output-style.py"}, false},
		{codexHook{EventName: "sessionStart", HandlerType: "command", Command: "python3 codex-output.py"}, false},
	} {
		if got := tc.h.isStyleHook(); got != tc.want {
			t.Errorf("%+v: %v, want %v", tc.h, got, tc.want)
		}
	}
	// Every one, once, enabled or not.
	l.Data = append(l.Data, l.Data...)
	l.Data[1].Hooks = append(slices.Clone(l.Data[1].Hooks), codexHook{Key: "b", EventName: "sessionStart", HandlerType: "command", Command: "x/codex-output-style.py"})
	if keys := l.styleHookKeys(); !slices.Equal(keys, []string{recordedStyleKey, "b"}) {
		t.Errorf("keys %q", keys)
	}
}

// TestCheckStyleHooksOff: the conversation's own list (recorded after the
// override) passes; the server's list, where the hook still runs, and a
// list without the key turned off refuse.
func TestCheckStyleHooksOff(t *testing.T) {
	t.Parallel()
	thread := readHooksList(t, "hooks-list-thread-0.169.0.json")
	if err := checkStyleHooksOff(thread, []string{recordedStyleKey}); err != nil {
		t.Errorf("the recorded conversation: %v", err)
	}
	server := readHooksList(t, "hooks-list-0.169.0.json")
	if err := checkStyleHooksOff(server, []string{recordedStyleKey}); !errors.Is(err, ErrStyleHook) || !strings.Contains(err.Error(), "twice") {
		t.Errorf("the hook still enabled: %v", err)
	}
	if err := checkStyleHooksOff(server, nil); !errors.Is(err, ErrStyleHook) {
		t.Errorf("an enabled hook nobody turned off: %v", err)
	}
	if err := checkStyleHooksOff(thread, []string{recordedStyleKey, "gone"}); !errors.Is(err, ErrStyleHook) || !strings.Contains(err.Error(), `"gone"`) {
		t.Errorf("a key turned off but not listed: %v", err)
	}
	if err := checkStyleHooksOff(codexHooksList{}, nil); err != nil {
		t.Errorf("no hooks at all: %v", err)
	}
}
