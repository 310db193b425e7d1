package codex

import (
	"fmt"
	"slices"
	"strings"
)

// Li+'s output-style hook in an app-server seat (spec #299 «キャラクターは
// thread/start の developerInstructions で渡し、hook では渡さない»,
// docs/design.md §9 "App-server mode"): a project with Li+ registers a
// SessionStart hook that runs .codex/hooks/codex-output-style.py and hands
// the character's body to the model as additional context. A seat that
// sends the character in its developer instructions turns exactly those
// hooks off for its own conversation, through thread/start's (and
// thread/resume's) config overrides — {"hooks.state": {<key>: {"enabled":
// false}}}, merged over the user's hooks.state so the hook keeps its trust
// (measured with Codex 0.169.0: the thread's hooks/list shows it disabled
// and still trusted, the file and the server's own list unchanged, the
// project's other SessionStart hooks still run). The spec's way, `-c
// hooks.state={…}` on the server line, needs the keys before the server
// runs; the thread's overrides need them only before the thread.

// codexStyleHelper is the script Li+'s output-style hook runs (#281).
const codexStyleHelper = "codex-output-style.py"

// codexHookStateKey is the config path of the hooks' per-key state.
const codexHookStateKey = "hooks.state"

// codexHook is one entry of hooks/list's answer (HookMetadata), the part
// read here.
type codexHook struct {
	Key         string `json:"key"`
	EventName   string `json:"eventName"`
	HandlerType string `json:"handlerType"`
	Command     string `json:"command"`
	Enabled     bool   `json:"enabled"`
}

// codexHooksList is hooks/list's answer (HooksListResponse).
type codexHooksList struct {
	Data []struct {
		Hooks []codexHook `json:"hooks"`
	} `json:"data"`
}

// isStyleHook: a SessionStart command hook that runs Li+'s helper (the
// name compared without case: Windows finds the file so too).
func (h codexHook) isStyleHook() bool {
	return h.EventName == "sessionStart" && h.HandlerType == "command" &&
		strings.Contains(strings.ToLower(h.Command), codexStyleHelper)
}

// styleHookKeys are the keys of every style hook listed, enabled or not,
// sorted and once each.
func (l codexHooksList) styleHookKeys() []string {
	var keys []string
	for _, e := range l.Data {
		for _, h := range e.Hooks {
			if h.isStyleHook() && h.Key != "" {
				keys = append(keys, h.Key)
			}
		}
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// withStyleHooksOff is the conversation's config overrides with the hooks
// keys turned off (cfg itself is not changed; nil keys: cfg as it is).
func withStyleHooksOff(cfg map[string]any, keys []string) map[string]any {
	if len(keys) == 0 {
		return cfg
	}
	out := make(map[string]any, len(cfg)+1)
	for k, v := range cfg {
		out[k] = v
	}
	state := make(map[string]any, len(keys))
	for _, k := range keys {
		state[k] = map[string]any{"enabled": false}
	}
	out[codexHookStateKey] = state
	return out
}

// checkStyleHooksOff reads the conversation's own hooks/list: every key
// turned off is listed and disabled, and no enabled style hook is left to
// deliver the character a second time.
func checkStyleHooksOff(l codexHooksList, off []string) error {
	seen := map[string]bool{}
	for _, e := range l.Data {
		for _, h := range e.Hooks {
			if !h.isStyleHook() {
				continue
			}
			if h.Enabled {
				return fmt.Errorf("%w: the conversation still runs %q on SessionStart (hook %q): the character would arrive twice", ErrStyleHook, codexStyleHelper, h.Key)
			}
			seen[h.Key] = true
		}
	}
	for _, k := range off {
		if !seen[k] {
			return fmt.Errorf("%w: hook %q, turned off for the conversation, is not in its hooks/list", ErrStyleHook, k)
		}
	}
	return nil
}
