//go:build linux || darwin

package app

import (
	"os"
	"testing"

	"github.com/pullcept/pullcept/seats/pty"
)

// checkSeatIsolated: the seat of account in topic runs in namespaces of
// its own wherever this machine allows them (docs/design.md §16), so the
// real CLI's e2e tests here run isolated.
func checkSeatIsolated(t *testing.T, b *Backend, topic, account string) {
	t.Helper()
	if !pty.CanIsolate {
		return
	}
	if p := pty.Probe(os.Args[0]); !p.Isolated {
		t.Logf("seats are not isolated here: %s", p.Reason)
		return
	}
	for _, s := range b.Seats(topic) {
		if s.Account == account && s.NotIsolated != "" {
			t.Errorf("seat %s: not isolated: %s", account, s.NotIsolated)
		}
	}
}
