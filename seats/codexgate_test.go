//go:build linux || darwin

package seats_test

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/pullcept/pullcept/seats/cli/codex"
)

// checkGate (issue 31): an app-server seat's TUI holds no token for its
// server in its environment, and a process outside the TUI's tree — this
// test, as a sibling seat would — is refused at the TUI's gate.
func checkGate(t *testing.T, gate string, tuiPid int) {
	t.Helper()
	env, err := environOf(tuiPid)
	if err != nil {
		t.Fatalf("the TUI's environment: %v", err)
	}
	for _, kv := range env {
		if strings.HasPrefix(kv, codex.EnvRemoteToken+"=") {
			t.Errorf("the TUI's environment holds the server's token: %s=…", codex.EnvRemoteToken)
		}
	}
	d := websocket.Dialer{NetDialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", gate)
	}}
	c, resp, err := d.Dial("ws://localhost/rpc", nil)
	if err == nil {
		c.Close()
		t.Fatal("the gate let a process outside the seat's terminal attach to its conversation")
	}
	if resp != nil && resp.StatusCode != http.StatusForbidden {
		t.Errorf("a sibling at the gate: %v (response %+v), want it closed at accept or 403", err, resp)
	}
}
