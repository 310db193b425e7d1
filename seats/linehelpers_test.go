package seats

import (
	"encoding/json"
	"testing"

	"github.com/pullcept/pullcept/seats/launch"
	"github.com/pullcept/pullcept/testdata/launchkit"
)

// mustLaunch builds in's line with its kind's adapter (launchkit.Build).
func mustLaunch(t *testing.T, in launch.Input) launch.Launch {
	t.Helper()
	return launchkit.Build(t, in, newKinds(ManagerOptions{})[in.Account.Kind])
}

// decodeSettings reads the --settings JSON.
func decodeSettings(t *testing.T, js string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(js), &m); err != nil {
		t.Fatalf("--settings is not JSON: %v\n%s", err, js)
	}
	return m
}
