package claude

import (
	"encoding/json"
	"testing"

	"github.com/pullcept/pullcept/seats/launch"
	"github.com/pullcept/pullcept/testdata/launchkit"
)

// buildLaunch builds in's line with the Claude adapter.
func buildLaunch(in launch.Input) (launch.Launch, error) { return launch.Build(in, &Adapter{}) }

// mustLaunch is buildLaunch failing t on a refusal or a leak
// (launchkit.Build).
func mustLaunch(t *testing.T, in launch.Input) launch.Launch {
	t.Helper()
	return launchkit.Build(t, in, &Adapter{})
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
