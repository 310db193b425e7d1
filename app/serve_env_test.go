package app

import (
	"slices"
	"strings"
	"testing"
)

// TestFilterEnvKeepsWhatTheUIReads: a client's variables that say which
// terminal rings how (tui chooseRing) and whether it is an ssh session
// are kept, capped like the rest; anything else is dropped.
func TestFilterEnvKeepsWhatTheUIReads(t *testing.T) {
	t.Parallel()
	kept := []string{"TMUX=/tmp/tmux-1000/default,4242,0", "LC_TERMINAL=iTerm2", "KITTY_WINDOW_ID=1",
		"WEZTERM_PANE=0", "GHOSTTY_RESOURCES_DIR=/usr/share/ghostty", "KONSOLE_VERSION=230400", "VTE_VERSION=7802",
		"SSH_CONNECTION=192.0.2.1 50000 192.0.2.2 22", "SSH_TTY=/dev/pts/3", "TERM_PROGRAM=WezTerm"}
	in := append(slices.Clone(kept), "PATH=/bin", "SSH_AUTH_SOCK=/tmp/agent", "HOME=/root",
		"KITTY_WINDOW_ID="+strings.Repeat("9", maxEnvValue+1))
	if got := filterEnv(in); !slices.Equal(got, kept) {
		t.Errorf("filterEnv kept %q, want %q", got, kept)
	}
}

// TestDesktopClientRemote: the human of an attached UI is remote when the
// session came over the --ssh listener or the client's terminal is an
// ssh session; a local client of the socket is not.
func TestDesktopClientRemote(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		peer peerInfo
		env  []string
		want bool
	}{
		{"socket, local terminal", peerInfo{pid: 42}, []string{"TERM=xterm"}, false},
		{"socket, terminal over ssh", peerInfo{pid: 42}, []string{"SSH_CONNECTION=192.0.2.1 50000 192.0.2.2 22"}, true},
		{"socket, ssh tty", peerInfo{}, []string{"SSH_TTY=/dev/pts/3"}, true},
		{"the --ssh listener", peerInfo{remote: "192.0.2.1:50000"}, nil, true},
	} {
		if got := clientRemote(c.peer, c.env); got != c.want {
			t.Errorf("%s: clientRemote = %v, want %v", c.name, got, c.want)
		}
	}
}
