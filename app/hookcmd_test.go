package app

import (
	"net/http"
	"testing"
)

// TestHookHasNoTimeoutOfItsOwn: `pullcept hook` waits for the room's
// answer as long as the room holds the card (up to room.MaxPermissionWait,
// which the human may choose in the settings): its client sets no time
// limit that would cut a longer wait; Claude's hook timeout bounds it.
func TestHookHasNoTimeoutOfItsOwn(t *testing.T) {
	t.Parallel()
	c := roomClient("")
	tr, ok := c.Transport.(*http.Transport)
	if !ok {
		t.Fatalf("transport %T", c.Transport)
	}
	if c.Timeout != 0 || tr.ResponseHeaderTimeout != 0 {
		t.Fatalf("client timeout %s, response header timeout %s: either cuts a long card wait", c.Timeout, tr.ResponseHeaderTimeout)
	}
}
