package pty

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestNoDescriptorLeaksIntoASeat (issue 31 review): a descriptor Pullcept
// holds without close-on-exec — a library's epoll, one the shell left
// open — does not reach a seat's program, nor do the pipes of the chain
// it runs under (the init's status and every link's end report): alone,
// under its guard, isolated or both, it holds its terminal only.
func TestNoDescriptorLeaksIntoASeat(t *testing.T) {
	fd, err := unix.EpollCreate1(0) // as bubbletea's input reader makes it
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	for _, c := range endChains {
		t.Run(c.name, func(t *testing.T) {
			// ls lists the shell's descriptors ($$), not its own; no
			// redirection, which makes the shell save one.
			p := startChain(t, c, Options{Argv: []string{"/bin/sh", "-c", "echo fds; ls /proc/$$/fd; echo end"}})
			out := collect(p)
			out.waitFor(t, "end\r\n")
			if code := waitExit(t, p); code != 0 {
				t.Fatalf("exit %d", code)
			}
			_, list, _ := strings.Cut(out.String(), "fds\r\n")
			list, _, _ = strings.Cut(list, "end\r\n")
			if fds := strings.Fields(list); !slices.Equal(fds, []string{"0", "1", "2"}) {
				t.Errorf("the program holds descriptors %v, want 0 1 2 (Pullcept's epoll is %d)", fds, fd)
			}
		})
	}
}
