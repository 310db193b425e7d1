//go:build linux || darwin

package seats_test

import (
	"os"
	"sync"
	"testing"

	"github.com/pullcept/pullcept/seats/pty"
	"github.com/pullcept/pullcept/testdata/fakecli"
)

// probed is whether this machine gives seats their namespaces (asked once).
var probed struct {
	once sync.Once
	got  pty.Isolation
}

// namespacesHere reports whether seats run isolated on this machine: where
// the kernel refuses the namespaces a seat runs as before and the e2e tests
// do not expect isolation — except with CI set (the CI box allows them),
// where that fails the test (docs/design.md §16).
func namespacesHere(t *testing.T) bool {
	t.Helper()
	if !pty.CanIsolate {
		return false
	}
	probed.once.Do(func() { probed.got = pty.Probe(fakecli.PullceptBinary(t)) })
	if !probed.got.Isolated {
		if os.Getenv("CI") != "" {
			t.Errorf("seats cannot be isolated on the CI box: %s", probed.got.Reason)
		}
		t.Logf("seats are not isolated here: %s", probed.got.Reason)
	}
	return probed.got.Isolated
}

// checkIsolated: every seat the rig still lists ran in namespaces of its
// own (where the machine allows them), the real CLIs' among them.
func (r *rig) checkIsolated() {
	r.t.Helper()
	if !namespacesHere(r.t) {
		return
	}
	for _, s := range r.mgr.Seats(e2eTopic) {
		if !s.Isolation.Isolated {
			r.t.Errorf("seat %s ran %s", s.Account, s.Isolation)
		}
	}
}
