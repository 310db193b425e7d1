package fakecli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// ConfigAccount is an account as config.json holds it, for tests that
// start the real binary on a data directory of their own.
type ConfigAccount struct {
	ID      string      `json:"id"`
	Name    string      `json:"name"`
	Kind    string      `json:"kind"`
	Cwd     string      `json:"cwd,omitempty"`
	Command string      `json:"command,omitempty"`
	Options string      `json:"launch_options,omitempty"`
	Env     []ConfigEnv `json:"env,omitempty"`
	Server  string      `json:"server,omitempty"` // kind mcp: its mcp-servers.json entry
}

// ConfigEnv is one env variable of a ConfigAccount.
type ConfigEnv struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// SeatEnv is the env a seat needs to run as the fake CLI.
func SeatEnv() []ConfigEnv { return []ConfigEnv{{Name: Env, Value: "1"}} }

// WriteConfig writes dataDir/config.json: the admin Alice, then accounts,
// and the top-level members in extra (nil for none).
func WriteConfig(t testing.TB, dataDir string, extra map[string]any, accounts ...ConfigAccount) {
	t.Helper()
	doc := map[string]any{}
	for k, v := range extra {
		doc[k] = v
	}
	doc["accounts"] = append([]ConfigAccount{{ID: "admin", Name: "Alice", Kind: "admin"}}, accounts...)
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dataDir, "config.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
}
