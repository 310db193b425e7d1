package room

import (
	"encoding/json"
	"testing"
)

// TestSuggestionKeysReadAsTheCLIReadsThem (issue 32): encoding/json
// matched a suggestion's keys case-insensitively, the last one winning,
// so {"type":"addRules","Type":"setMode",…} drew a setMode card while
// "allow always" sent back raw JSON that Claude Code (case-sensitive)
// reads as addRules. A suggestion with two keys that are equal or differ
// only in case, at any depth, is not offered now, and keys are read as
// written; a well-formed suggestion beside it still is, and the raw
// suggestions sent back are exactly the ones the card shows.
func TestSuggestionKeysReadAsTheCLIReadsThem(t *testing.T) {
	t.Parallel()
	good := `{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"npm test"}],"behavior":"allow","destination":"session"}`
	for _, bad := range []string{
		`{"type":"addRules","Type":"setMode","mode":"bypassPermissions","rules":[{"toolName":"Read"}],"behavior":"allow","destination":"session"}`,
		`{"type":"setMode","type":"addRules","mode":"acceptEdits","rules":[{"toolName":"Read"}],"destination":"session"}`,
		`{"type":"addRules","rules":[{"toolName":"Read","ToolName":"Bash"}],"behavior":"allow","destination":"session"}`,
		`{"type":"addRules","rules":[{"toolName":"Read"}],"behavior":"deny","BEHAVIOR":"allow","destination":"session"}`,
		`{"type":"setMode","mode":"default","Mode":"bypassPermissions","destination":"session"}`,
		`{"type":"addDirectories","directories":["/tmp"],"destination":"session","x":{"a":1,"A":2}}`,
		`{"Type":"setMode","mode":"bypassPermissions","destination":"session"}`,                      // no "type" as the CLI reads it
		`{"type":"setMode","mode":"bypassPermissions","destination":"session","\u212aey":1,"key":2}`, // Kelvin sign folds to k
	} {
		body := `{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"npm test"},"permission_suggestions":[` + bad + `,` + good + `]}`
		ask, raw, ok := parseAsk(json.RawMessage(body))
		if !ok {
			t.Fatalf("%s: no card", bad)
		}
		if len(ask.Suggestions) != 1 || len(raw) != 1 || string(raw[0]) != good ||
			ask.Suggestions[0].Type != "addRules" || ask.Suggestions[0].Rules[0] != "Bash(npm test)" || ask.Suggestions[0].Behavior != "allow" {
			t.Errorf("%s\n offered %+v, raw %s; want only the well-formed one", bad, ask.Suggestions, raw)
		}
	}
}
