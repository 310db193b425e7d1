package localmcp

import (
	"os"
	"testing"

	"github.com/pullcept/pullcept/testdata/fakemcp"
)

// The scripted MCP stdio server of these tests is testdata/fakemcp: this
// test binary, re-executed with fakemcp.Env set.

func TestMain(m *testing.M) { os.Exit(fakemcp.Run(m)) }

// fakeConfig scripts the fake server; fakeEvent is one get_event answer.
type (
	fakeConfig = fakemcp.Config
	fakeEvent  = fakemcp.Event
)

// fakeSpec is a Spec that runs the fake server scripted by cfg.
func fakeSpec(t testing.TB, cfg fakeConfig) Spec {
	t.Helper()
	l := fakemcp.Command(t, cfg)
	return Spec{Command: l.Command, Args: l.Args, Env: l.Env}
}

// pushLine is a channel push as the bridge writes it (meta.message_id is
// the event id; "" leaves the id out).
func pushLine(id, content string) string { return fakemcp.PushLine(id, content) }

// TestFakeSpeaksOurChannel: the shared fake pushes on the method the
// supervisor reads.
func TestFakeSpeaksOurChannel(t *testing.T) {
	if fakemcp.ChannelMethod != ChannelMethod {
		t.Errorf("fakemcp pushes %q, the supervisor reads %q", fakemcp.ChannelMethod, ChannelMethod)
	}
}
