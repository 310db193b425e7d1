//go:build !unix

package fakemcp

import "os/exec"

// detach: no sessions to leave here.
func detach(*exec.Cmd) bool { return false }
