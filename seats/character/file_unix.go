//go:build !windows

package character

import "syscall"

// openNoBlockFlag opens a character file without waiting for a FIFO's
// writer (reads of a regular file ignore it).
const openNoBlockFlag = syscall.O_NONBLOCK
