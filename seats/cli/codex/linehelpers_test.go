package codex

import (
	"testing"

	"github.com/pullcept/pullcept/seats/launch"
	"github.com/pullcept/pullcept/testdata/launchkit"
)

// buildLaunch builds in's line with the Codex adapter.
func buildLaunch(in launch.Input) (launch.Launch, error) { return launch.Build(in, &Adapter{}) }

// mustLaunch is buildLaunch failing t on a refusal or a leak
// (launchkit.Build).
func mustLaunch(t *testing.T, in launch.Input) launch.Launch {
	t.Helper()
	return launchkit.Build(t, in, &Adapter{})
}
